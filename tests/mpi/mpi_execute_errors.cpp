// optiq_plan_load and optiq_execute are collective: a bad argument on one rank gives the same
// status on every rank, so no rank waits for bytes that will never come (ctest's timeout would
// catch a hang), and the next correct execute moves every byte.
#include <unistd.h>

#include <cstdint>
#include <cstdio>

#include "optiq/core/plan_io.hpp"
#include "optiq/core/planner.hpp"
#include "scenario.hpp"

using namespace mpitest;

namespace {

struct Layout {  // the application's side of a plan: buffers laid out in reverse rank order
  Exchange x;
  std::vector<MPI_Aint> sd, rd;
};

Layout layout_of(optiq_plan_t plan) {
  const int size = world_size();
  std::vector<long long> out(size), in(size);
  optiq_plan_counts(plan, out.data(), in.data());
  Layout l;
  l.x.elem = 1;
  l.x.scounts.assign(out.begin(), out.end());
  l.x.rcounts.assign(in.begin(), in.end());
  l.x.sdispls.assign(size, 0);
  l.x.rdispls.assign(size, 0);
  l.x.send_elems = l.x.recv_elems = 1;
  for (int p = size - 1; p >= 0; --p) {
    l.x.sdispls[p] = static_cast<int>(l.x.send_elems);
    l.x.send_elems += l.x.scounts[p] + 1;
    l.x.rdispls[p] = static_cast<int>(l.x.recv_elems);
    l.x.recv_elems += l.x.rcounts[p] + 2;
  }
  l.sd.assign(l.x.sdispls.begin(), l.x.sdispls.end());
  l.rd.assign(l.x.rdispls.begin(), l.x.rdispls.end());
  return l;
}

void good_execute(optiq_t ctx, optiq_plan_t plan, const Layout& l, std::uint64_t salt, Checker& ck,
                  const std::string& what) {
  std::vector<unsigned char> sbuf, rbuf;
  fill_buffers(l.x, sbuf, rbuf, world_rank(), salt);
  const int st = common_status(optiq_execute(ctx, plan, sbuf.data(), l.sd.data(), rbuf.data(), l.rd.data()));
  if (!ck.expect(st == OPTIQ_SUCCESS, "%s: %s", what.c_str(), optiq_error_string(ctx))) return;
  std::string why;
  const bool right = verify_buffers(l.x, rbuf, world_rank(), salt, &why);
  ck.expect(right, "%s: %s", what.c_str(), why.c_str());
}

void execute_errors(optiq_transport tr, const std::string& path, Checker& ck) {
  const int rank = world_rank(), size = world_size(), last = size - 1;
  const std::string tn = transport_name(tr);
  optiq_options o = options("heu2", tr, 64);
  optiq_t ctx, other;
  optiq_create(MPI_COMM_WORLD, full_machine(size).c_str(), &o, &ctx);
  optiq_create(MPI_COMM_WORLD, full_machine(size).c_str(), &o, &other);

  optiq_plan_t plan = nullptr, foreign = nullptr, reloaded = nullptr;
  int st = optiq_plan_load(ctx, path.c_str(), rank == last ? nullptr : &plan);
  expect_error(ctx, st, OPTIQ_ERR_ARG, "plan is NULL", tn + " load into a NULL handle", ck);
  st = common_status(optiq_plan_load(ctx, path.c_str(), &plan));
  st = st == OPTIQ_SUCCESS ? common_status(optiq_plan_load(other, path.c_str(), &foreign)) : st;
  st = st == OPTIQ_SUCCESS ? common_status(optiq_plan_load(ctx, path.c_str(), &reloaded)) : st;
  if (!ck.expect(st == OPTIQ_SUCCESS, "%s load: %s", tn.c_str(), optiq_error_string(ctx))) return;
  const Layout l = layout_of(plan);
  good_execute(ctx, plan, l, 1, ck, tn + " execute");

  std::vector<unsigned char> sbuf, rbuf;
  fill_buffers(l.x, sbuf, rbuf, rank, 2);
  struct Bad {
    const char* what;
    int want;
    const char* needle;
  };
  const int peer = (rank + 1) % size;  // every rank sends to and receives from every rank
  const std::vector<Bad> cases = {
      {"NULL sdispls", OPTIQ_ERR_ARG, "sendbuf or sdispls is NULL"},
      {"negative rdispls", OPTIQ_ERR_ARG, "is negative"},
      {"rdispls past 2^63 bytes", OPTIQ_ERR_ARG, "more than optiq handles"},
      {"NULL plan", OPTIQ_ERR_ARG, "plan is NULL"},
      {"plan of another context", OPTIQ_ERR_STATE, "another context"},
      // A handle of another load on one rank: each load is a collective object of its own.
      {"plan of another load", OPTIQ_ERR_ARG, "passed a plan handle other than rank 0's"},
  };
  for (std::size_t i = 0; i < cases.size(); ++i) {
    std::vector<MPI_Aint> sd = l.sd, rd = l.rd;
    optiq_plan_t use = plan;
    const MPI_Aint* sdp = sd.data();
    if (rank == last) {
      if (i == 0) sdp = nullptr;
      if (i == 1) rd[peer] = -1;
      if (i == 2) rd[peer] = INT64_MAX - 5;
      if (i == 3) use = nullptr;
      if (i == 4) use = foreign;
      if (i == 5) use = reloaded;
    }
    st = optiq_execute(ctx, use, sbuf.data(), sdp, rbuf.data(), rd.data());
    expect_error(ctx, st, cases[i].want, cases[i].needle, tn + " execute with " + cases[i].what, ck);
    good_execute(ctx, plan, l, 10 + i, ck, tn + " execute after " + cases[i].what);
  }
  optiq_plan_free(&plan);
  optiq_plan_free(&foreign);
  optiq_plan_free(&reloaded);
  optiq_destroy(&other);
  optiq_destroy(&ctx);
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  Checker ck;
  const int size = world_size();
  int pid = static_cast<int>(getpid());
  MPI_Bcast(&pid, 1, MPI_INT, 0, MPI_COMM_WORLD);
  const std::string path = "/tmp/optiq-test-execute-" + std::to_string(pid) + ".json";
  if (world_rank() == 0) {  // every node sends to every node, itself included
    const optiq::Network t = optiq::parse_network(full_machine(size));
    const auto routing = optiq::make_routing(t.default_routing(), t);
    std::vector<optiq::Job> jobs;
    for (int a = 0; a < size; ++a)
      for (int b = 0; b < size; ++b) jobs.push_back({a, b, static_cast<optiq::Bytes>(100 + 7 * a + b)});
    optiq::PlannerOptions po;
    po.k = 6;
    po.heu2_chunk = 64;
    optiq::save_plan(optiq::make_plan("heu2", t, *routing, jobs, po).plan, t, path);
  }
  MPI_Barrier(MPI_COMM_WORLD);
  for (optiq_transport tr : {OPTIQ_TRANSPORT_P2P, OPTIQ_TRANSPORT_RMA}) execute_errors(tr, path, ck);
  MPI_Barrier(MPI_COMM_WORLD);
  if (world_rank() == 0) std::remove(path.c_str());
  const int failures = ck.total();
  if (world_rank() == 0) std::printf("%s: %d failures at %d ranks\n", failures ? "FAILED" : "passed", failures, size);
  MPI_Finalize();
  return failures ? 1 : 0;
}
