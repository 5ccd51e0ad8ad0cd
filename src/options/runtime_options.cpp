// The runtime's options (optiq_options): the one place their defaults, ranges and meanings are
// written; optiq_options_init, the interposer's environment and the tools' command lines read them.
#include "optiq/core/planner.hpp"
#include "options/table.hpp"

namespace optiq {

namespace options {

const Table<optiq_options>& runtime_table() {
  using O = optiq_options;
  static const Table<O> table("runtime", [] {
    OptionRecord planner = choice("planner", "mcf", planner_names(), "the planner of every exchange");
    return std::vector<Entry<O>>{
        bind(planner, &O::planner, "planner"),
        bind(text("routing", "", "the network's default routing model (default: the topology's own)"), &O::routing,
             "routing"),
        bind(with_special(bytes("chunk", "0", 1, double(Bytes(1) << 30), "bytes per forwarded message"), "0",
                          "automatic by message size and hop count"),
             &O::chunk_bytes, "chunk_bytes"),
        bind(choice("transport", "p2p", {"p2p", "rma"}, "two-sided (p2p) or one-sided (rma) MPI"), &O::transport,
             "transport"),
        bind(bytes("forward-budget", "16MiB", 1, double(Bytes(1) << 40), "forwarding slot memory per rank"),
             &O::forward_budget_bytes, "forward_budget_bytes"),
        // The break-even measured in simulation (bench/simulation/results): multi-path already
        // beats MPI_Alltoallv at 16 KiB per pair on the 1:8 patterns of 512 nodes.
        bind(bytes("direct-threshold", "16KiB", 0, double(Bytes(1) << 40),
                   "messages smaller than this go directly, unplanned"),
             &O::direct_threshold_bytes, "direct_threshold_bytes"),
        bind(integer("ranks-per-node", "1", 1, 4096, "rank r runs on node r / ranks-per-node"), &O::ranks_per_node,
             "ranks_per_node"),
        bind(choice("rank-placement", "auto", {"auto", "block", "hosts"},
                    "where ranks run: block (rank r on endpoint r / ranks-per-node), hosts (on the endpoint "
                    "its host name names), auto (hosts where the network names its hosts)"),
             &O::rank_placement, "rank_placement"),
        bind(flag("aggregate-node", false,
                  "the ranks of a node send to the ranks of another node as one planned transfer, gathered at one "
                  "rank of the node and scattered at the other"),
             &O::aggregate_node, "aggregate_node"),
        bind(flag("plan-cache", true, "reuse the schedule of a pattern seen before"), &O::plan_cache, "plan_cache"),
        bind(choice("queue", "forward-first", {"forward-first", "local-first", "round-robin"},
                    "which waiting chunk a rank sends first: those it forwards, its own, or alternately"),
             &O::queue, "queue"),
        bind(integer("max-inflight", "512", 1, 1 << 20, "data messages in flight per rank"), &O::max_inflight,
             "max_inflight"),
        bind(integer("paths-per-job", option_record("planner", "k").default_value, 1, 100000,
                     "candidate paths per message for heu1 and heu2"),
             &O::paths_per_job, "paths_per_job"),
        bind(choice("dispatch", "paced", {"paced", "eager"},
                    "paced: a forwarding plan's paths run at the rates of their shares; eager: every chunk as soon "
                    "as a send is free"),
             &O::dispatch, "dispatch"),
        bind(flag("progress-thread", false,
                  "a thread of each rank advances its operations while the application computes (needs "
                  "MPI_THREAD_MULTIPLE)"),
             &O::progress_thread, "progress_thread"),
        // Forwarding costs what the fluid prediction leaves out (a chunk's wait at each
        // forwarder, per-message work): 2-8% of a plan's time on simulated BG/Q partitions
        // (bench/simulation), so a plan that promises less than that may well lose.
        bind(real("min-gain", "0.1", 0, 1,
                  "a plan runs only if it predicts at least this fraction less time than the network's default "
                  "route, which runs otherwise (0: every plan runs)",
                  false, true),
             &O::min_gain, "min_gain"),
        bind(integer("priority", "0", 0, kMaxPriority,
                     "traffic class of the context's operations, 0 the most urgent: while a more urgent class's "
                     "operation is in flight in the process, this one sends nothing new"),
             &O::priority, "priority"),
        // The planned time is a fluid bound: in simulation an urgent exchange took 1.25x its
        // window-1 hold beside bulk traffic, and 1.00x with 1.5, the bulk paying 0.70x the urgent
        // exchange's time alone (bench/results/qos_inflight.md).
        bind(real("class-window", "1.5", 0, 100,
                  "how long every rank keeps the network for this context's operations from their start, as a "
                  "multiple of their planned time: less urgent classes send nothing new meanwhile, even on ranks "
                  "without a part in them (0: only where they are active)"),
             &O::class_window, "class_window"),
        // Strict priority by default: in simulation a share lets the bulk bytes fill what the
        // urgent exchange leaves of a shared link, at some cost to the urgent one (docs/qos.md).
        bind(real("class-share", "0", 0, 1,
                  "held back by a more urgent class, the fraction of its planned rate at which this context's "
                  "operation still sends, one message at a time (0: nothing new)",
                  false, true),
             &O::class_share, "class_share"),
        // Off by default: the notices cost a communicator per context and two messages per rank
        // after every operation, which programs without classes do not need.
        bind(flag("class-until-done", false,
                  "a rank stops keeping the network for this context's operation once it has completed on every "
                  "rank (each rank tells rank 0 when its part ends, rank 0 answers all), even inside its class-window"),
             &O::class_until_done, "class_until_done"),
    };
  }());
  return table;
}

}  // namespace options

void set_option(optiq_options& o, const std::string& name, const char* text) {
  options::runtime_table().set(o, name, text);
}

std::string get_option(const optiq_options& o, const std::string& name) { return options::runtime_table().get(o, name); }

}  // namespace optiq

extern "C" void optiq_options_init(optiq_options* o) {
  if (!o) return;
  *o = optiq_options{};
  optiq::options::runtime_table().reset(*o);
}
