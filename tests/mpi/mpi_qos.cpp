// Traffic classes in the runtime (docs/qos.md): a bulk exchange (priority 1) is in flight when
// an urgent one (priority 0, another context) starts. The urgent one completes first on every
// rank although the application waits for the bulk one first, the bulk one held its sends back
// meanwhile, and every byte of both arrives exactly once. Without classes (both priority 0) the
// same calls hold nothing back. Both transports.
//   mpi_qos [--transport p2p|rma]
#include <cstring>
#include <string>

#include "common.hpp"

using namespace mpitest;

namespace {

constexpr int kBulkBytes = 1 << 20;     // to every other rank
constexpr int kUrgentBytes = 96 << 10;  // to the ranks a quarter and half-way round: forwarded

struct Side {
  std::vector<int> scounts, sdispls, rcounts, rdispls;
  std::vector<unsigned char> sbuf, rbuf;
};

Side bulk_side(int rank, int size) {
  Side s;
  s.scounts.assign(size, kBulkBytes);
  s.rcounts.assign(size, kBulkBytes);
  s.scounts[rank] = s.rcounts[rank] = 0;
  for (int p = 0; p < size; ++p) s.sdispls.push_back(p * kBulkBytes), s.rdispls.push_back(p * kBulkBytes);
  s.sbuf.resize(std::size_t(size) * kBulkBytes);
  s.rbuf.assign(s.sbuf.size(), 0);
  for (int p = 0; p < size; ++p)
    if (p != rank) optiq::data::fill(s.sbuf.data() + std::size_t(p) * kBulkBytes, rank, p, kBulkBytes, 11);
  return s;
}

Side urgent_side(int rank, int size) {
  Side s;
  s.scounts.assign(size, 0);
  s.rcounts.assign(size, 0);
  for (int step : {size / 4, size / 2}) {
    if (step == 0) continue;
    s.scounts[(rank + step) % size] = kUrgentBytes;
    s.rcounts[(rank - step + size) % size] = kUrgentBytes;
  }
  for (int p = 0; p < size; ++p) s.sdispls.push_back(p * kUrgentBytes), s.rdispls.push_back(p * kUrgentBytes);
  s.sbuf.resize(std::size_t(size) * kUrgentBytes);
  s.rbuf.assign(s.sbuf.size(), 0);
  for (int p = 0; p < size; ++p)
    if (s.scounts[p]) optiq::data::fill(s.sbuf.data() + std::size_t(p) * kUrgentBytes, rank, p, kUrgentBytes, 23);
  return s;
}

// Every received byte is the sender's, once; untouched parts of the receive buffer stay zero.
bool exact(const Side& s, int rank, int unit, std::uint64_t salt) {
  for (std::size_t p = 0; p < s.rcounts.size(); ++p) {
    const unsigned char* at = s.rbuf.data() + p * unit;
    if (s.rcounts[p] == 0) {
      for (int i = 0; i < unit; ++i)
        if (at[i]) return false;
    } else if (optiq::data::first_wrong(at, static_cast<int>(p), rank, s.rcounts[p], salt) != std::uint64_t(s.rcounts[p])) {
      return false;
    }
  }
  return true;
}

optiq_t make(const std::string& topology, const char* transport, int priority, Checker& ck) {
  optiq_options o;
  optiq_options_init(&o);
  o.planner = "mcf";
  o.min_gain = 0;
  o.direct_threshold_bytes = 0;
  o.chunk_bytes = 32 << 10;
  o.max_inflight = 4;  // the bulk exchange cannot have everything on the wire when the urgent one starts
  o.priority = priority;
  o.transport = std::strcmp(transport, "rma") == 0 ? OPTIQ_TRANSPORT_RMA : OPTIQ_TRANSPORT_P2P;
  optiq_t ctx = nullptr;
  ck.expect(common_status(optiq_create(MPI_COMM_WORLD, topology.c_str(), &o, &ctx)) == OPTIQ_SUCCESS, "create: %s",
            optiq_error_string(ctx));
  return ctx;
}

int start(Side& s, optiq_t ctx, optiq_request_t* req) {
  return optiq_ialltoallv(s.sbuf.data(), s.scounts.data(), s.sdispls.data(), MPI_BYTE, s.rbuf.data(),
                          s.rcounts.data(), s.rdispls.data(), MPI_BYTE, ctx, req);
}

unsigned long long held(optiq_t ctx) {
  optiq_stats st;
  optiq_get_stats(ctx, &st);
  return st.held_rounds;
}

void run(const char* transport, bool classes, int rank, int size, Checker& ck) {
  const std::string topology = "torus:" + std::to_string(size);
  optiq_t bulk_ctx = make(topology, transport, classes ? 1 : 0, ck);
  optiq_t urgent_ctx = make(topology, transport, 0, ck);
  Side bulk = bulk_side(rank, size), urgent = urgent_side(rank, size);
  const char* what = classes ? "with classes" : "without classes";
  // First calls plan and cache both patterns, so the timed ones only move bytes.
  for (auto [side, ctx] : {std::pair{&bulk, bulk_ctx}, std::pair{&urgent, urgent_ctx}}) {
    optiq_request_t req = nullptr;
    ck.expect(start(*side, ctx, &req) == OPTIQ_SUCCESS && optiq_wait(&req) == OPTIQ_SUCCESS, "%s: first call: %s",
              what, optiq_error_string(ctx));
    std::fill(side->rbuf.begin(), side->rbuf.end(), 0);
  }
  const unsigned long long held_before = held(bulk_ctx);
  MPI_Barrier(MPI_COMM_WORLD);
  optiq_request_t bulk_req = nullptr, urgent_req = nullptr;
  ck.expect(start(bulk, bulk_ctx, &bulk_req) == OPTIQ_SUCCESS, "%s: bulk start: %s", what,
            optiq_error_string(bulk_ctx));
  ck.expect(start(urgent, urgent_ctx, &urgent_req) == OPTIQ_SUCCESS, "%s: urgent start: %s", what,
            optiq_error_string(urgent_ctx));
  // Waiting for the bulk exchange first: with classes, its rounds drive the urgent one, and
  // hold the bulk sends back until the urgent one is done here.
  ck.expect(optiq_wait(&bulk_req) == OPTIQ_SUCCESS, "%s: bulk wait: %s", what, optiq_error_string(bulk_ctx));
  int urgent_done = 0;
  ck.expect(optiq_test(&urgent_req, &urgent_done) == OPTIQ_SUCCESS, "%s: urgent test: %s", what,
            optiq_error_string(urgent_ctx));
  if (classes) ck.expect(urgent_done, "the bulk exchange completed before the urgent one");
  if (!urgent_done)
    ck.expect(optiq_wait(&urgent_req) == OPTIQ_SUCCESS, "%s: urgent wait: %s", what, optiq_error_string(urgent_ctx));
  ck.expect(exact(bulk, rank, kBulkBytes, 11), "%s: bulk bytes wrong", what);
  ck.expect(exact(urgent, rank, kUrgentBytes, 23), "%s: urgent bytes wrong", what);
  unsigned long long mine = held(bulk_ctx) - held_before, any = 0;
  MPI_Allreduce(&mine, &any, 1, MPI_UNSIGNED_LONG_LONG, MPI_MAX, MPI_COMM_WORLD);
  if (classes) ck.expect(any > 0, "no rank held its bulk sends back for the urgent exchange");
  else ck.expect(any == 0, "operations of one class held each other back (%llu rounds)", any);
  optiq_destroy(&urgent_ctx);
  optiq_destroy(&bulk_ctx);
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  const char* transport = argc > 2 && std::strcmp(argv[1], "--transport") == 0 ? argv[2] : "p2p";
  Checker ck;
  const int rank = world_rank(), size = world_size();
  for (bool classes : {true, false}) run(transport, classes, rank, size, ck);
  const int failures = ck.total();
  if (rank == 0) std::printf("mpi_qos (%s, %d ranks): %s\n", transport, size, failures ? "FAILED" : "ok");
  MPI_Finalize();
  return failures ? 1 : 0;
}
