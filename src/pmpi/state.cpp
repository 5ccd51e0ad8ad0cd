// Contexts live as communicator attributes; counters are per process until the summary.
#include "pmpi/state.hpp"

#include <cstdio>
#include <map>
#include <numeric>
#include <sstream>
#include <vector>

#include "pmpi/config.hpp"
#include "pmpi/guard.hpp"
#include "pmpi/requests.hpp"

namespace optiq::pmpi {

namespace {

struct CommRecord {
  MPI_Comm comm = MPI_COMM_NULL;
  int rank = 0;  // this process' rank in comm
  optiq_t ctx = nullptr;
  std::string why;  // set when ctx is nullptr
};

struct Totals {
  unsigned long long taken[kCalls] = {};
  std::map<std::string, unsigned long long> passed;  // "call: why" -> calls
  unsigned long long contexts = 0;
  unsigned long long plans_made = 0, plans_cached = 0;        // counted by rank 0 of each communicator
  unsigned long long aggregated = 0;                           // counted by rank 0 of each communicator
  unsigned long long forwarded_bytes = 0, injected_bytes = 0;  // every rank's own
  unsigned long long early_starts = 0;                          // every rank's own
};

int keyval = MPI_KEYVAL_INVALID;
std::vector<CommRecord*> live;  // in creation order, which every rank shares per communicator
Totals totals;

int world_rank() {
  int r = 0;
  PMPI_Comm_rank(MPI_COMM_WORLD, &r);
  return r;
}

void retire(CommRecord* rec) {
  if (rec->ctx) {
    complete_all(rec->ctx);
    optiq_stats s{};
    InsideOptiq in;
    if (optiq_get_stats(rec->ctx, &s) == OPTIQ_SUCCESS) {
      if (rec->rank == 0) {
        totals.plans_made += s.plans_made;
        totals.plans_cached += s.plan_cache_hits;
        totals.aggregated += s.aggregated_operations;
      }
      totals.forwarded_bytes += s.forwarded_bytes;
      totals.injected_bytes += s.injected_bytes;
      totals.early_starts += s.early_starts;
    }
    optiq_destroy(&rec->ctx);
  }
  for (auto it = live.begin(); it != live.end(); ++it)
    if (*it == rec) {
      live.erase(it);
      break;
    }
  delete rec;
}

int delete_attribute(MPI_Comm, int, void* attribute, void*) {
  retire(static_cast<CommRecord*>(attribute));
  return MPI_SUCCESS;
}

// Node of every rank of comm: MPI_COMM_WORLD rank / ranks per node. Empty if some rank of
// comm is not in this MPI_COMM_WORLD (dynamic processes): every rank then sees such a rank.
std::vector<int> nodes_of(MPI_Comm comm, int ranks_per_node) {
  int size = 0;
  PMPI_Comm_size(comm, &size);
  MPI_Group group, world;
  PMPI_Comm_group(comm, &group);
  PMPI_Comm_group(MPI_COMM_WORLD, &world);
  std::vector<int> ranks(size), in_world(size);
  std::iota(ranks.begin(), ranks.end(), 0);
  PMPI_Group_translate_ranks(group, size, ranks.data(), world, in_world.data());
  PMPI_Group_free(&group);
  PMPI_Group_free(&world);
  for (int& r : in_world) {
    if (r == MPI_UNDEFINED) return {};
    r /= ranks_per_node;
  }
  return in_world;
}

// Open MPI 4's one-sided component (osc/rdma) names a window's shared-memory segment after the
// communicator's id, which disjoint communicators made at the same time share: two such windows
// on one host unlink each other's segment and crash in MPI_Win_detach. Windows on communicators
// that span MPI_COMM_WORLD cannot collide, so the one-sided transport is used there only; the
// others get the two-sided one (docs/interposition.md).
bool rma_unsafe_on(MPI_Comm comm) {
#ifdef OPEN_MPI
  int size = 0, world = 0;
  PMPI_Comm_size(comm, &size);
  PMPI_Comm_size(MPI_COMM_WORLD, &world);
  return size != world;
#else
  (void)comm;
  return false;
#endif
}

CommRecord* create(MPI_Comm comm) {
  const Config& cfg = config();
  auto* rec = new CommRecord;
  rec->comm = comm;
  PMPI_Comm_rank(comm, &rec->rank);
  // By host name, optiq_create finds every rank's endpoint itself; by block, the block is of
  // MPI_COMM_WORLD's ranks, which a sub-communicator's own numbering does not give.
  const bool hosts = optiq_places_by_host(cfg.topology.c_str(), &cfg.options) == 1;
  const std::vector<int> nodes = hosts ? std::vector<int>() : nodes_of(comm, cfg.options.ranks_per_node);
  if (!hosts && nodes.empty()) {
    rec->why = "the communicator has ranks outside MPI_COMM_WORLD";
  } else {
    optiq_options o = cfg.options;
    o.rank_to_node = hosts ? nullptr : nodes.data();
    if (o.transport == OPTIQ_TRANSPORT_RMA && rma_unsafe_on(comm)) o.transport = OPTIQ_TRANSPORT_P2P;
    char name[MPI_MAX_OBJECT_NAME] = {0};
    int length = 0;
    PMPI_Comm_get_name(comm, name, &length);
    if (auto cls = cfg.classes.find(std::string(name, length)); cls != cfg.classes.end()) o.priority = cls->second;
    InsideOptiq in;
    const int status = optiq_create(comm, cfg.topology.c_str(), &o, &rec->ctx);
    if (status != OPTIQ_SUCCESS) {
      rec->why = std::string("optiq_create: ") + optiq_status_name(status) + ": " + optiq_error_string(rec->ctx);
      optiq_destroy(&rec->ctx);
      rec->ctx = nullptr;
    } else {
      if (rec->rank == 0) ++totals.contexts;  // one per communicator
    }
  }
  live.push_back(rec);
  PMPI_Comm_set_attr(comm, keyval, rec);
  return rec;
}

void warn_once_if_misconfigured(const Config& cfg) {
  static bool warned = false;
  // An unset OPTIQ_TOPOLOGY is a choice (the summary says it); a bad value is a mistake to show.
  if (warned || !cfg.bad_value) return;
  warned = true;
  if (world_rank() == 0) std::fprintf(stderr, "optiq: %s; every call goes to MPI\n", cfg.why_off.c_str());
}

}  // namespace

const char* call_name(Call call) {
  switch (call) {
    case Call::alltoallv: return "alltoallv";
    case Call::ialltoallv: return "ialltoallv";
    case Call::alltoall: return "alltoall";
    case Call::ialltoall: return "ialltoall";
  }
  return "?";
}

optiq_t context_for(MPI_Comm comm, std::string* why) {
  const Config& cfg = config();
  warn_once_if_misconfigured(cfg);
  if (!cfg.enabled) {
    *why = cfg.why_off;
    return nullptr;
  }
  int inter = 0;
  if (PMPI_Comm_test_inter(comm, &inter) != MPI_SUCCESS) {
    *why = "not a valid communicator";
    return nullptr;
  }
  if (inter) {
    *why = "intercommunicator";
    return nullptr;
  }
  if (keyval == MPI_KEYVAL_INVALID)
    PMPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, delete_attribute, &keyval, nullptr);
  void* attribute = nullptr;
  int found = 0;
  PMPI_Comm_get_attr(comm, keyval, &attribute, &found);
  CommRecord* rec = found ? static_cast<CommRecord*>(attribute) : create(comm);
  *why = rec->why;
  return rec->ctx;
}

void count_taken(MPI_Comm comm, Call call) {
  int r = 0;
  PMPI_Comm_rank(comm, &r);
  if (r == 0) ++totals.taken[static_cast<int>(call)];
}

void count_passed(MPI_Comm comm, Call call, const std::string& why) {
  int r = 0;
  PMPI_Comm_rank(comm, &r);
  if (r == 0) ++totals.passed[std::string(call_name(call)) + ": " + why];
}

namespace {

// Sums every rank's "reason -> calls" on rank 0 of MPI_COMM_WORLD.
std::map<std::string, unsigned long long> gather_passed() {
  std::ostringstream text;
  for (const auto& [why, n] : totals.passed) text << n << '\t' << why << '\n';
  const std::string mine = text.str();
  int size = 0;
  PMPI_Comm_size(MPI_COMM_WORLD, &size);
  const bool root = world_rank() == 0;
  int length = static_cast<int>(mine.size());
  std::vector<int> lengths(root ? size : 0), offsets(root ? size : 0);
  PMPI_Gather(&length, 1, MPI_INT, lengths.data(), 1, MPI_INT, 0, MPI_COMM_WORLD);
  long long total = 0;
  for (int r = 0; r < static_cast<int>(lengths.size()); ++r) {
    offsets[r] = static_cast<int>(total);
    total += lengths[r];
  }
  std::string all(static_cast<std::size_t>(total), '\0');
  PMPI_Gatherv(mine.data(), length, MPI_CHAR, all.data(), lengths.data(), offsets.data(), MPI_CHAR, 0,
               MPI_COMM_WORLD);
  std::map<std::string, unsigned long long> merged;
  std::istringstream lines(all);
  unsigned long long n = 0;
  std::string why;
  while (lines >> n && lines.get() == '\t' && std::getline(lines, why)) merged[why] += n;
  return merged;
}

void print_summary() {
  unsigned long long mine[] = {totals.taken[0],       totals.taken[1],     totals.taken[2],
                               totals.taken[3],       totals.contexts,     totals.plans_made,
                               totals.plans_cached,   totals.forwarded_bytes, totals.injected_bytes,
                               totals.early_starts,   totals.aggregated};
  constexpr int n = sizeof mine / sizeof mine[0];
  unsigned long long sum[n] = {};
  PMPI_Reduce(mine, sum, n, MPI_UNSIGNED_LONG_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
  const auto passed = gather_passed();
  if (world_rank() != 0) return;
  unsigned long long passed_total = 0;
  for (const auto& [why, calls] : passed) passed_total += calls;
  const Config& cfg = config();
  std::fprintf(stderr,
               "optiq: summary taken=%llu passed=%llu alltoallv=%llu ialltoallv=%llu alltoall=%llu ialltoall=%llu "
               "contexts=%llu plans_made=%llu plans_cached=%llu forwarded_bytes=%llu injected_bytes=%llu early_starts=%llu aggregated=%llu\n",
               sum[0] + sum[1] + sum[2] + sum[3], passed_total, sum[0], sum[1], sum[2], sum[3], sum[4], sum[5], sum[6],
               sum[7], sum[8], sum[9], sum[10]);
  if (cfg.enabled)
    std::fprintf(stderr,
                 "optiq: settings topology=%s planner=%s transport=%s placement=%s ranks_per_node=%d aggregate_node=%d\n",
                 cfg.topology.c_str(), cfg.options.planner, cfg.options.transport == OPTIQ_TRANSPORT_RMA ? "rma" : "p2p",
                 optiq_places_by_host(cfg.topology.c_str(), &cfg.options) == 1 ? "hosts" : "block",
                 cfg.options.ranks_per_node, cfg.options.aggregate_node != 0);
  for (const auto& [why, calls] : passed) std::fprintf(stderr, "optiq: passed %llu %s\n", calls, why.c_str());
}

}  // namespace

void finish() {
  complete_all(nullptr);
  const std::vector<CommRecord*> remaining = live;
  for (CommRecord* rec : remaining) PMPI_Comm_delete_attr(rec->comm, keyval);
  if (keyval != MPI_KEYVAL_INVALID) PMPI_Comm_free_keyval(&keyval);
  if (config().verbose) print_summary();
}

}  // namespace optiq::pmpi
