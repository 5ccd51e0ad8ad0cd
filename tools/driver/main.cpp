// optiq-driver: runs MPI_Alltoallv and optiq on the same exchange, checks every delivered
// byte of every call, and prints one JSON document (rank 0) with per-call times.
#include <mpi.h>

#include <algorithm>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "optiq/core/error.hpp"
#include "optiq/core/network.hpp"
#include "optiq/optiq.h"
#include "tools/common/io_ranks.hpp"
#include "tools/driver/args.hpp"
#include "tools/driver/background.hpp"
#include "tools/driver/measure.hpp"
#include "tools/driver/report.hpp"
#include "tools/driver/workload.hpp"

using namespace optiq;
using namespace optiq::driver;

namespace {

// Every rank reaches the same verdict (arguments and optiq errors are collective), so every
// rank returns the same code; rank 0 says why.
int fail(int rank, const std::string& message) {
  if (rank == 0) std::fprintf(stderr, "optiq-driver: error: %s\n", message.c_str());
  return 2;
}

unsigned long long sum_all(unsigned long long x, MPI_Comm job_comm) {
  unsigned long long s = 0;
  MPI_Allreduce(&x, &s, 1, MPI_UNSIGNED_LONG_LONG, MPI_SUM, job_comm);
  return s;
}

// The exchange to move: a loaded plan's counts, or the pattern's. Throws optiq::Error.
Workload load_workload(const Args& args, OptiqCall& optiq, int rank, int size, MPI_Comm job_comm) {
  if (!args.requests.empty()) return requests_workload(args.requests, rank, size);
  if (args.plan.empty()) return pattern_workload(args, rank, size);
  if (optiq_plan_load(optiq.ctx, args.plan.c_str(), &optiq.plan) != OPTIQ_SUCCESS)
    throw Error(optiq_error_string(optiq.ctx));
  std::vector<long long> out(size), in(size);
  optiq_plan_counts(optiq.plan, out.data(), in.data());
  Workload w = counts_workload(out, in);
  w.total_bytes = sum_all(w.send_bytes, job_comm);
  unsigned long long mine = 0;
  for (int c : w.sendcounts) mine += c > 0;
  w.pairs = sum_all(mine, job_comm);
  optiq.sdispls.assign(w.sdispls.begin(), w.sdispls.end());
  optiq.rdispls.assign(w.rdispls.begin(), w.rdispls.end());
  return w;
}

// The context the options describe; on failure, the message (the same on every rank).
std::string create_context(const Args& args, optiq_options& o, std::vector<int>& rank_to_node, int size,
                           MPI_Comm job_comm, optiq_t& ctx) {
  optiq_options_init(&o);
  try {
    tools::apply_record_values(o, args.runtime);
    if (args.io_ranks) {
      rank_to_node = tools::io_rank_map(args.topology, o.ranks_per_node, size);
      o.rank_to_node = rank_to_node.data();
    }
  } catch (const Error& e) {
    return e.what();  // the same arguments on every rank: the same verdict
  }
  if (optiq_create(job_comm, args.topology.c_str(), &o, &ctx) != OPTIQ_SUCCESS) {
    const std::string msg = optiq_error_string(ctx);
    optiq_destroy(&ctx);
    return msg;
  }
  return "";
}

// One job: the ranks of job_comm (all of MPI_COMM_WORLD, or those not making background
// traffic). No global state: under SMPI every simulated rank shares this process's globals.
int run(const Args& args, MPI_Comm job_comm) {
  int rank = 0, size = 0;
  MPI_Comm_rank(job_comm, &rank);
  MPI_Comm_size(job_comm, &size);
  optiq_options o;
  std::vector<int> rank_to_node;
  OptiqCall optiq;
  const std::string failed = create_context(args, o, rank_to_node, size, job_comm, optiq.ctx);
  if (!failed.empty()) return fail(rank, failed);
  Workload w;
  std::string error;
  try {
    w = load_workload(args, optiq, rank, size, job_comm);
  } catch (const Error& e) {
    error = e.what();
  }
  int rc = 2;
  if (error.empty()) {
    const Timings t = measure(args, w, optiq, rank, size, job_comm);
    error = t.error;
    if (error.empty()) rc = report(args, o, w, t, optiq.ctx, rank, size, job_comm);
  }
  if (optiq.plan) optiq_plan_free(&optiq.plan);
  optiq_destroy(&optiq.ctx);
  return error.empty() ? rc : fail(rank, error);
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
    const int rc = tools::report_failure("optiq-driver", world_rank, e);
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
