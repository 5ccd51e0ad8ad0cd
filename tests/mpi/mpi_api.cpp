// Scenarios of the C API on both transports: full all-to-all, zero bytes, self-sends only,
// tiny chunks, datatypes, deep backlogs of chunks at every holder, repeated calls and the plan
// cache, ialltoallv overlapped with work, repeated forwarding calls with one rank late, and plan
// files executed with the application's buffers.
#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <fstream>

#include "optiq/core/plan_io.hpp"
#include "optiq/core/planner.hpp"
#include "scenario.hpp"

using namespace mpitest;

namespace {

void full_alltoall_zero_and_self(optiq_transport tr, Checker& ck) {
  const int rank = world_rank(), size = world_size();
  for (const char* planner : {"default", "heu1", "heu2"}) {
    optiq_options o = options(planner, tr, 64);
    optiq_t ctx;
    optiq_create(MPI_COMM_WORLD, full_machine(size).c_str(), &o, &ctx);
    const std::string tag = std::string(planner) + "/" + transport_name(tr);
    checked_call(ctx, make_exchange(11, rank, size, 1, {1.0, 700, true}), MPI_BYTE, 1, ck, tag + " full all-to-all");
    checked_call(ctx, make_exchange(12, rank, size, 1, {1.0, 0, true}), MPI_BYTE, 2, ck, tag + " zero bytes");
    checked_call(ctx, make_exchange(13, rank, size, 1, {0.0, 50, true}), MPI_BYTE, 3, ck, tag + " nothing at all");
    // Self-sends only: a pattern whose only non-zero pairs are (r, r).
    Exchange self = make_exchange(14, rank, size, 1, {1.0, 0, true});
    self.scounts[rank] = self.rcounts[rank] = 333;
    self.send_elems += 333;
    self.recv_elems += 333;
    self.sdispls[rank] = static_cast<int>(self.send_elems - 333);
    self.rdispls[rank] = static_cast<int>(self.recv_elems - 333);
    checked_call(ctx, self, MPI_BYTE, 4, ck, tag + " self-sends only");
    optiq_destroy(&ctx);
  }
}

void tiny_chunks_and_datatypes(optiq_transport tr, Checker& ck) {
  const int rank = world_rank(), size = world_size();
  for (std::size_t chunk : {1, 2, 3, 5}) {
    optiq_options o = options("heu1", tr, chunk);
    o.forward_budget_bytes = 64;
    optiq_t ctx;
    optiq_create(MPI_COMM_WORLD, full_machine(size).c_str(), &o, &ctx);
    checked_call(ctx, make_exchange(20 + chunk, rank, size, 1, {0.7, 60, true}), MPI_BYTE, chunk, ck,
                 "chunk " + std::to_string(chunk) + " " + transport_name(tr));
    optiq_destroy(&ctx);
  }
  optiq_options o = options("heu2", tr, 7);
  optiq_t ctx;
  optiq_create(MPI_COMM_WORLD, full_machine(size).c_str(), &o, &ctx);
  checked_call(ctx, make_exchange(30, rank, size, 4, {0.8, 90, true}), MPI_INT, 30, ck, "MPI_INT");
  MPI_Datatype triple;
  MPI_Type_contiguous(3, MPI_SHORT, &triple);
  MPI_Type_commit(&triple);
  checked_call(ctx, make_exchange(31, rank, size, 6, {0.8, 90, true}), triple, 31, ck, "contiguous 3 x MPI_SHORT");
  MPI_Type_free(&triple);
  optiq_destroy(&ctx);
}

// Deep backlogs at every holder: each pair moves up to 1 MiB in chunks of 4 KiB, direct and
// forwarded, with up to 512 chunks in flight per rank. A receiver on rma keeps at most 256 KiB of
// gets in flight from one holder, so most announces wait in its per-holder queue and are fetched
// as earlier gets complete: a queued chunk fetched twice, never, or into another flow's place
// shows as wrong bytes or a hang.
void deep_backlogs(optiq_transport tr, Checker& ck) {
  const int rank = world_rank(), size = world_size();
  for (const char* planner : {"default", "heu2"}) {
    optiq_options o = options(planner, tr, 4096);
    optiq_t ctx;
    optiq_create(MPI_COMM_WORLD, full_machine(size).c_str(), &o, &ctx);
    const Exchange x = make_exchange(50, rank, size, 4, {1.0, 1 << 18, false});
    for (int i = 0; i < 2; ++i)
      checked_call(ctx, x, MPI_INT, 300 + i, ck, std::string("deep backlogs ") + planner + " " + transport_name(tr));
    optiq_destroy(&ctx);
  }
}

void repeated_calls_and_cache(optiq_transport tr, Checker& ck) {
  const int rank = world_rank(), size = world_size();
  for (int cache : {1, 0}) {
    optiq_options o = options("heu2", tr, 32);
    o.plan_cache = cache;
    optiq_t ctx;
    optiq_create(MPI_COMM_WORLD, full_machine(size).c_str(), &o, &ctx);
    const Exchange a = make_exchange(40, rank, size, 1, {0.6, 500, true});
    const Exchange b = make_exchange(41, rank, size, 1, {0.6, 500, true});
    for (int i = 0; i < 4; ++i) checked_call(ctx, a, MPI_BYTE, 100 + i, ck, "repeat a", i % 2);
    checked_call(ctx, b, MPI_BYTE, 200, ck, "then b");
    checked_call(ctx, a, MPI_BYTE, 201, ck, "a again");
    optiq_stats st;
    optiq_get_stats(ctx, &st);
    if (cache)
      ck.expect(st.plans_made == 2 && st.plan_cache_hits == 4, "cache on: %llu plans, %llu hits (want 2, 4)",
                st.plans_made, st.plan_cache_hits);
    else
      ck.expect(st.plans_made == 6 && st.plan_cache_hits == 0, "cache off: %llu plans, %llu hits (want 6, 0)",
                st.plans_made, st.plan_cache_hits);
    ck.expect(st.operations == 6, "%llu operations counted, want 6", st.operations);
    optiq_destroy(&ctx);
  }
}

// Work in slices between optiq_test calls; the transfer must finish and be right, and on the
// ranks that had data to wait for, work must have happened while it was in flight.
void overlap_with_work(optiq_transport tr, Checker& ck) {
  const int rank = world_rank(), size = world_size();
  optiq_options o = options("heu1", tr, 4096);
  optiq_t ctx;
  optiq_create(MPI_COMM_WORLD, full_machine(size).c_str(), &o, &ctx);
  const Exchange x = make_exchange(50, rank, size, 1, {1.0, 200000, false});
  std::vector<unsigned char> sbuf, rbuf;
  fill_buffers(x, sbuf, rbuf, rank, 50);
  optiq_request_t req = nullptr;
  int status = optiq_ialltoallv(sbuf.data(), x.scounts.data(), x.sdispls.data(), MPI_BYTE, rbuf.data(),
                                x.rcounts.data(), x.rdispls.data(), MPI_BYTE, ctx, &req);
  ck.expect(common_status(status) == OPTIQ_SUCCESS, "ialltoallv: %s", optiq_error_string(ctx));
  volatile double sink = 0;
  long slices = 0;
  for (int flag = 0; status == OPTIQ_SUCCESS && !flag;) {
    for (int i = 0; i < 2000; ++i) sink = sink + i * 0.5;  // the application's own work
    ++slices;
    status = optiq_test(&req, &flag);
  }
  ck.expect(status == OPTIQ_SUCCESS && req == nullptr, "optiq_test: %s", optiq_error_string(ctx));
  std::string why;
  const bool right = verify_buffers(x, rbuf, rank, 50, &why);
  ck.expect(right, "overlap %s: %s", transport_name(tr), why.c_str());
  long most = 0;
  MPI_Allreduce(&slices, &most, 1, MPI_LONG, MPI_MAX, MPI_COMM_WORLD);
  ck.expect(size == 1 || most > 1, "no work overlapped the transfer (%ld slices)", most);
  optiq_destroy(&ctx);
}

// Repeated forwarding calls on few slots with one rank late in turn: late into the call (its
// peers wait for it in the agreement, then race into the operation), or late between
// optiq_ialltoallv and optiq_wait (its peers wait for chunks it holds and for the slots it
// lends). Two patterns alternate, so consecutive operations use the slots differently; a
// chunk of one operation landing in the next, or in a slot still in use, shows as wrong bytes.
void skewed_repeats(optiq_transport tr, Checker& ck) {
  const int rank = world_rank(), size = world_size();
  optiq_options o = options("heu2", tr, 32);
  o.forward_budget_bytes = 8 * 32;  // eight slots: one per stream a rank forwards at 16 ranks, and spare
  const Exchange x[2] = {make_exchange(60, rank, size, 1, {0.8, 700, true}),
                         make_exchange(61, rank, size, 1, {0.8, 700, true})};
  optiq_t ctx;
  optiq_create(MPI_COMM_WORLD, full_machine(size).c_str(), &o, &ctx);
  for (int i = 0; i < 8; ++i) {
    const Exchange& e = x[i % 2];
    const bool late = rank == (3 * i + 1) % size;
    const std::string what = "skewed repeat " + std::to_string(i) + " " + transport_name(tr);
    if (i % 4 < 2) {
      if (late) usleep(20000);
      checked_call(ctx, e, MPI_BYTE, 300 + i, ck, what);
      continue;
    }
    std::vector<unsigned char> sbuf, rbuf;
    fill_buffers(e, sbuf, rbuf, rank, 300 + i);
    optiq_request_t req = nullptr;
    int status = optiq_ialltoallv(sbuf.data(), e.scounts.data(), e.sdispls.data(), MPI_BYTE, rbuf.data(),
                                  e.rcounts.data(), e.rdispls.data(), MPI_BYTE, ctx, &req);
    if (late) usleep(20000);
    if (status == OPTIQ_SUCCESS) status = optiq_wait(&req);
    if (!ck.expect(common_status(status) == OPTIQ_SUCCESS, "%s: %s", what.c_str(), optiq_error_string(ctx))) break;
    std::string why;
    const bool right = verify_buffers(e, rbuf, rank, 300 + i, &why);
    ck.expect(right, "%s: %s", what.c_str(), why.c_str());
  }
  optiq_stats st;
  optiq_get_stats(ctx, &st);
  unsigned long long forwarded = 0;
  MPI_Allreduce(&st.forwarded_bytes, &forwarded, 1, MPI_UNSIGNED_LONG_LONG, MPI_SUM, MPI_COMM_WORLD);
  ck.expect(size < 4 || forwarded > 0, "skewed repeats %s: nothing was forwarded", transport_name(tr));
  ck.expect(st.held_bytes_peak <= st.budget_bytes, "skewed repeats: held %llu bytes, budget %llu",
            st.held_bytes_peak, st.budget_bytes);
  optiq_destroy(&ctx);
}

// The bytes a plan file moves, as an exchange: peers laid out in reverse rank order with gaps,
// to check that displacements are honoured.
Exchange plan_exchange(const std::vector<long long>& out, const std::vector<long long>& in) {
  const int size = static_cast<int>(out.size());
  Exchange x;
  x.elem = 1;
  x.scounts.assign(out.begin(), out.end());
  x.rcounts.assign(in.begin(), in.end());
  x.sdispls.assign(size, 0);
  x.rdispls.assign(size, 0);
  x.send_elems = x.recv_elems = 1;
  for (int p = size - 1; p >= 0; --p) {
    x.sdispls[p] = static_cast<int>(x.send_elems);
    x.send_elems += x.scounts[p] + 1;
    x.rdispls[p] = static_cast<int>(x.recv_elems);
    x.recv_elems += x.rcounts[p] + 2;
  }
  return x;
}

// Rank 0 writes a plan with the core; every rank loads and executes it with its own buffers.
void plan_files(optiq_transport tr, int rpn, Checker& ck) {
  const int rank = world_rank(), size = world_size();
  if (size % rpn) return;
  const int nodes = size / rpn;
  const std::string spec = full_machine(nodes);
  int pid = static_cast<int>(getpid());
  MPI_Bcast(&pid, 1, MPI_INT, 0, MPI_COMM_WORLD);
  const std::string path = "/tmp/optiq-test-plan-" + std::to_string(pid) + ".json";
  if (rank == 0) {
    const optiq::Network t = optiq::parse_network(spec);
    const auto routing = optiq::make_routing(t.default_routing(), t);
    std::vector<optiq::Job> jobs;
    optiq::Rng rng(60);
    for (int a = 0; a < nodes; ++a)
      for (int b = 0; b < nodes; ++b)
        if (rng.below(2)) jobs.push_back({a, b, rng.below(3000)});
    jobs.push_back({0, nodes - 1, 1234});  // two jobs between one pair of nodes
    jobs.push_back({0, nodes - 1, 99});
    optiq::PlannerOptions po;
    po.k = 6;
    po.heu2_chunk = 64;
    optiq::save_plan(optiq::make_plan("heu1", t, *routing, jobs, po).plan, t, path);
  }
  MPI_Barrier(MPI_COMM_WORLD);
  optiq_options o = options("default", tr, 100);
  o.ranks_per_node = rpn;
  optiq_t ctx;
  optiq_create(MPI_COMM_WORLD, spec.c_str(), &o, &ctx);
  optiq_plan_t plan = nullptr;
  const int status = common_status(optiq_plan_load(ctx, path.c_str(), &plan));
  const std::string what = "plan file on " + spec + " rpn " + std::to_string(rpn) + " " + transport_name(tr);
  if (ck.expect(status == OPTIQ_SUCCESS, "%s: load: %s", what.c_str(), optiq_error_string(ctx))) {
    std::vector<long long> out(size), in(size);
    optiq_plan_counts(plan, out.data(), in.data());
    const Exchange x = plan_exchange(out, in);
    std::vector<MPI_Aint> sd(x.sdispls.begin(), x.sdispls.end()), rd(x.rdispls.begin(), x.rdispls.end());
    for (int round = 0; round < 3; ++round) {
      std::vector<unsigned char> sbuf, rbuf;
      fill_buffers(x, sbuf, rbuf, rank, 70 + round);
      const int st = common_status(optiq_execute(ctx, plan, sbuf.data(), sd.data(), rbuf.data(), rd.data()));
      std::string why;
      if (ck.expect(st == OPTIQ_SUCCESS, "%s: execute: %s", what.c_str(), optiq_error_string(ctx))) {
        const bool right = verify_buffers(x, rbuf, rank, 70 + round, &why);
        ck.expect(right, "%s: round %d: %s", what.c_str(), round, why.c_str());
      }
    }
    // Online calls still work on the same context after plan executions.
    checked_call(ctx, make_exchange(80, rank, size, 1, {0.5, 100, true}), MPI_BYTE, 80, ck, what + " then alltoallv");
    optiq_plan_free(&plan);
  }
  optiq_destroy(&ctx);
  if (rank == 0) std::remove(path.c_str());
}

// A plan file that states its time: a forwarding plan is paced to it (its last chunks cannot
// leave before most of that time has passed), a direct one is not, and eager dispatch ignores
// it; every byte arrives either way.
void paced_plan_files(optiq_transport tr, Checker& ck) {
  const int rank = world_rank(), size = world_size();
  const std::string spec = full_machine(size);
  int pid = static_cast<int>(getpid());
  MPI_Bcast(&pid, 1, MPI_INT, 0, MPI_COMM_WORLD);
  const double promised = 0.2;
  for (const char* planner : {"heu2", "default"}) {
    const std::string path = "/tmp/optiq-test-paced-" + std::to_string(pid) + "-" + planner + ".json";
    if (rank == 0) {
      const optiq::Network t = optiq::parse_network(spec);
      const auto routing = optiq::make_routing(t.default_routing(), t);
      std::vector<optiq::Job> jobs;
      for (int a = 0; a < size; ++a)
        for (int step : {1, size / 2})
          if (step > 0 && (a + step) % size != a) jobs.push_back({a, (a + step) % size, 48 << 10});
      optiq::PlannerOptions po;
      po.k = 6;
      po.heu2_chunk = 4096;
      optiq::Plan plan = optiq::make_plan(planner, t, *routing, jobs, po).plan;
      plan.seconds = promised;
      optiq::save_plan(plan, t, path);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    for (optiq_dispatch dispatch : {OPTIQ_DISPATCH_PACED, OPTIQ_DISPATCH_EAGER}) {
      optiq_options o = options("default", tr, 4096);
      o.dispatch = dispatch;
      optiq_t ctx;
      optiq_create(MPI_COMM_WORLD, spec.c_str(), &o, &ctx);
      optiq_plan_t plan = nullptr;
      const std::string what = std::string(planner) + " plan, " + (dispatch == OPTIQ_DISPATCH_PACED ? "paced" : "eager") +
                               ", " + transport_name(tr);
      if (ck.expect(common_status(optiq_plan_load(ctx, path.c_str(), &plan)) == OPTIQ_SUCCESS, "%s: load: %s",
                    what.c_str(), optiq_error_string(ctx))) {
        std::vector<long long> out(size), in(size);
        optiq_plan_counts(plan, out.data(), in.data());
        const Exchange x = plan_exchange(out, in);
        std::vector<MPI_Aint> sd(x.sdispls.begin(), x.sdispls.end()), rd(x.rdispls.begin(), x.rdispls.end());
        std::vector<unsigned char> sbuf, rbuf;
        fill_buffers(x, sbuf, rbuf, rank, 90);
        MPI_Barrier(MPI_COMM_WORLD);
        const double start = MPI_Wtime();
        const int st = common_status(optiq_execute(ctx, plan, sbuf.data(), sd.data(), rbuf.data(), rd.data()));
        double took = MPI_Wtime() - start;
        MPI_Allreduce(MPI_IN_PLACE, &took, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
        std::string why;
        if (ck.expect(st == OPTIQ_SUCCESS, "%s: execute: %s", what.c_str(), optiq_error_string(ctx)))
          ck.expect(verify_buffers(x, rbuf, rank, 90, &why), "%s: %s", what.c_str(), why.c_str());
        optiq_stats stats;
        optiq_get_stats(ctx, &stats);
        unsigned long long forwarded = 0;
        MPI_Allreduce(&stats.forwarded_bytes, &forwarded, 1, MPI_UNSIGNED_LONG_LONG, MPI_SUM, MPI_COMM_WORLD);
        // Each flow's last 4 KiB chunk of at least 12 KiB is due after two thirds of the time.
        if (dispatch == OPTIQ_DISPATCH_PACED && forwarded > 0)
          ck.expect(took >= promised * 2 / 3, "%s: took %.3f s, before the pace allows (%.3f s)", what.c_str(), took,
                    promised * 2 / 3);
        if (forwarded == 0 || dispatch == OPTIQ_DISPATCH_EAGER)  // a few hundred KiB: far below the time stated
          ck.expect(took < 10 * promised, "%s: took %.3f s, as if paced", what.c_str(), took);
        optiq_plan_free(&plan);
      }
      optiq_destroy(&ctx);
    }
    if (rank == 0) std::remove(path.c_str());
  }
}

// Bytes this call's ranks forwarded, summed over all ranks (stats are cumulative per context).
unsigned long long forwarded_total(optiq_t ctx) {
  optiq_stats st;
  optiq_get_stats(ctx, &st);
  unsigned long long sum = 0;
  MPI_Allreduce(&st.forwarded_bytes, &sum, 1, MPI_UNSIGNED_LONG_LONG, MPI_SUM, MPI_COMM_WORLD);
  return sum;
}

// min_gain on a ring: one message alone can go half each way round (the plan halves its time),
// while every rank sending to both neighbours already fills each directed link once (no plan
// beats the default route). A plan runs only when it gains at least min_gain.
void fallback_to_default_route(optiq_transport tr, Checker& ck) {
  const int rank = world_rank(), size = world_size();
  if (size < 4) return;
  const std::string ring = "torus:" + std::to_string(size);
  const long long mib = 1 << 20;
  std::vector<long long> lone_out(size, 0), lone_in(size, 0), ring_out(size, 0), ring_in(size, 0);
  if (rank == 0) lone_out[1] = mib;
  if (rank == 1) lone_in[0] = mib;
  for (int d : {1, size - 1}) ring_out[(rank + d) % size] = ring_in[(rank + size - d) % size] = mib;
  struct Case {
    const char* what;
    double min_gain;
    const std::vector<long long>*out, *in;
    bool forwards;
  };
  const Case cases[] = {{"a lone message, default min_gain", -1, &lone_out, &lone_in, true},
                        {"a lone message, min_gain 0.6", 0.6, &lone_out, &lone_in, false},
                        {"neighbour exchange, default min_gain", -1, &ring_out, &ring_in, false}};
  for (const Case& c : cases) {
    optiq_options o;
    optiq_options_init(&o);  // mcf, the default planner
    o.transport = tr;
    if (c.min_gain >= 0) o.min_gain = c.min_gain;
    optiq_t ctx = nullptr;
    const int created = optiq_create(MPI_COMM_WORLD, ring.c_str(), &o, &ctx);
    if (!ck.expect(created == OPTIQ_SUCCESS, "create: %s", optiq_error_string(ctx))) return;
    const std::string what = std::string(c.what) + "/" + transport_name(tr);
    checked_call(ctx, plan_exchange(*c.out, *c.in), MPI_BYTE, 40, ck, what);
    const unsigned long long forwarded = forwarded_total(ctx);
    ck.expect((forwarded > 0) == c.forwards, "%s: %llu bytes forwarded, expected %s", what.c_str(), forwarded,
              c.forwards ? "some" : "none");
    optiq_destroy(&ctx);
  }
  for (double bad : {-0.1, 1.0, std::nan("")}) {
    optiq_options o;
    optiq_options_init(&o);
    o.min_gain = bad;
    optiq_t ctx = nullptr;
    const int status = optiq_create(MPI_COMM_WORLD, ring.c_str(), &o, &ctx);
    ck.expect(status == OPTIQ_ERR_ARG && std::string(optiq_error_string(ctx)).find("min_gain") != std::string::npos,
              "min_gain %g: status %d, '%s'", bad, status, optiq_error_string(ctx));
    optiq_destroy(&ctx);
  }
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  Checker ck;
  for (optiq_transport tr : {OPTIQ_TRANSPORT_P2P, OPTIQ_TRANSPORT_RMA}) {
    full_alltoall_zero_and_self(tr, ck);
    tiny_chunks_and_datatypes(tr, ck);
    deep_backlogs(tr, ck);
    repeated_calls_and_cache(tr, ck);
    overlap_with_work(tr, ck);
    skewed_repeats(tr, ck);
    plan_files(tr, 1, ck);
    plan_files(tr, 2, ck);
    paced_plan_files(tr, ck);
    fallback_to_default_route(tr, ck);
  }
  const int failures = ck.total();
  if (world_rank() == 0) std::printf("%s: %d failures at %d ranks\n", failures ? "FAILED" : "passed", failures, world_size());
  MPI_Finalize();
  return failures ? 1 : 0;
}
