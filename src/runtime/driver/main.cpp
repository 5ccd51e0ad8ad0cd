// optiq-driver: runs MPI_Alltoallv and optiq on the same exchange, checks every delivered
// byte of every call, and prints one JSON document (rank 0) with per-call times.
#include <mpi.h>

#include <algorithm>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "args.hpp"
#include "background.hpp"
#include "optiq/error.hpp"
#include "optiq/network.hpp"
#include "optiq/optiq.h"
#include "runtime/api/io_rank_layout.hpp"
#include "runtime/api/shared_network.hpp"
#include "util/json.hpp"
#include "workload.hpp"

using namespace optiq;
using namespace optiq::driver;

namespace {

struct Summary {
  double min = 0, median = 0, max = 0;
};

Summary summarize(std::vector<double> t) {
  std::sort(t.begin(), t.end());
  const std::size_t n = t.size();
  return {t.front(), n % 2 ? t[n / 2] : (t[n / 2 - 1] + t[n / 2]) / 2, t.back()};
}

json::Ordered seconds_json(const std::vector<double>& t) {
  if (t.empty()) return nullptr;
  const Summary s = summarize(t);
  return {{"min", s.min}, {"median", s.median}, {"max", s.max}};
}

optiq_queue queue_of(const std::string& q) {
  if (q == "local-first") return OPTIQ_QUEUE_LOCAL_FIRST;
  if (q == "round-robin") return OPTIQ_QUEUE_ROUND_ROBIN;
  return OPTIQ_QUEUE_FORWARD_FIRST;
}

// Every rank reaches the same verdict (arguments and optiq errors are collective), so every
// rank returns the same code; rank 0 says why.
// A message buffer: private memory, or under SMPI optionally one allocation shared by all
// simulated ranks, so that large simulated patterns fit in memory (the bytes are then garbage
// and go unchecked).
class Buffer {
 public:
  Buffer(std::uint64_t bytes, bool shared) : shared_(shared) {
    bytes = std::max<std::uint64_t>(1, bytes);
#ifdef OPTIQ_SMPI
    if (shared_) {
      data_ = static_cast<unsigned char*>(SMPI_SHARED_MALLOC(bytes));
      return;
    }
#endif
    own_.resize(bytes);
    data_ = own_.data();
  }
  ~Buffer() {
#ifdef OPTIQ_SMPI
    if (shared_) SMPI_SHARED_FREE(data_);
#endif
  }
  Buffer(const Buffer&) = delete;
  Buffer& operator=(const Buffer&) = delete;
  unsigned char* data() { return data_; }

 private:
  bool shared_;
  std::vector<unsigned char> own_;
  unsigned char* data_ = nullptr;
};

// MPI_Alltoallv's non-empty messages, all posted at once: what a linear MPI_Alltoallv does
// without its P^2 empty messages, which dominate the cost of simulating it on 1024 ranks.
void alltoallv_p2p(const Workload& w, const unsigned char* sbuf, unsigned char* rbuf, int size, MPI_Comm job_comm) {
  std::vector<MPI_Request> req;
  for (int r = 0; r < size; ++r)
    if (w.recvcounts[r] > 0) {
      req.emplace_back();
      MPI_Irecv(rbuf + w.rdispls[r], w.recvcounts[r], MPI_BYTE, r, 77, job_comm, &req.back());
    }
  for (int r = 0; r < size; ++r)
    if (w.sendcounts[r] > 0) {
      req.emplace_back();
      MPI_Isend(sbuf + w.sdispls[r], w.sendcounts[r], MPI_BYTE, r, 77, job_comm, &req.back());
    }
  MPI_Waitall(static_cast<int>(req.size()), req.data(), MPI_STATUSES_IGNORE);
}

int fail(int rank, const std::string& message) {
  if (rank == 0) std::fprintf(stderr, "optiq-driver: error: %s\n", message.c_str());
  return 2;
}

unsigned long long sum_all(unsigned long long x, MPI_Comm job_comm) {
  unsigned long long s = 0;
  MPI_Allreduce(&x, &s, 1, MPI_UNSIGNED_LONG_LONG, MPI_SUM, job_comm);
  return s;
}

unsigned long long max_all(unsigned long long x, MPI_Comm job_comm) {
  unsigned long long s = 0;
  MPI_Allreduce(&x, &s, 1, MPI_UNSIGNED_LONG_LONG, MPI_MAX, job_comm);
  return s;
}

// Ranks for a simulation of I/O (io_rank_layout): world rank -> the vertex it sits on.
std::vector<int> io_rank_map(const std::string& topology, int ranks_per_node, int size) {
  const std::shared_ptr<const Network> shared = rt::shared_network(topology);  // one parse for all simulated ranks
  const Network& net = *shared;
  const rt::IoRankLayout layout = rt::io_rank_layout(net, topology, ranks_per_node, size);
  std::vector<int> map;
  for (long long r = 0; r < layout.compute; ++r) map.push_back(net.endpoints()[r / ranks_per_node]);
  map.insert(map.end(), layout.io_nodes.begin(), layout.io_nodes.end());
  return map;
}

// One job: the ranks of job_comm (all of MPI_COMM_WORLD, or those not making background
// traffic). No global state: under SMPI every simulated rank shares this process's globals.
int run(const Args& args, MPI_Comm job_comm) {
  int rank = 0, size = 0;
  MPI_Comm_rank(job_comm, &rank);
  MPI_Comm_size(job_comm, &size);
  optiq_options o;
  optiq_options_init(&o);
  o.planner = args.planner.c_str();
  o.transport = args.transport == "rma" ? OPTIQ_TRANSPORT_RMA : OPTIQ_TRANSPORT_P2P;
  o.queue = queue_of(args.queue);
  o.chunk_bytes = args.chunk;
  o.forward_budget_bytes = args.budget;
  o.direct_threshold_bytes = args.threshold;
  o.ranks_per_node = args.ranks_per_node;
  if (args.max_inflight > 0) o.max_inflight = args.max_inflight;
  o.dispatch = args.dispatch == "eager" ? OPTIQ_DISPATCH_EAGER : OPTIQ_DISPATCH_PACED;
  if (args.min_gain >= 0) o.min_gain = args.min_gain;
  o.routing = args.routing.empty() ? nullptr : args.routing.c_str();
  std::vector<int> rank_to_node;
  if (args.io_ranks) {
    try {
      rank_to_node = io_rank_map(args.topology, args.ranks_per_node, size);
    } catch (const Error& e) {
      return fail(rank, e.what());
    }
    o.rank_to_node = rank_to_node.data();
  }
  optiq_t ctx = nullptr;
  if (optiq_create(job_comm, args.topology.c_str(), &o, &ctx) != OPTIQ_SUCCESS) {
    const std::string msg = optiq_error_string(ctx);
    optiq_destroy(&ctx);
    return fail(rank, msg);
  }

  Workload w;
  optiq_plan_t plan = nullptr;
  std::vector<MPI_Aint> sdispls_bytes, rdispls_bytes;
  try {
    if (!args.plan.empty()) {
      if (optiq_plan_load(ctx, args.plan.c_str(), &plan) != OPTIQ_SUCCESS) throw Error(optiq_error_string(ctx));
      std::vector<long long> out(size), in(size);
      optiq_plan_counts(plan, out.data(), in.data());
      w = counts_workload(out, in);
      w.total_bytes = sum_all(w.send_bytes, job_comm);
      unsigned long long mine = 0;
      for (int c : w.sendcounts) mine += c > 0;
      w.pairs = sum_all(mine, job_comm);
      sdispls_bytes.assign(w.sdispls.begin(), w.sdispls.end());
      rdispls_bytes.assign(w.rdispls.begin(), w.rdispls.end());
    } else {
      w = pattern_workload(args, rank, size);
    }
  } catch (const Error& e) {
    if (plan) optiq_plan_free(&plan);
    optiq_destroy(&ctx);
    return fail(rank, e.what());
  }

  Buffer sbuf(w.send_bytes, args.shared_buffers), rbuf(w.recv_bytes, args.shared_buffers);
  const bool check = !args.shared_buffers;
  // What is timed: MPI_Alltoallv, optiq and, on request, MPI_Alltoallv after an allgather the
  // size of optiq's agreement step, which tells the cost of agreeing apart from the rest.
  enum Variant { kMpi, kOptiq, kMpiAgreed };
  std::vector<Variant> active;
  if (args.only != "optiq") active.push_back(kMpi);
  if (args.only != "mpi") active.push_back(kOptiq);
  if (args.agreement_baseline) active.push_back(kMpiAgreed);
  const int variants = static_cast<int>(active.size());
  std::vector<double> times[3];
  int wrong[3] = {0, 0, 0};
  double first_optiq = 0;
  std::vector<char> agree_in(40), agree_out(40 * static_cast<std::size_t>(size));
  const int calls = args.warmup + args.iterations;
  for (int it = 0; it < calls; ++it) {
    for (int k = 0; k < variants; ++k) {
      const Variant v = active[(k + it) % variants];  // rotate which goes first
      const std::uint64_t salt = static_cast<std::uint64_t>(variants) * it + v;
      if (check) {
        fill_send(w, sbuf.data(), rank, salt);
        poison_recv(w, rbuf.data(), rank, salt);
      }
      MPI_Barrier(job_comm);
      const double t0 = MPI_Wtime();
      int status = OPTIQ_SUCCESS;
      if (v == kOptiq && plan) {
        status = optiq_execute(ctx, plan, sbuf.data(), sdispls_bytes.data(), rbuf.data(), rdispls_bytes.data());
      } else if (v == kOptiq) {
        status = optiq_alltoallv(sbuf.data(), w.sendcounts.data(), w.sdispls.data(), MPI_BYTE, rbuf.data(),
                                 w.recvcounts.data(), w.rdispls.data(), MPI_BYTE, ctx);
      } else {
        if (v == kMpiAgreed)
          MPI_Allgather(agree_in.data(), 40, MPI_BYTE, agree_out.data(), 40, MPI_BYTE, job_comm);
        if (args.mpi_p2p)
          alltoallv_p2p(w, sbuf.data(), rbuf.data(), size, job_comm);
        else
          MPI_Alltoallv(sbuf.data(), w.sendcounts.data(), w.sdispls.data(), MPI_BYTE, rbuf.data(),
                        w.recvcounts.data(), w.rdispls.data(), MPI_BYTE, job_comm);
      }
      const double local = MPI_Wtime() - t0;
      if (status != OPTIQ_SUCCESS) {
        const std::string msg = optiq_error_string(ctx);
        if (plan) optiq_plan_free(&plan);
        optiq_destroy(&ctx);
        return fail(rank, msg);
      }
      double elapsed = 0;  // the call ends when its slowest rank is done
      MPI_Allreduce(&local, &elapsed, 1, MPI_DOUBLE, MPI_MAX, job_comm);
      if (check) wrong[v] += wrong_messages(w, rbuf.data(), rank, salt);
      if (v == kOptiq && it == 0) first_optiq = elapsed;
      if (it >= args.warmup) times[v].push_back(elapsed);
    }
  }
  const std::vector<double>& t_mpi = times[kMpi];
  const std::vector<double>& t_optiq = times[kOptiq];
  const int wrong_optiq = wrong[kOptiq], wrong_mpi = wrong[kMpi] + wrong[kMpiAgreed];
  const unsigned long long bad_optiq = sum_all(wrong_optiq, job_comm), bad_mpi = sum_all(wrong_mpi, job_comm);

  optiq_stats st;
  optiq_get_stats(ctx, &st);
  const unsigned long long forwarded = sum_all(st.forwarded_bytes, job_comm), chunks = sum_all(st.forwarded_chunks, job_comm),
                           off_plan = sum_all(st.off_plan_bytes, job_comm), held = max_all(st.held_bytes_peak, job_comm),
                           lent = max_all(st.slot_bytes_lent, job_comm);
  double plan_seconds = 0;
  MPI_Allreduce(&st.plan_seconds, &plan_seconds, 1, MPI_DOUBLE, MPI_MAX, job_comm);
  if (plan) optiq_plan_free(&plan);
  optiq_destroy(&ctx);

  if (rank == 0) {
    const auto gbps = [&](const std::vector<double>& t) {
      const double median = t.empty() ? 0.0 : summarize(t).median;
      return median > 0 ? static_cast<double>(w.total_bytes) / median / 1e9 : 0.0;
    };
    json::Ordered doc = {{"topology", args.topology}, {"ranks", size}, {"ranks_per_node", args.ranks_per_node}};
    if (args.plan.empty()) {
      doc["pattern"] = args.pattern;
      doc["planner"] = args.planner;
    } else {
      doc["plan"] = args.plan;
    }
    doc["transport"] = args.transport;
    doc["queue"] = args.queue;
    doc["dispatch"] = args.dispatch;
    doc["min_gain"] = o.min_gain;
    doc["chunk"] = args.chunk;
    doc["budget"] = args.budget;
    doc["threshold"] = args.threshold;
    doc["bytes"] = w.total_bytes;
    doc["messages"] = w.pairs;
    doc["iterations"] = args.iterations;
    doc["warmup"] = args.warmup;
    doc["mpi_call"] = args.mpi_p2p ? "MPI_Isend/MPI_Irecv" : "MPI_Alltoallv";
    doc["verified"] = check ? json::Ordered(bad_optiq == 0 && bad_mpi == 0) : json::Ordered(nullptr);
    doc["wrong_messages"] = {{"optiq", bad_optiq}, {"mpi_alltoallv", bad_mpi}};
    doc["optiq_seconds"] = seconds_json(t_optiq);
    doc["mpi_alltoallv_seconds"] = seconds_json(t_mpi);
    doc["optiq_gbps"] = gbps(t_optiq);
    doc["mpi_alltoallv_gbps"] = gbps(t_mpi);
    if (args.agreement_baseline) doc["mpi_allgather_alltoallv_seconds"] = seconds_json(times[kMpiAgreed]);
    doc["first_call_seconds"] = first_optiq;
    doc["plan_seconds"] = plan_seconds;
    doc["forwarded_bytes"] = forwarded;
    doc["forwarded_chunks"] = chunks;
    doc["off_plan_bytes"] = off_plan;
    doc["held_bytes_peak"] = held;
    doc["slot_bytes_lent"] = lent;
    doc["plans_made"] = st.plans_made;
    doc["plan_cache_hits"] = st.plan_cache_hits;
    // Names come from the command line and may be any bytes: replace what is not UTF-8.
    std::printf("%s\n", doc.dump(-1, ' ', false, json::Ordered::error_handler_t::replace).c_str());
    std::fflush(stdout);
  }
  return bad_optiq == 0 && bad_mpi == 0 ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int world_rank = 0, world_size = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &world_rank);
  MPI_Comm_size(MPI_COMM_WORLD, &world_size);
  Args args;
  std::vector<BackgroundFlow> background;
  try {
    args = parse_args(argc, argv);
    const int job = args.job_ranks > 0 ? args.job_ranks : world_size;
    if (job > world_size)
      throw Error("--job-ranks " + std::to_string(job) + " is more than the " + std::to_string(world_size) + " ranks");
    if (!args.background.empty()) background = read_background(args.background, job, world_size);
    else if (job != world_size) throw Error("--job-ranks below the number of ranks needs --background");
  } catch (const Error& e) {
    const int rc = fail(world_rank, e.what());
    MPI_Finalize();
    return rc;
  }
  const bool in_background = std::any_of(background.begin(), background.end(), [&](const BackgroundFlow& f) {
    return f.sender == world_rank || f.receiver == world_rank;
  });
  MPI_Comm job_comm = MPI_COMM_NULL;
  MPI_Comm_split(MPI_COMM_WORLD, in_background ? 1 : 0, world_rank, &job_comm);
  int rc = 0;
  if (in_background) {
    run_background(background, world_rank);
  } else {
    rc = run(args, job_comm);
    MPI_Barrier(job_comm);  // every rank of the job is done before the traffic stops
    if (world_rank == 0) stop_background(background);
  }
  MPI_Comm_free(&job_comm);
  MPI_Finalize();
  return rc;
}
