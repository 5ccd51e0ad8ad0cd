// Contexts: options, agreement across ranks, communicators and the transport.
#include <algorithm>
#include <cstring>
#include <new>

#include "runtime/engine/cpu_costs.hpp"
#include "runtime/api/class_gate.hpp"
#include "runtime/api/context.hpp"
#include "runtime/api/host_placement.hpp"
#include "runtime/api/warn_once.hpp"
#include "runtime/api/shared_network.hpp"
#include "optiq/core/error.hpp"
#include "optiq/core/options.hpp"
#include "optiq/core/planner.hpp"

using namespace optiq;
using optiq::rt::Failure;

namespace {

constexpr std::size_t kSmallRmaChunk = 4096;  // below this, one-sided chunks warn (docs/errors.md)

// Everything that must be equal on all ranks: the topology, every option as its record prints
// it, and the rank map.
std::uint64_t arguments_of(const char* topology, const optiq_options& o, int size) {
  std::vector<std::string> texts{topology ? topology : ""};
  for (const OptionRecord& r : option_records("runtime")) texts.push_back(get_option(o, r.name));
  if (o.rank_to_node)
    for (int r = 0; r < size; ++r) texts.push_back(std::to_string(o.rank_to_node[r]));
  return rt::fingerprint(texts);
}

void configure(optiq_context* ctx, const char* topology, const optiq_options& o) {
  try {
    ctx->topo = rt::shared_network(topology);
    ctx->routing = make_routing(o.routing ? o.routing : ctx->topo->default_routing(), *ctx->topo);
  } catch (const Error& e) {
    throw Failure(OPTIQ_ERR_TOPOLOGY, e.what());
  }
  const std::string planner = o.planner ? o.planner : "";
  const auto known = planner_names();
  if (std::find(known.begin(), known.end(), planner) == known.end()) {
    std::string list;
    for (const auto& n : known) list += (list.empty() ? "" : ", ") + n;
    throw Failure(OPTIQ_ERR_PLANNER, "unknown planner '" + planner + "' (known: " + list + ")");
  }
  // Every other field against its record (include/optiq/core/options.hpp); routing was read above.
  for (const OptionRecord& r : option_records("runtime")) {
    if (r.name == "planner" || r.kind == OptionKind::text) continue;
    try {
      check_option_value(r, get_option(o, r.name));
    } catch (const Error& e) {
      throw Failure(OPTIQ_ERR_ARG, "options." + r.field + ": " + e.what());
    }
  }
  rt::PlanningSetup& s = ctx->setup;
  s.routing = ctx->routing.get();
  s.planner = planner;
  s.paths_per_job = o.paths_per_job;
  s.direct_threshold = o.direct_threshold_bytes;
  s.min_gain = o.min_gain;
  s.aggregate_node = o.aggregate_node != 0;
  s.schedule.chunk = o.chunk_bytes;
  s.schedule.budget = o.forward_budget_bytes;
  s.copy_bandwidth = rt::simulated_copy_bandwidth();
  ctx->use_cache = o.plan_cache != 0;
  ctx->engine.discipline = static_cast<rt::Discipline>(o.queue);
  ctx->engine.dispatch = static_cast<rt::Dispatch>(o.dispatch);
  ctx->engine.max_inflight = o.max_inflight;
  ctx->engine.held_share = o.class_share;
  ctx->priority = o.priority;
  ctx->class_window = o.class_window;
  ctx->stats.budget_bytes = o.forward_budget_bytes;
  if (o.progress_thread) rt::check_progress_thread_allowed();
}

bool by_host(const optiq_options& o, const Network& net) {
  return o.rank_placement == OPTIQ_PLACEMENT_HOSTS || (o.rank_placement == OPTIQ_PLACEMENT_AUTO && net.hosts_named());
}

// Collective, after the topology and options were agreed, so that every rank decides alike:
// where each rank runs, and the network its plans see (only the job's endpoints forward).
void place_ranks(optiq_context* ctx, const optiq_options& o, const rt::Comms& c) {
  std::vector<NodeId> map;
  if (o.rank_to_node)
    map.assign(o.rank_to_node, o.rank_to_node + c.size);
  else if (by_host(o, *ctx->topo))
    map = rt::nodes_by_host(c, *ctx->topo);
  try {
    ctx->placement = std::make_unique<RankMap>(*ctx->topo, c.size, o.ranks_per_node, map);
  } catch (const Error& e) {
    throw Failure(OPTIQ_ERR_TOPOLOGY, e.what());
  }
  ctx->stats.node = ctx->placement->node_of(c.rank);
  ctx->job_topo = rt::job_network(ctx->topo, *ctx->placement);
  ctx->setup.topo = ctx->job_topo.get();
  ctx->setup.placement = ctx->placement.get();
}

void free_comms(rt::Comms& c) {
  for (MPI_Comm* m : {&c.data, &c.fwd, &c.ctrl, &c.classes})
    if (*m != MPI_COMM_NULL) MPI_Comm_free(m);
}

}  // namespace

extern "C" {

int optiq_create(MPI_Comm comm, const char* topology, const optiq_options* options, optiq_t* out) {
  if (!out) return OPTIQ_ERR_ARG;
  auto* ctx = new (std::nothrow) optiq_context;
  *out = ctx;
  if (!ctx) return OPTIQ_ERR_INTERNAL;
  if (comm == MPI_COMM_NULL) {
    rt::set_error(ctx, "the communicator is MPI_COMM_NULL");
    return OPTIQ_ERR_ARG;
  }
  optiq_options o;
  optiq_options_init(&o);
  if (options) o = *options;
  int size = 0, rank = 0;
  MPI_Comm_size(comm, &size);
  MPI_Comm_rank(comm, &rank);

  // Everything below happens on every rank, whatever failed locally, so no rank is left
  // waiting in a collective the others skipped.
  const rt::Verdict local = rt::verdict([&] {
    if (!topology) throw Failure(OPTIQ_ERR_ARG, "no topology given");
    configure(ctx, topology, o);
  });
  rt::Comms& c = ctx->comms;
  c.rank = rank;
  c.size = size;
  MPI_Comm_dup(comm, &c.ctrl);
  MPI_Comm_dup(comm, &c.data);
  MPI_Comm_dup(comm, &c.fwd);
  // An MPI failure inside optiq must stop the job, not leave ranks waiting for each other.
  for (MPI_Comm m : {c.ctrl, c.data, c.fwd}) MPI_Comm_set_errhandler(m, MPI_ERRORS_ARE_FATAL);

  const int status = rt::guarded(ctx, [&] {
    rt::agree_status(c, local.code, local.message);
    rt::agree_same(c, arguments_of(topology, o, size), "a topology or options");
    place_ranks(ctx, o, c);
    if (o.class_until_done) {  // agreed above: every rank makes it or none
      MPI_Comm_dup(comm, &c.classes);
      MPI_Comm_set_errhandler(c.classes, MPI_ERRORS_ARE_FATAL);
    }
    int* tag_ub = nullptr;
    int flag = 0;
    MPI_Comm_get_attr(c.data, MPI_TAG_UB, &tag_ub, &flag);
    ctx->setup.schedule.max_tag = flag ? *tag_ub : 32767;
    ctx->transport = o.transport == OPTIQ_TRANSPORT_RMA ? rt::make_rma_transport(c, o.forward_budget_bytes)
                                                        : rt::make_p2p_transport(c, o.forward_budget_bytes);
    ctx->stats.reserved_bytes = ctx->transport->reserved();
    if (o.progress_thread) ctx->progress_thread = std::make_unique<rt::ProgressThread>(ctx);
    ctx->ready = true;
    // One-sided puts of small chunks pay a window synchronisation each: 64-byte chunks ran 3-4x
    // slower than two-sided sends (a 64 MiB big-count test: 96-120 s against 31 s).
    if (c.rank == 0 && o.transport == OPTIQ_TRANSPORT_RMA && o.chunk_bytes > 0 && o.chunk_bytes < kSmallRmaChunk)
      rt::warn_once("rma-chunk", "chunks of " + std::to_string(o.chunk_bytes) +
                                     " bytes on the one-sided transport run several times slower than two-sided; "
                                     "use chunk 0 (automatic), at least 4 KiB, or transport p2p");
  });
  if (status != OPTIQ_SUCCESS) free_comms(c);
  return status;
}

int optiq_destroy(optiq_t* handle) {
  if (!handle || !*handle) return OPTIQ_ERR_ARG;
  optiq_context* ctx = *handle;
  if (ctx->active) {
    rt::set_error(ctx, "an operation is still in flight; complete it with optiq_wait first");
    return OPTIQ_ERR_BUSY;
  }
  ctx->progress_thread.reset();  // stopped before the transport it steps goes
  rt::class_forget(ctx);  // completes this context's end notices before their communicator goes
  const int status = rt::guarded(ctx, [&] { ctx->transport.reset(); });  // collective for rma (frees the window)
  if (status != OPTIQ_SUCCESS) return status;
  free_comms(ctx->comms);
  delete ctx;
  *handle = nullptr;
  return OPTIQ_SUCCESS;
}

int optiq_places_by_host(const char* topology, const optiq_options* options) {
  if (!topology) return OPTIQ_ERR_ARG;
  optiq_options o;
  optiq_options_init(&o);
  if (options) o = *options;
  try {
    return by_host(o, *rt::shared_network(topology)) ? 1 : 0;
  } catch (...) {
    return OPTIQ_ERR_TOPOLOGY;
  }
}

const char* optiq_error_string(optiq_t ctx) { return ctx ? ctx->error.c_str() : "no context"; }

const char* optiq_status_name(int status) {
  switch (status) {
    case OPTIQ_SUCCESS: return "OPTIQ_SUCCESS";
    case OPTIQ_ERR_ARG: return "OPTIQ_ERR_ARG";
    case OPTIQ_ERR_DATATYPE: return "OPTIQ_ERR_DATATYPE";
    case OPTIQ_ERR_MISMATCH: return "OPTIQ_ERR_MISMATCH";
    case OPTIQ_ERR_PLANNER: return "OPTIQ_ERR_PLANNER";
    case OPTIQ_ERR_PLAN: return "OPTIQ_ERR_PLAN";
    case OPTIQ_ERR_SCHEDULE: return "OPTIQ_ERR_SCHEDULE";
    case OPTIQ_ERR_TOPOLOGY: return "OPTIQ_ERR_TOPOLOGY";
    case OPTIQ_ERR_BUSY: return "OPTIQ_ERR_BUSY";
    case OPTIQ_ERR_STATE: return "OPTIQ_ERR_STATE";
    case OPTIQ_ERR_INTERNAL: return "OPTIQ_ERR_INTERNAL";
    case OPTIQ_ERR_IO: return "OPTIQ_ERR_IO";
    default: return "OPTIQ_ERR_UNKNOWN";
  }
}

int optiq_get_stats(optiq_t ctx, optiq_stats* stats) {
  if (!ctx || !stats) return OPTIQ_ERR_ARG;
  *stats = ctx->stats;
  return OPTIQ_SUCCESS;
}

}  // extern "C"
