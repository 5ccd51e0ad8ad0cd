// optiq-qos: an urgent exchange started while a bulk one is in flight (docs/qos.md).
//
// Two contexts on MPI_COMM_WORLD, one per exchange, each given by a request file of rank pairs
// ("src dst bytes" lines). --mode urgent-alone / bulk-alone time one exchange by itself;
// --mode together starts the bulk one, then after --delay seconds the urgent one, and times
// both from their own starts. --classes gives the bulk context priority 1 (the urgent one
// keeps 0); without it both are of one class. Both exchanges are planned (and cached) by a
// first blocking call; every delivered byte is checked. --io-ranks: the last ranks run one on
// each I/O node of a BG/Q partition with its I/O side (mira:N+io), as for the I/O benchmarks. Rank 0 prints one JSON line with the
// slowest rank's times. Builds with smpicxx too (bench/applications/qos.py).
#include <mpi.h>
#include <time.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "optiq/core/error.hpp"
#include "optiq/core/pattern.hpp"
#include "optiq/optiq.h"
#include "tools/common/cli.hpp"
#include "tools/common/io_ranks.hpp"
#include "tools/common/message_bytes.hpp"
#include "tools/common/record_options.hpp"
#include "tools/common/tool_main.hpp"

namespace {

struct Args {
  std::string topology, bulk, urgent, mode = "together";
  double delay = 0;
  double tick = 5e-6;  // seconds slept between polling rounds that complete nothing
  int bulk_inflight = 0;  // 0: the runtime option's value
  std::string urgent_chunk;  // empty: the runtime option's value
  bool classes = false, io_ranks = false;
  optiq::tools::RecordValues runtime;
};

Args parse_args(int argc, char** argv) {
  Args a;
  CLI::App app{"An urgent exchange started while a bulk one is in flight, with and without traffic classes.",
               "optiq-qos"};
  app.option_defaults()->multi_option_policy(CLI::MultiOptionPolicy::TakeLast);
  app.add_option("--topology", a.topology, "the network spec")->required();
  app.add_option("--bulk", a.bulk, "request file of the bulk exchange (ranks)")->required();
  app.add_option("--urgent", a.urgent, "request file of the urgent exchange (ranks)")->required();
  app.add_option("--mode", a.mode, "urgent-alone, bulk-alone or together")
      ->check(CLI::IsMember({"urgent-alone", "bulk-alone", "together"}));
  app.add_option("--delay", a.delay, "seconds between the bulk start and the urgent start")->check(CLI::Range(0.0, 60.0));
  app.add_option("--tick", a.tick,
                 "seconds a rank sleeps between polling rounds that complete nothing (simulated time under SMPI): "
                 "a rank reacts to a completed chunk up to this late, where an application polling in a tight loop "
                 "would not")
      ->capture_default_str()
      ->check(CLI::Range(1e-9, 1e-3));
  app.add_option("--bulk-inflight", a.bulk_inflight,
                 "data messages in flight per rank for the bulk exchange (default: --max-inflight)")
      ->check(CLI::Range(1, 1 << 20));
  app.add_option("--urgent-chunk", a.urgent_chunk,
                 "bytes per message of the urgent exchange (default: --chunk): finer chunks fill its relays' "
                 "pipelines sooner (bytes, e.g. 32KiB)");
  app.add_flag("--classes", a.classes, "the bulk context gets priority 1, the urgent one 0");
  app.add_flag("--io-ranks", a.io_ranks, "the last ranks run one on each I/O node (simulations of I/O)");
  optiq::tools::add_record_options(app, "runtime", a.runtime);
  optiq::tools::parse_command_line(app, argc, argv);
  return a;
}

// One rank's side of one exchange: bytes per peer laid out in rank order.
struct Side {
  std::vector<int> scounts, sdispls, rcounts, rdispls;
  std::vector<unsigned char> sbuf, rbuf;
  std::uint64_t salt;
};

Side side_of(const std::vector<optiq::Job>& jobs, int rank, int size, std::uint64_t salt) {
  Side s;
  s.salt = salt;
  std::vector<long long> out(size, 0), in(size, 0);
  for (const optiq::Job& j : jobs) {
    if (j.src == rank) out[j.dst] += static_cast<long long>(j.bytes);
    if (j.dst == rank) in[j.src] += static_cast<long long>(j.bytes);
  }
  long long so = 0, ro = 0;
  for (int p = 0; p < size; ++p) {
    if (so + out[p] > (1LL << 31) - 1 || ro + in[p] > (1LL << 31) - 1)
      throw optiq::Error("a rank's bytes in one exchange must stay below 2 GiB (MPI int counts)");
    s.scounts.push_back(static_cast<int>(out[p]));
    s.sdispls.push_back(static_cast<int>(so));
    s.rcounts.push_back(static_cast<int>(in[p]));
    s.rdispls.push_back(static_cast<int>(ro));
    so += out[p], ro += in[p];
  }
  s.sbuf.resize(static_cast<std::size_t>(so));
  s.rbuf.assign(static_cast<std::size_t>(ro), 0);
  for (int p = 0; p < size; ++p)
    optiq::data::fill(s.sbuf.data() + s.sdispls[p], rank, p, s.scounts[p], salt);
  return s;
}

bool intact(const Side& s, int rank) {
  for (std::size_t p = 0; p < s.rcounts.size(); ++p)
    if (optiq::data::first_wrong(s.rbuf.data() + s.rdispls[p], static_cast<int>(p), rank, s.rcounts[p], s.salt) !=
        static_cast<std::uint64_t>(s.rcounts[p]))
      return false;
  return true;
}

struct Exchange {
  Side side;
  optiq_t ctx = nullptr;
  optiq_request_t req = nullptr;
  double started = 0, finished = 0;

  void start() {
    std::fill(side.rbuf.begin(), side.rbuf.end(), 0);
    started = MPI_Wtime();
    if (optiq_ialltoallv(side.sbuf.data(), side.scounts.data(), side.sdispls.data(), MPI_BYTE, side.rbuf.data(),
                         side.rcounts.data(), side.rdispls.data(), MPI_BYTE, ctx, &req) != OPTIQ_SUCCESS)
      throw optiq::Error(std::string("optiq_ialltoallv: ") + optiq_error_string(ctx));
  }
  bool poll() {  // true once complete (and from then on)
    if (!req) return true;
    int flag = 0;
    if (optiq_test(&req, &flag) != OPTIQ_SUCCESS) throw optiq::Error(std::string("optiq_test: ") + optiq_error_string(ctx));
    if (flag) finished = MPI_Wtime(), req = nullptr;
    return flag != 0;
  }
};

// Polls every exchange given until all are complete, starting `later` at `start_at` (if any).
// Between rounds with nothing done the rank sleeps `tick` seconds (simulated time under SMPI), so
// it reacts to a completed chunk up to that late (--tick).
void run_until_done(std::vector<Exchange*> running, Exchange* later, double start_at, double tick) {
  const timespec pause{0, std::lround(tick * 1e9)};  // tick < 1 s (--tick's range)
  while (true) {
    if (later && MPI_Wtime() >= start_at) {
      later->start();
      running.push_back(later);
      later = nullptr;
    }
    bool all = !later;
    for (Exchange* e : running) all = e->poll() && all;
    if (all) return;
    nanosleep(&pause, nullptr);  // SMPI's nanosleep waits in simulated time
  }
}

double slowest(double mine) {
  double most = 0;
  MPI_Allreduce(&mine, &most, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  return most;
}

int run(const Args& a, int rank, int size) {
  const std::vector<optiq::Job> bulk_jobs = optiq::read_requests(a.bulk, size);
  const std::vector<optiq::Job> urgent_jobs = optiq::read_requests(a.urgent, size);
  optiq_options o;
  optiq_options_init(&o);
  optiq::tools::apply_record_values(o, a.runtime);
  std::vector<int> rank_to_node;
  if (a.io_ranks) {
    rank_to_node = optiq::tools::io_rank_map(a.topology, o.ranks_per_node, size);
    o.rank_to_node = rank_to_node.data();
  }
  Exchange bulk{side_of(bulk_jobs, rank, size, 31)}, urgent{side_of(urgent_jobs, rank, size, 47)};
  for (Exchange* e : {&bulk, &urgent}) {
    optiq_options mine = o;
    mine.priority = e == &bulk && a.classes ? 1 : 0;
    if (e == &bulk && a.bulk_inflight > 0) mine.max_inflight = a.bulk_inflight;
    if (e == &urgent && !a.urgent_chunk.empty()) mine.chunk_bytes = optiq::parse_bytes(a.urgent_chunk);
    if (optiq_create(MPI_COMM_WORLD, a.topology.c_str(), &mine, &e->ctx) != OPTIQ_SUCCESS)
      throw optiq::Error(std::string("optiq_create: ") + optiq_error_string(e->ctx));
    e->start();  // plans and caches the pattern
    run_until_done({e}, nullptr, 0, a.tick);
  }
  MPI_Barrier(MPI_COMM_WORLD);
  if (a.mode == "urgent-alone") run_until_done({}, &urgent, MPI_Wtime(), a.tick);
  else if (a.mode == "bulk-alone") run_until_done({}, &bulk, MPI_Wtime(), a.tick);
  else {
    bulk.start();
    run_until_done({&bulk}, &urgent, bulk.started + a.delay, a.tick);
  }
  const bool timed_bulk = a.mode != "urgent-alone", timed_urgent = a.mode != "bulk-alone";
  int ok = (!timed_bulk || intact(bulk.side, rank)) && (!timed_urgent || intact(urgent.side, rank));
  MPI_Allreduce(MPI_IN_PLACE, &ok, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  optiq_stats st;
  optiq_get_stats(bulk.ctx, &st);
  unsigned long long held = st.held_rounds, most_held = 0;
  MPI_Allreduce(&held, &most_held, 1, MPI_UNSIGNED_LONG_LONG, MPI_MAX, MPI_COMM_WORLD);
  nlohmann::ordered_json doc = {{"program", "optiq-qos"}, {"topology", a.topology}, {"ranks", size},
                                {"mode", a.mode}, {"classes", a.classes}, {"delay", a.delay}};
  // Both times from their own starts; the urgent start of a run together is the bulk start plus the delay.
  doc["urgent_seconds"] = nullptr;
  doc["bulk_seconds"] = nullptr;
  if (timed_urgent) doc["urgent_seconds"] = slowest(urgent.finished - urgent.started);
  if (timed_bulk) doc["bulk_seconds"] = slowest(bulk.finished - bulk.started);
  doc["bulk_held_rounds_max"] = most_held;
  doc["verified"] = ok != 0;
  for (Exchange* e : {&urgent, &bulk}) optiq_destroy(&e->ctx);
  if (rank == 0) std::printf("%s\n", doc.dump().c_str());
  return ok ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  return optiq::tools::mpi_tool_main(argc, argv, "optiq-qos",
                                     [&](int rank, int size) { return run(parse_args(argc, argv), rank, size); });
}
