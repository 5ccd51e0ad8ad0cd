#include "tools/driver/report.hpp"

#include <algorithm>
#include <cstdio>

#include "optiq/core/options.hpp"
#include "tools/common/document.hpp"

namespace optiq::driver {

namespace {

constexpr int kListedRanks = 4096;  // rank_nodes lists the placement of jobs up to this size

json::Ordered seconds_json(std::vector<double> t) {
  if (t.empty()) return nullptr;
  std::sort(t.begin(), t.end());
  const std::size_t n = t.size();
  return {{"min", t.front()}, {"median", n % 2 ? t[n / 2] : (t[n / 2 - 1] + t[n / 2]) / 2}, {"max", t.back()}};
}

unsigned long long reduce(unsigned long long x, MPI_Op op, MPI_Comm job_comm) {
  unsigned long long s = 0;
  MPI_Allreduce(&x, &s, 1, MPI_UNSIGNED_LONG_LONG, op, job_comm);
  return s;
}

double gbps(const json::Ordered& seconds, std::uint64_t bytes) {
  const double median = seconds.is_null() ? 0.0 : seconds["median"].get<double>();
  return median > 0 ? static_cast<double>(bytes) / median / 1e9 : 0.0;
}

// The settings part: what ran, with which options (as their records print them).
json::Ordered settings(const Args& args, const optiq_options& o, int size) {
  json::Ordered doc = {{"topology", args.topology}, {"ranks", size}, {"ranks_per_node", o.ranks_per_node}};
  if (args.plan.empty()) {
    if (args.requests.empty()) doc["pattern"] = args.pattern;
    else doc["requests"] = args.requests;
    doc["planner"] = o.planner;
  } else {
    doc["plan"] = args.plan;
  }
  doc["transport"] = get_option(o, "transport");
  doc["queue"] = get_option(o, "queue");
  doc["dispatch"] = get_option(o, "dispatch");
  doc["min_gain"] = o.min_gain;
  doc["chunk"] = o.chunk_bytes;
  doc["budget"] = o.forward_budget_bytes;
  doc["threshold"] = o.direct_threshold_bytes;
  doc["aggregate_node"] = o.aggregate_node != 0;
  doc["compute_seconds"] = args.compute;
  doc["progress_calls"] = args.progress_calls;
  return doc;
}

}  // namespace

int report(const Args& args, const optiq_options& o, const Workload& w, const Timings& t, optiq_t ctx, int rank,
           int size, MPI_Comm job_comm) {
  const unsigned long long bad_optiq = reduce(t.wrong[kOptiq], MPI_SUM, job_comm);
  const unsigned long long bad_mpi = reduce(t.wrong[kMpi] + t.wrong[kMpiAgreed], MPI_SUM, job_comm);
  const bool check = !args.shared_buffers;
  optiq_stats st;
  optiq_get_stats(ctx, &st);
  const auto sum = [&](unsigned long long x) { return reduce(x, MPI_SUM, job_comm); };
  const auto most = [&](unsigned long long x) { return reduce(x, MPI_MAX, job_comm); };
  const unsigned long long forwarded = sum(st.forwarded_bytes), chunks = sum(st.forwarded_chunks),
                           off_plan = sum(st.off_plan_bytes), held = most(st.held_bytes_peak),
                           lent = most(st.slot_bytes_lent);
  double plan_seconds = 0;
  MPI_Allreduce(&st.plan_seconds, &plan_seconds, 1, MPI_DOUBLE, MPI_MAX, job_comm);
  // Where each rank was placed (by host name or by block), for jobs small enough to list.
  std::vector<int> nodes(size <= kListedRanks && rank == 0 ? size : 0);
  if (size <= kListedRanks) MPI_Gather(&st.node, 1, MPI_INT, nodes.data(), 1, MPI_INT, 0, job_comm);
  if (rank == 0) {
    json::Ordered doc = settings(args, o, size);
    doc["bytes"] = w.total_bytes;
    doc["messages"] = w.pairs;
    doc["iterations"] = args.iterations;
    doc["warmup"] = args.warmup;
    doc["mpi_call"] = args.mpi_p2p ? "MPI_Isend/MPI_Irecv" : "MPI_Alltoallv";
    doc["verified"] = check ? json::Ordered(bad_optiq == 0 && bad_mpi == 0) : json::Ordered(nullptr);
    doc["wrong_messages"] = {{"optiq", bad_optiq}, {"mpi_alltoallv", bad_mpi}};
    doc["optiq_seconds"] = seconds_json(t.seconds[kOptiq]);
    doc["mpi_alltoallv_seconds"] = seconds_json(t.seconds[kMpi]);
    doc["optiq_gbps"] = gbps(doc["optiq_seconds"], w.total_bytes);
    doc["mpi_alltoallv_gbps"] = gbps(doc["mpi_alltoallv_seconds"], w.total_bytes);
    if (args.agreement_baseline) doc["mpi_allgather_alltoallv_seconds"] = seconds_json(t.seconds[kMpiAgreed]);
    doc["first_call_seconds"] = t.first_optiq;
    doc["plan_seconds"] = plan_seconds;
    doc["forwarded_bytes"] = forwarded;
    doc["forwarded_chunks"] = chunks;
    doc["off_plan_bytes"] = off_plan;
    if (!nodes.empty()) doc["rank_nodes"] = nodes;
    doc["held_bytes_peak"] = held;
    doc["slot_bytes_lent"] = lent;
    doc["predicted_seconds"] = st.predicted_seconds;
    doc["aggregated_operations"] = st.aggregated_operations;
    doc["planned_jobs"] = st.planned_jobs;
    doc["planned_paths"] = st.planned_paths;
    doc["most_paths"] = st.most_paths;
    doc["plans_made"] = st.plans_made;
    doc["plan_cache_hits"] = st.plan_cache_hits;
    tools::print_document(doc);
  }
  return bad_optiq == 0 && bad_mpi == 0 ? 0 : 1;
}

}  // namespace optiq::driver
