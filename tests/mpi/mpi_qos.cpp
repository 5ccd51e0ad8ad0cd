// Traffic classes in the runtime (docs/qos.md): a bulk exchange (priority 1) is in flight when
// an urgent one (priority 0, another context) starts. The urgent one completes first on every
// rank although the application waits for the bulk one first, the bulk one held its sends back
// meanwhile, and every byte of both arrives exactly once. Without classes (both priority 0) the
// same calls hold nothing back. With class_until_done the urgent context's window closes once
// it completed on every rank: on a network so slow that its window lasts many seconds, the bulk
// exchange still finishes long before. Both transports.
//   mpi_qos [--transport p2p|rma]
#include <unistd.h>

#include <cstdio>
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

Side bulk_side(int rank, int size, int bytes = kBulkBytes) {
  Side s;
  s.scounts.assign(size, bytes);
  s.rcounts.assign(size, bytes);
  s.scounts[rank] = s.rcounts[rank] = 0;
  for (int p = 0; p < size; ++p) s.sdispls.push_back(p * bytes), s.rdispls.push_back(p * bytes);
  s.sbuf.resize(std::size_t(size) * bytes);
  s.rbuf.assign(s.sbuf.size(), 0);
  for (int p = 0; p < size; ++p)
    if (p != rank) optiq::data::fill(s.sbuf.data() + std::size_t(p) * bytes, rank, p, bytes, 11);
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

optiq_t make(const std::string& topology, const char* transport, int priority, Checker& ck,
             const optiq_options* base = nullptr) {
  optiq_options o;
  optiq_options_init(&o);
  if (base) o = *base;
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

// A star of `size` hosts whose links move 200 kB/s: the urgent exchange's planned time is about
// a second, its window many; the application's real bytes move at memory speed.
std::string slow_star(int rank, int size) {
  int pid = static_cast<int>(getpid());
  MPI_Bcast(&pid, 1, MPI_INT, 0, MPI_COMM_WORLD);
  const std::string path = "/tmp/optiq_mpi_qos_star_" + std::to_string(pid) + ".json";
  if (rank == 0) {
    std::string json = R"({"directed": true, "nodes": [{"id": "s", "kind": "switch"})";
    std::string links;
    for (int h = 0; h < size; ++h) {
      json += ", {\"id\": \"h" + std::to_string(h) + "\"}";
      for (auto [a, b] : {std::pair{"h" + std::to_string(h), std::string("s")}, std::pair{std::string("s"), "h" + std::to_string(h)}})
        links += std::string(links.empty() ? "" : ", ") + "{\"source\": \"" + a + "\", \"target\": \"" + b +
                 "\", \"capacity\": 2e5}";
    }
    json += "], \"links\": [" + links + "]}";
    FILE* f = std::fopen(path.c_str(), "w");
    if (f) std::fputs(json.c_str(), f), std::fclose(f);
  }
  MPI_Barrier(MPI_COMM_WORLD);
  return path;
}

// An urgent and a bulk context on the slow star, the urgent pattern planned and cached by a
// first call; `window` is how long the urgent context's window lasts (asserted long).
struct SlowStar {
  std::string path;
  optiq_t urgent_ctx = nullptr, bulk_ctx = nullptr;
  double window = 0;
};

SlowStar slow_contexts(const char* transport, int rank, int size, bool until_done, double share, Side& urgent,
                       const char* what, Checker& ck) {
  SlowStar s;
  s.path = slow_star(rank, size);
  const std::string topology = "graph:" + s.path;
  optiq_options o;
  optiq_options_init(&o);
  o.rank_placement = OPTIQ_PLACEMENT_BLOCK;
  o.class_window = 20;
  o.class_until_done = until_done;
  s.urgent_ctx = make(topology, transport, 0, ck, &o);
  o.class_until_done = 0;
  o.class_share = share;
  s.bulk_ctx = make(topology, transport, 1, ck, &o);
  optiq_request_t req = nullptr;
  ck.expect(start(urgent, s.urgent_ctx, &req) == OPTIQ_SUCCESS && optiq_wait(&req) == OPTIQ_SUCCESS,
            "%s: first urgent call: %s", what, optiq_error_string(s.urgent_ctx));
  std::fill(urgent.rbuf.begin(), urgent.rbuf.end(), 0);
  optiq_stats st;
  optiq_get_stats(s.urgent_ctx, &st);
  s.window = o.class_window * st.predicted_seconds;
  ck.expect(s.window > 10, "%s: the urgent window is only %g s", what, s.window);
  MPI_Barrier(MPI_COMM_WORLD);
  return s;
}

void finish(SlowStar& s, int rank) {
  optiq_destroy(&s.bulk_ctx);
  optiq_destroy(&s.urgent_ctx);
  MPI_Barrier(MPI_COMM_WORLD);
  if (rank == 0) std::remove(s.path.c_str());
}

double slowest(double mine) {
  double most = 0;
  MPI_Allreduce(&mine, &most, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  return most;
}

void run_until_done(const char* transport, int rank, int size, Checker& ck) {
  Side bulk = bulk_side(rank, size), urgent = urgent_side(rank, size);
  SlowStar s = slow_contexts(transport, rank, size, true, 0, urgent, "until done", ck);
  optiq_request_t bulk_req = nullptr, urgent_req = nullptr;
  ck.expect(start(bulk, s.bulk_ctx, &bulk_req) == OPTIQ_SUCCESS, "until done: bulk start: %s",
            optiq_error_string(s.bulk_ctx));
  const double urgent_start = MPI_Wtime();
  ck.expect(start(urgent, s.urgent_ctx, &urgent_req) == OPTIQ_SUCCESS, "until done: urgent start: %s",
            optiq_error_string(s.urgent_ctx));
  ck.expect(optiq_wait(&bulk_req) == OPTIQ_SUCCESS, "until done: bulk wait: %s", optiq_error_string(s.bulk_ctx));
  const double bulk_end = MPI_Wtime();
  int urgent_done = 0;
  ck.expect(optiq_test(&urgent_req, &urgent_done) == OPTIQ_SUCCESS && urgent_done,
            "until done: the bulk exchange completed before the urgent one");
  if (!urgent_done) optiq_wait(&urgent_req);
  const double latest = slowest(bulk_end - urgent_start);
  ck.expect(latest < s.window / 2,
            "until done: the bulk exchange ended %.2f s after the urgent start, in a window of %.2f s", latest,
            s.window);
  ck.expect(exact(bulk, rank, kBulkBytes, 11), "until done: bulk bytes wrong");
  ck.expect(exact(urgent, rank, kUrgentBytes, 23), "until done: urgent bytes wrong");
  finish(s, rank);
}

// A bulk context with class_share keeps sending while held: inside an urgent window of many
// seconds (no class_until_done), a small bulk exchange at half its planned rate ends in a
// fraction of a second; held strictly it could not end before the window does.
void run_held_share(const char* transport, int rank, int size, Checker& ck) {
  constexpr int kSmallBulk = 4 << 10;
  Side bulk = bulk_side(rank, size, kSmallBulk), urgent = urgent_side(rank, size);
  SlowStar s = slow_contexts(transport, rank, size, false, 0.5, urgent, "held share", ck);
  const double urgent_start = MPI_Wtime();
  optiq_request_t req = nullptr;
  ck.expect(start(urgent, s.urgent_ctx, &req) == OPTIQ_SUCCESS && optiq_wait(&req) == OPTIQ_SUCCESS,
            "held share: urgent call: %s", optiq_error_string(s.urgent_ctx));
  const unsigned long long held_before = held(s.bulk_ctx);
  ck.expect(start(bulk, s.bulk_ctx, &req) == OPTIQ_SUCCESS && optiq_wait(&req) == OPTIQ_SUCCESS,
            "held share: bulk call: %s", optiq_error_string(s.bulk_ctx));
  const double latest = slowest(MPI_Wtime() - urgent_start);
  unsigned long long mine = held(s.bulk_ctx) - held_before, least = 0;
  MPI_Allreduce(&mine, &least, 1, MPI_UNSIGNED_LONG_LONG, MPI_MIN, MPI_COMM_WORLD);
  ck.expect(least > 0, "held share: a rank's bulk exchange was never held back");
  ck.expect(latest < s.window / 2,
            "held share: the bulk exchange ended %.2f s after the urgent start, in a window of %.2f s", latest,
            s.window);
  ck.expect(exact(bulk, rank, kSmallBulk, 11), "held share: bulk bytes wrong");
  finish(s, rank);
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  const char* transport = argc > 2 && std::strcmp(argv[1], "--transport") == 0 ? argv[2] : "p2p";
  Checker ck;
  const int rank = world_rank(), size = world_size();
  for (bool classes : {true, false}) run(transport, classes, rank, size, ck);
  run_until_done(transport, rank, size, ck);
  run_held_share(transport, rank, size, ck);
  const int failures = ck.total();
  if (rank == 0) std::printf("mpi_qos (%s, %d ranks): %s\n", transport, size, failures ? "FAILED" : "ok");
  MPI_Finalize();
  return failures ? 1 : 0;
}
