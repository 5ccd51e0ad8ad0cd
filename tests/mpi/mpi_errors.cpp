// Bad input gives the same clear error status on every rank, never a hang (ctest's timeout
// would catch one), and leaves the context usable for the next correct call.
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>

#include "optiq/core/plan_io.hpp"
#include "optiq/core/planner.hpp"
#include "scenario.hpp"

using namespace mpitest;

namespace {

struct Call {  // one alltoallv's arguments, correct until a test spoils them
  Exchange x;
  std::vector<unsigned char> sbuf, rbuf;
  MPI_Datatype stype = MPI_BYTE, rtype = MPI_BYTE;
  explicit Call(std::uint64_t seed) : x(make_exchange(seed, world_rank(), world_size(), 1, {1.0, 40, true})) {
    fill_buffers(x, sbuf, rbuf, world_rank(), seed);
  }
  int run(optiq_t ctx, const void* send = nullptr) {
    return optiq_alltoallv(send ? send : sbuf.data(), x.scounts.data(), x.sdispls.data(), stype, rbuf.data(),
                           x.rcounts.data(), x.rdispls.data(), rtype, ctx);
  }
};

void bad_calls(optiq_transport tr, Checker& ck) {
  const int rank = world_rank(), size = world_size(), last = size - 1;
  const std::string tn = transport_name(tr);
  optiq_options o = options("heu2", tr, 16);
  optiq_t ctx;
  optiq_create(MPI_COMM_WORLD, full_machine(size).c_str(), &o, &ctx);

  {  // a negative count on one rank only
    Call c(1);
    if (rank == last) c.x.scounts[0] = -3;
    expect_error(ctx, c.run(ctx), OPTIQ_ERR_ARG, "negative", tn + " negative sendcount", ck);
  }
  {
    Call c(2);
    if (rank == 0) c.x.rdispls[last] = -1;
    expect_error(ctx, c.run(ctx), OPTIQ_ERR_ARG, "negative", tn + " negative rdispl", ck);
  }
  for (int cached = 0; cached < 2; ++cached) {  // a receive count that does not match its sender
    Call c(3);
    if (cached) checked_call(ctx, c.x, MPI_BYTE, 3, ck, tn + " the pattern before it goes wrong");
    if (rank == 0) c.x.rcounts[last] += 1;
    expect_error(ctx, c.run(ctx), OPTIQ_ERR_MISMATCH, "expects", tn + " mismatched counts", ck);
  }
  {  // a strided datatype on one rank
    Call c(4);
    MPI_Datatype strided;
    MPI_Type_vector(2, 1, 2, MPI_BYTE, &strided);
    MPI_Type_commit(&strided);
    if (rank == last) c.stype = strided;
    expect_error(ctx, c.run(ctx), OPTIQ_ERR_DATATYPE, "contiguous", tn + " strided datatype", ck);
    MPI_Datatype shifted;  // no holes inside, but a lower bound that moves every element
    MPI_Type_create_resized(MPI_INT, -4, 4, &shifted);
    MPI_Type_commit(&shifted);
    if (rank == 0) c.rtype = shifted;
    c.stype = MPI_BYTE;
    expect_error(ctx, c.run(ctx), OPTIQ_ERR_DATATYPE, "contiguous", tn + " resized datatype", ck);
    MPI_Type_free(&strided);
    MPI_Type_free(&shifted);
  }
  {  // MPI_IN_PLACE is for the send buffer only; on one rank or on all
    Call c(5);
    auto in_place_recv = [&](bool here) {
      return optiq_alltoallv(c.sbuf.data(), c.x.scounts.data(), c.x.sdispls.data(), MPI_BYTE,
                             here ? MPI_IN_PLACE : c.rbuf.data(), c.x.rcounts.data(), c.x.rdispls.data(), MPI_BYTE, ctx);
    };
    expect_error(ctx, in_place_recv(rank == last), OPTIQ_ERR_ARG, "recvbuf is MPI_IN_PLACE", tn + " MPI_IN_PLACE recvbuf", ck);
    expect_error(ctx, in_place_recv(true), OPTIQ_ERR_ARG, "recvbuf is MPI_IN_PLACE", tn + " MPI_IN_PLACE recvbufs", ck);
    // In place, a rank sends each peer what it receives from it: asymmetric counts disagree.
    if (size > 1)
      expect_error(ctx, c.run(ctx, MPI_IN_PLACE), OPTIQ_ERR_MISMATCH, "expects", tn + " MPI_IN_PLACE asymmetric", ck);
  }
  {  // a NULL request on one rank
    Call c(10);
    optiq_request_t req = nullptr;
    const int st = optiq_ialltoallv(c.sbuf.data(), c.x.scounts.data(), c.x.sdispls.data(), MPI_BYTE, c.rbuf.data(),
                                    c.x.rcounts.data(), c.x.rdispls.data(), MPI_BYTE, ctx, rank == last ? nullptr : &req);
    expect_error(ctx, st, OPTIQ_ERR_ARG, "request is NULL", tn + " NULL request", ck);
    ck.expect(req == nullptr, "%s: a request after a failure", tn.c_str());
  }
  {  // counts whose bytes pass 2^63 - 1, with a datatype of 2^40 bytes
    Call c(11);
    MPI_Datatype gib, huge;
    MPI_Type_contiguous(1 << 30, MPI_BYTE, &gib);
    MPI_Type_contiguous(1 << 10, gib, &huge);
    MPI_Type_commit(&huge);
    std::vector<int> counts(size, 0), displs(size, 0);
    if (rank == last) displs[0] = (1 << 23) - 1;  // 2^63 - 2^40 bytes in, but nothing to move there
    int st = optiq_alltoallv(c.sbuf.data(), counts.data(), displs.data(), huge, c.rbuf.data(), counts.data(),
                             displs.data(), huge, ctx);
    ck.expect(common_status(st) == OPTIQ_SUCCESS, "%s: far displacements of empty messages: %s", tn.c_str(),
              optiq_error_string(ctx));
    if (rank == last) counts[0] = 1 << 23;  // 2^63 bytes
    st = optiq_alltoallv(c.sbuf.data(), counts.data(), displs.data(), huge, c.rbuf.data(), counts.data(),
                         displs.data(), huge, ctx);
    expect_error(ctx, st, OPTIQ_ERR_ARG, "more than optiq handles", tn + " counts past 2^63 bytes", ck);
    if (rank == last) counts[0] = 1 << 22;  // 2^62 bytes from there
    st = optiq_alltoallv(c.sbuf.data(), counts.data(), displs.data(), huge, c.rbuf.data(), counts.data(),
                         displs.data(), huge, ctx);
    expect_error(ctx, st, OPTIQ_ERR_ARG, "sdispls[0] plus sendcounts[0]", tn + " a region ending past 2^63 bytes", ck);
    MPI_Type_free(&gib);
    MPI_Type_free(&huge);
  }
  {
    Call c(6);
    const int st = optiq_alltoallv(c.sbuf.data(), nullptr, c.x.sdispls.data(), MPI_BYTE, c.rbuf.data(),
                                   c.x.rcounts.data(), c.x.rdispls.data(), MPI_BYTE, ctx);
    expect_error(ctx, st, OPTIQ_ERR_ARG, "NULL", tn + " NULL sendcounts", ck);
  }
  {  // a second operation while one is in flight: refused locally, the first completes
    Call a(7), b(8);
    optiq_request_t req = nullptr;
    int st = optiq_ialltoallv(a.sbuf.data(), a.x.scounts.data(), a.x.sdispls.data(), MPI_BYTE, a.rbuf.data(),
                              a.x.rcounts.data(), a.x.rdispls.data(), MPI_BYTE, ctx, &req);
    ck.expect(st == OPTIQ_SUCCESS, "%s ialltoallv: %s", tn.c_str(), optiq_error_string(ctx));
    ck.expect(b.run(ctx) == OPTIQ_ERR_BUSY, "%s: a second call while busy is not refused", tn.c_str());
    ck.expect(optiq_destroy(&ctx) == OPTIQ_ERR_BUSY && ctx, "%s: destroy while busy is not refused", tn.c_str());
    ck.expect(optiq_wait(&req) == OPTIQ_SUCCESS, "%s wait: %s", tn.c_str(), optiq_error_string(ctx));
    std::string why;
    const bool right = verify_buffers(a.x, a.rbuf, rank, 7, &why);
    ck.expect(right, "%s: the first operation after a refused second: %s", tn.c_str(), why.c_str());
  }
  if (size >= 4) {  // a budget that cannot hold one chunk per forwarded stream
    optiq_options tight = options("heu1", tr, 64);
    tight.forward_budget_bytes = 1;
    optiq_t small;
    optiq_create(MPI_COMM_WORLD, full_machine(size).c_str(), &tight, &small);
    Call c(9);
    c.x = make_exchange(9, rank, size, 1, {1.0, 3000, false});
    fill_buffers(c.x, c.sbuf, c.rbuf, rank, 9);
    const int st = common_status(c.run(small));
    ck.expect(st == OPTIQ_ERR_SCHEDULE, "%s tiny budget: %s (%s)", tn.c_str(), optiq_status_name(st),
              optiq_error_string(small));
    optiq_destroy(&small);
  }
  optiq_destroy(&ctx);
}

void bad_contexts(Checker& ck) {
  const int rank = world_rank(), size = world_size();
  struct Bad {
    const char* what;
    std::string topology;
    const char* planner;
    int want;
    const char* needle;
  };
  const std::vector<Bad> cases = {
      {"unknown planner", full_machine(size), "no-such-planner", OPTIQ_ERR_PLANNER, "unknown planner"},
      {"bad topology", "torus:2y2", "heu2", OPTIQ_ERR_TOPOLOGY, "2y2"},
      {"too many ranks", "torus:1x1", "heu2", OPTIQ_ERR_TOPOLOGY, "endpoints"},
  };
  for (const Bad& b : cases) {
    if (b.want == OPTIQ_ERR_TOPOLOGY && size == 1) continue;
    optiq_options o = options(b.planner, OPTIQ_TRANSPORT_P2P);
    optiq_t ctx = nullptr;
    const int st = common_status(optiq_create(MPI_COMM_WORLD, b.topology.c_str(), &o, &ctx));
    ck.expect(st == b.want, "%s: %s", b.what, optiq_status_name(st));
    ck.expect(ctx && std::string(optiq_error_string(ctx)).find(b.needle) != std::string::npos,
              "%s: message '%s'", b.what, optiq_error_string(ctx));
    int dummy = 0;
    ck.expect(optiq_alltoallv(&dummy, &dummy, &dummy, MPI_BYTE, &dummy, &dummy, &dummy, MPI_BYTE, ctx) ==
                  OPTIQ_ERR_STATE,
              "%s: a failed context accepts calls", b.what);
    optiq_destroy(&ctx);
  }
  {  // options that differ between ranks
    optiq_options o = options("heu2", OPTIQ_TRANSPORT_P2P, rank == size - 1 ? 32 : 16);
    optiq_t ctx = nullptr;
    const int st = common_status(optiq_create(MPI_COMM_WORLD, full_machine(size).c_str(), &o, &ctx));
    ck.expect(size == 1 || st == OPTIQ_ERR_ARG, "differing options: %s", optiq_status_name(st));
    optiq_destroy(&ctx);
  }
}

void bad_plan_files(optiq_transport tr, Checker& ck) {
  const int rank = world_rank(), size = world_size();
  int pid = static_cast<int>(getpid());
  MPI_Bcast(&pid, 1, MPI_INT, 0, MPI_COMM_WORLD);
  const std::string base = "/tmp/optiq-test-bad-" + std::to_string(pid);
  const std::string here = full_machine(size);
  // A plan made for twice as many nodes, under the same spec family, for a different topology.
  const std::string bigger = "torus:" + std::to_string(2 * size);
  const std::string other = "mesh:" + std::to_string(size);
  auto write_plan = [&](const std::string& spec, const std::string& path, int src, int dst) {
    const optiq::Network t = optiq::parse_network(spec);
    const auto routing = optiq::make_routing(t.default_routing(), t);
    optiq::save_plan(optiq::make_plan("default", t, *routing, {{src, dst, 100}}, {}).plan, t, path);
  };
  if (rank == 0) {
    write_plan(other, base + "-other.json", 0, size - 1);
    write_plan(bigger, base + "-bigger.json", 0, 2 * size - 1);
    write_plan(here, base + "-good.json", 0, size - 1);
    std::ifstream in(base + "-good.json");
    const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    std::ofstream(base + "-truncated.json") << text.substr(0, text.size() / 2);
    std::string v3 = text;
    v3.replace(v3.find("\"version\":2"), 11, "\"version\":3");
    std::ofstream(base + "-version.json") << v3;
    // Five jobs of 2^62 bytes from node 0 to itself: their sum wraps 64 bits to 2^62.
    std::string jobs;
    for (int i = 0; i < 5; ++i)
      jobs += std::string(i ? "," : "") + R"({"src":0,"dst":0,"bytes":4611686018427387904,"paths":[)" +
              R"({"bytes":4611686018427387904,"nodes":[0],"ports":[]}]})";
    std::ofstream(base + "-overflow.json") << R"({"format":"optiq-plan","version":1,"topology":")" + here +
                                                  R"(","routing":"dor","planner":"x","jobs":[)" + jobs + "]}";
    // Seven jobs of 2^60 bytes, each rank's sum well inside 2^63: chunked, they would run for
    // ever; refused at load for the bytes a rank may move.
    const optiq::Network t = optiq::parse_network(here);
    std::vector<optiq::Job> huge;
    for (int i = 0; i < std::min(7, size); ++i) huge.push_back({i, (i + size / 2) % size, optiq::Bytes(1) << 60});
    const auto routing = optiq::make_routing(t.default_routing(), t);
    optiq::save_plan(optiq::make_plan("default", t, *routing, huge, {}).plan, t, base + "-huge.json");
  }
  MPI_Barrier(MPI_COMM_WORLD);
  struct Bad {
    const char* what;
    std::string context_topology, file;
    const char* needle;
  };
  const std::vector<Bad> cases = {
      {"plan for another topology", here, base + "-other.json", "this context runs on"},
      {"plan for more ranks", bigger, base + "-bigger.json", "no rank"},
      {"truncated plan file", here, base + "-truncated.json", "invalid JSON"},
      {"plan file of another version", here, base + "-version.json", "version"},
      {"missing plan file", here, base + "-missing.json", "cannot read"},
      {"plan whose bytes overflow", here, base + "-overflow.json", "more than optiq handles"},
      {"plan beyond what a rank may move", here, base + "-huge.json", "a rank may move in one plan"},
  };
  for (const Bad& b : cases) {
    optiq_options o = options("heu2", tr);
    optiq_t ctx = nullptr;
    optiq_create(MPI_COMM_WORLD, b.context_topology.c_str(), &o, &ctx);
    optiq_plan_t plan = nullptr;
    const int st = optiq_plan_load(ctx, b.file.c_str(), &plan);
    expect_error(ctx, st, OPTIQ_ERR_PLAN, b.needle, std::string(transport_name(tr)) + " " + b.what, ck);
    ck.expect(plan == nullptr, "%s: a plan handle after a failure", b.what);
    optiq_destroy(&ctx);
  }
  MPI_Barrier(MPI_COMM_WORLD);
  if (rank == 0)
    for (const char* s : {"-other", "-bigger", "-good", "-truncated", "-version", "-overflow", "-huge"})
      std::remove((base + s + ".json").c_str());
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  Checker ck;
  for (optiq_transport tr : {OPTIQ_TRANSPORT_P2P, OPTIQ_TRANSPORT_RMA}) {
    bad_calls(tr, ck);
    bad_plan_files(tr, ck);
  }
  bad_contexts(ck);
  const int failures = ck.total();
  if (world_rank() == 0) std::printf("%s: %d failures at %d ranks\n", failures ? "FAILED" : "passed", failures, world_size());
  MPI_Finalize();
  return failures ? 1 : 0;
}
