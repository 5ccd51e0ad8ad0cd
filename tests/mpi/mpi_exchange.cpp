// Randomized alltoallv cases: every planner x both transports, random machines, patterns,
// datatypes, chunk sizes (down to one byte), budgets, queue disciplines, blocking and
// non-blocking calls, repeated calls. Each case checks every delivered byte and the gaps.
//   mpi_exchange --cases N --seed S
#include <cstdlib>
#include <cstring>
#include <map>

#include "common.hpp"
#include "optiq/core/planner.hpp"

using namespace mpitest;

namespace {

struct Case {
  Machine machine;
  bool shuffled_map = false;
  bool uneven_map = false;  // ranks dealt to nodes at random: some hold several, some none
  bool aggregate = false;   // node aggregation
  std::string planner;
  optiq_transport transport = OPTIQ_TRANSPORT_P2P;
  optiq_queue queue = OPTIQ_QUEUE_FORWARD_FIRST;
  std::size_t chunk = 0, budget = 0, threshold = 0;
  int max_inflight = 16;
  bool cache = true, nonblocking = false;
  int calls = 1, elem = 1;
  PatternShape shape;
  std::uint64_t seed = 0;
};

template <class T>
T pick(optiq::Rng& rng, std::initializer_list<T> items) {
  return items.begin()[rng.below(items.size())];
}

Case draw(std::uint64_t seed, int index, int size, const std::vector<std::string>& planners) {
  optiq::Rng rng(seed * 0x100000001B3ULL + static_cast<std::uint64_t>(index));
  Case c;
  const auto machines = machines_for(size);
  c.machine = machines[rng.below(machines.size())];
  c.shuffled_map = rng.below(4) == 0;
  // Cycle through every planner x transport pair so each gets its share of cases.
  c.planner = planners[index % planners.size()];
  c.transport = (index / planners.size()) % 2 ? OPTIQ_TRANSPORT_RMA : OPTIQ_TRANSPORT_P2P;
  c.queue = static_cast<optiq_queue>(rng.below(3));
  c.chunk = pick<std::size_t>(rng, {0, 1, 2, 3, 5, 8, 13, 64, 256, 4096});
  c.budget = pick<std::size_t>(rng, {16, 64, 256, 4096, 1 << 20});
  c.threshold = pick<std::size_t>(rng, {0, 0, 0, 100, 64 << 10});
  c.max_inflight = pick<int>(rng, {1, 2, 4, 16});
  c.cache = rng.below(2);
  c.nonblocking = rng.below(3) == 0;
  c.calls = 1 + static_cast<int>(rng.below(3));
  c.elem = pick<int>(rng, {1, 1, 4, 6});
  c.shape.density = pick<double>(rng, {0.15, 0.5, 1.0});
  c.shape.max_count = pick<int>(rng, {0, 1, 10, 300, 2000});
  c.shape.self = rng.below(2);
  c.seed = rng.next();
  c.aggregate = rng.below(2);
  c.uneven_map = !c.shuffled_map && rng.below(3) == 0;
  return c;
}

// The node of every rank, blocks of ranks_per_node dealt to shuffled nodes.
std::vector<int> shuffled_nodes(const Case& c, int size, int num_nodes) {
  optiq::Rng rng(c.seed ^ 0xABCDEF);
  std::vector<int> nodes(num_nodes);
  for (int i = 0; i < num_nodes; ++i) nodes[i] = i;
  for (int i = num_nodes - 1; i > 0; --i) std::swap(nodes[i], nodes[rng.below(i + 1)]);
  std::vector<int> map(size);
  for (int r = 0; r < size; ++r) map[r] = nodes[r / c.machine.ranks_per_node];
  return map;
}

// Every rank on a node drawn at random among the first size / (1..4) nodes of the machine: uneven counts per
// node, empty nodes, and nodes holding one rank beside nodes holding several.
std::vector<int> uneven_nodes(const Case& c, int size, int num_nodes) {
  optiq::Rng rng(c.seed ^ 0x5EED);
  const int used = std::max(1, std::min(num_nodes, size / static_cast<int>(1 + rng.below(4))));
  std::vector<int> map(size);
  for (int r = 0; r < size; ++r) map[r] = static_cast<int>(rng.below(used));
  return map;
}

int num_nodes_of(const std::string& spec) {
  int n = 1;
  std::size_t at = spec.find(':') + 1;
  while (at < spec.size()) {
    n *= std::atoi(spec.c_str() + at);
    const std::size_t x = spec.find('x', at);
    if (x == std::string::npos) break;
    at = x + 1;
  }
  return n;
}

struct Totals {
  int cases = 0, retries = 0, calls = 0, aggregated_cases = 0;
  unsigned long long aggregated_ops = 0;
  unsigned long long forwarded = 0, off_plan = 0, hits = 0;
  std::map<std::string, int> per_combo;
};

void run_case(const Case& c, int index, int rank, int size, Checker& ck, Totals& totals) {
  optiq_options o;
  optiq_options_init(&o);
  o.planner = c.planner.c_str();
  o.transport = c.transport;
  o.queue = c.queue;
  o.chunk_bytes = c.chunk;
  o.forward_budget_bytes = c.budget;
  o.direct_threshold_bytes = c.threshold;
  o.max_inflight = c.max_inflight;
  o.plan_cache = c.cache;
  o.ranks_per_node = c.machine.ranks_per_node;
  o.paths_per_job = 8;
  o.min_gain = 0;  // every plan runs, so that forwarding is exercised
  std::vector<int> map;
  if (c.shuffled_map) {
    map = shuffled_nodes(c, size, num_nodes_of(c.machine.topology));
    o.rank_to_node = map.data();
  } else if (c.uneven_map) {
    map = uneven_nodes(c, size, num_nodes_of(c.machine.topology));
    o.rank_to_node = map.data();
  }
  o.aggregate_node = c.aggregate;
  MPI_Datatype type = datatype_of(c.elem);
  if (type == MPI_DATATYPE_NULL) {
    MPI_Type_contiguous(c.elem / 2, MPI_SHORT, &type);
    MPI_Type_commit(&type);
  }
  const Exchange x = make_exchange(c.seed, rank, size, c.elem, c.shape);
  std::vector<unsigned char> sbuf, rbuf;
  char label[512];
  std::snprintf(label, sizeof label,
                "case %d (%s rpn %d%s%s%s, %s, %s, chunk %zu, budget %zu, threshold %zu, queue %d, inflight %d, elem %d, "
                "%s, %d calls)",
                index, c.machine.topology.c_str(), c.machine.ranks_per_node, c.shuffled_map ? " shuffled" : "",
                c.uneven_map ? " uneven" : "", c.aggregate ? " aggregated" : "",
                c.planner.c_str(), c.transport == OPTIQ_TRANSPORT_RMA ? "rma" : "p2p", c.chunk, c.budget,
                c.threshold, c.queue, c.max_inflight, c.elem, c.nonblocking ? "ialltoallv" : "alltoallv", c.calls);
  if (std::getenv("OPTIQ_TEST_TRACE") && rank == 0) std::fprintf(stderr, "%s\n", label);

  optiq_t ctx = nullptr;
  int status = common_status(optiq_create(MPI_COMM_WORLD, c.machine.topology.c_str(), &o, &ctx));
  ck.expect(status == OPTIQ_SUCCESS, "%s: create: %s", label, optiq_error_string(ctx));
  for (int call = 0; status == OPTIQ_SUCCESS && call < c.calls; ++call) {
    const std::uint64_t salt = c.seed + static_cast<std::uint64_t>(call);
    fill_buffers(x, sbuf, rbuf, rank, salt);
    if (c.nonblocking) {
      optiq_request_t req = nullptr;
      status = optiq_ialltoallv(sbuf.data(), x.scounts.data(), x.sdispls.data(), type, rbuf.data(), x.rcounts.data(),
                                x.rdispls.data(), type, ctx, &req);
      for (int flag = 0; status == OPTIQ_SUCCESS && !flag;) status = optiq_test(&req, &flag);
    } else {
      status = optiq_alltoallv(sbuf.data(), x.scounts.data(), x.sdispls.data(), type, rbuf.data(), x.rcounts.data(),
                               x.rdispls.data(), type, ctx);
    }
    status = common_status(status);
    if (status == OPTIQ_ERR_SCHEDULE && o.forward_budget_bytes < (64u << 20)) {
      // A budget too small for this pattern is a legitimate answer: grow it and try again.
      optiq_destroy(&ctx);
      o.forward_budget_bytes *= 16;
      ++totals.retries;
      status = common_status(optiq_create(MPI_COMM_WORLD, c.machine.topology.c_str(), &o, &ctx));
      --call;
      continue;
    }
    if (!ck.expect(status == OPTIQ_SUCCESS, "%s: call %d: %s: %s", label, call, optiq_status_name(status),
                   optiq_error_string(ctx)))
      break;
    std::string why;
    const bool right = verify_buffers(x, rbuf, rank, salt, &why);  // before why is read below
    ck.expect(right, "%s: call %d: %s", label, call, why.c_str());
    ++totals.calls;
  }
  if (ctx) {
    optiq_stats st;
    optiq_get_stats(ctx, &st);
    ck.expect(st.held_bytes_peak <= st.budget_bytes && st.slot_bytes_lent <= st.budget_bytes &&
                  st.reserved_bytes <= std::max<unsigned long long>(st.budget_bytes, 1),
              "%s: forwarding memory over budget: held %llu lent %llu reserved %llu budget %llu", label,
              st.held_bytes_peak, st.slot_bytes_lent, st.reserved_bytes, st.budget_bytes);
    if (c.cache && c.calls > 1 && status == OPTIQ_SUCCESS)
      ck.expect(st.plan_cache_hits >= static_cast<unsigned long long>(c.calls - 1), "%s: %llu cache hits", label,
                st.plan_cache_hits);
    if (c.aggregate && status == OPTIQ_SUCCESS) ++totals.aggregated_cases;
    ck.expect(c.aggregate || st.aggregated_operations == 0, "%s: %llu operations aggregated without the option",
              label, st.aggregated_operations);
    totals.aggregated_ops += st.aggregated_operations;
    totals.forwarded += st.forwarded_bytes;
    totals.off_plan += st.off_plan_bytes;
    totals.hits += st.plan_cache_hits;
    optiq_destroy(&ctx);
  }
  if (c.elem != 1 && c.elem != 4) MPI_Type_free(&type);
  ++totals.cases;
  ++totals.per_combo[c.planner + "/" + (c.transport == OPTIQ_TRANSPORT_RMA ? "rma" : "p2p")];
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int cases = 100, first = 0;
  std::uint64_t seed = 1;
  for (int i = 1; i + 1 < argc; i += 2) {
    if (!std::strcmp(argv[i], "--cases")) cases = std::atoi(argv[i + 1]);
    if (!std::strcmp(argv[i], "--first")) first = std::atoi(argv[i + 1]);  // to rerun one failing case
    if (!std::strcmp(argv[i], "--seed")) seed = std::strtoull(argv[i + 1], nullptr, 10);
  }
  const int rank = world_rank(), size = world_size();
  const std::vector<std::string> planners = optiq::planner_names();
  Checker ck;
  Totals totals;
  const double t0 = MPI_Wtime();
  const bool trace = std::getenv("OPTIQ_TEST_TRACE") != nullptr;  // name each case before it runs
  for (int i = first; i < first + cases; ++i) {
    if (trace && rank == 0) std::fprintf(stderr, "case %d\n", i);
    run_case(draw(seed, i, size, planners), i, rank, size, ck, totals);
  }
  unsigned long long forwarded = 0, off_plan = 0;
  MPI_Allreduce(&totals.forwarded, &forwarded, 1, MPI_UNSIGNED_LONG_LONG, MPI_SUM, MPI_COMM_WORLD);
  MPI_Reduce(&totals.off_plan, &off_plan, 1, MPI_UNSIGNED_LONG_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
  const int failures = ck.total();
  if (rank == 0) {
    std::printf("%d ranks: %d randomized cases, %d calls, %d budget retries, %.1f s; forwarded %llu bytes, %llu off plan\n",
                size, totals.cases, totals.calls, totals.retries, MPI_Wtime() - t0, forwarded, off_plan);
    for (const auto& [combo, n] : totals.per_combo) std::printf("  %-16s %d cases\n", combo.c_str(), n);
    std::printf("  node aggregation: %d cases, %llu operations on rank 0\n", totals.aggregated_cases,
                totals.aggregated_ops);
    std::printf("%s: %d failures\n", failures ? "FAILED" : "passed", failures);
  }
  // And node aggregation must have combined some pair of nodes' jobs.
  const bool aggregated_some = totals.aggregated_ops > 0 || size < 2;
  if (rank == 0 && !aggregated_some) std::printf("FAILED: no operation was aggregated\n");
  // Forwarding must really happen somewhere in a run of this size, or the test proves little.
  const bool forwarded_some = forwarded > 0 || size < 4;
  if (rank == 0 && !forwarded_some) std::printf("FAILED: no case forwarded any byte\n");
  MPI_Finalize();
  return failures || !forwarded_some || !aggregated_some ? 1 : 0;
}
