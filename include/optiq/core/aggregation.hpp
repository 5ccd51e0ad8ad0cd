// Two-phase I/O: the compute nodes that collect a file group's bytes before they go to its I/O
// node (aggregator placement), and the two data movements that placement implies, each
// planned like any other pattern (docs/io.md).
//
// Everything here works on nodes: the ranks of a node gather their data on one mover first, as
// the thesis did for HACC-IO, and that node-local copy costs the network nothing. A node is
// aggregator of at most one file domain, as in tessier2016.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "optiq/core/planner.hpp"

namespace optiq {

// Defaults of the field: ROMIO on BG/Q and tessier2016 use 16 aggregators per I/O node and
// 16 MiB collective buffers.
constexpr int kDefaultAggregators = 16;
constexpr Bytes kDefaultAggregationBuffer = Bytes(16) << 20;
// Seconds per link crossed, the `l` of topology-aware placement; the same as each link's
// latency on the simulated platforms (python/optiq/simulation/platform.py).
constexpr double kHopLatency = 5e-8;

struct Extent {
  Bytes offset = 0;
  Bytes bytes = 0;
};

// The compute nodes that write through one I/O node and, per node, the pieces of the group's
// file its ranks hold (ascending offsets, no overlaps; a node may hold nothing).
struct IoGroup {
  NodeId io = -1;
  std::vector<NodeId> nodes;                 // ascending
  std::vector<std::vector<Extent>> extents;  // one list per node
  Bytes file_bytes() const;                  // end of the last extent
};

// The I/O vertex each endpoint writes through (Network::endpoints() order): the one its default
// route reaches in the fewest links, ties to the lowest id. On BG/Q this is the pset's I/O node
// (tests/cpp/test_aggregation.cpp checks it). Throws optiq::Error when the network has no I/O
// vertex or an endpoint reaches none.
std::vector<NodeId> io_nodes_of_endpoints(const Network& net, const RoutingModel& routing);
// The same for one endpoint, in time proportional to the I/O vertices rather than to the whole
// network: what a rank asks about its own node.
NodeId io_node_of_endpoint(const Network& net, const RoutingModel& routing, NodeId endpoint);

// How ranks lay their data out in each group's file.
enum class FileLayout {
  Aos,  // each rank's bytes contiguous, ranks in order (array of structures)
  Soa,  // per variable a section holding every rank's values of it in rank order (structure of arrays)
};
// HACC-IO's particle: XX YY ZZ VX VY VZ phi as 4-byte floats, pid 8 bytes, mask 2 bytes.
constexpr int kHaccVariableBytes[] = {4, 4, 4, 4, 4, 4, 4, 8, 2};
constexpr int kHaccParticleBytes = 38;

// The groups of a job whose rank r runs on endpoint r / ranks_per_node and holds
// rank_items[r] items of `item_sizes` bytes each (one variable of item_sizes[0] bytes for plain
// arrays; kHaccVariableBytes for HACC), laid out per `layout` in one file per I/O node. Groups
// with no node are left out. Throws optiq::Error on more ranks than the endpoints can hold.
std::vector<IoGroup> make_io_groups(const Network& net, const RoutingModel& routing, int ranks_per_node,
                                    const std::vector<Bytes>& rank_items, const std::vector<int>& item_sizes,
                                    FileLayout layout);

// Per-rank byte counts (or item counts) drawn from a size law ("2MiB", "uniform:LO:HI",
// "pareto:ALPHA:MIN[:MAX]"), where only a seeded choice of round(holders * nodes) nodes (at
// least one) holds data, every rank of them; the other ranks hold nothing. holders in (0, 1].
std::vector<Bytes> sparse_rank_amounts(int nodes, int ranks_per_node, const std::string& law, double holders,
                                       std::uint64_t seed);

// The file domains of a group: `aggregators` contiguous ranges of equal span (the last may be
// shorter) covering [0, file_bytes), as ROMIO divides a file among aggregators. bytes[k][i]:
// what the group's i-th node holds in domain k.
struct Domains {
  Bytes span = 0;
  std::vector<Bytes> total;                // per domain
  std::vector<std::vector<Bytes>> bytes;   // per domain, per node of the group
  int count() const { return static_cast<int>(total.size()); }
};
Domains file_domains(const IoGroup& group, int aggregators);

// One strategy's aggregators for a group: aggregator[k] serves domain k (-1 where the domain
// holds no data).
using AggregatorNodes = std::vector<NodeId>;

struct AggregationOptions {
  int aggregators = kDefaultAggregators;  // per group
  Bytes buffer = kDefaultAggregationBuffer;
  double hop_latency = kHopLatency;
  // flow-aware: how the planner in the loop plans both phases.
  PlannerOptions planner;
  // flow-aware: placements up to this many are all tried; beyond, a local search (docs/io.md).
  long long exhaustive_limit = 4096;
  // flow-aware: told how many placements it has tried of how many it will try at most.
  Progress progress = nullptr;
};

// "greedy", "shortest", "longest", "romio-bgq", "topology-aware", "flow-aware" (docs/io.md
// gives each one's cost). Throws optiq::Error for an unknown name, fewer than one aggregator, or
// more aggregators than the group has nodes.
AggregatorNodes place_aggregators(const std::string& strategy, const Network& net, const RoutingModel& routing,
                            const IoGroup& group, const AggregationOptions& options);
std::vector<std::string> placement_names();

// ROMIO's BG/Q aggregator list for a group (romio-bgq's rule, docs/io.md), in ROMIO's order:
// each bridge set's bridge first, then evenly spaced members of each set; `aggregators` nodes
// unless the sets are smaller.
std::vector<NodeId> romio_bgq_aggregators(const RoutingModel& routing, const IoGroup& group, int aggregators);

// topology-aware's cost of node `candidate` (an index into group.nodes) serving domain k:
// C1 + C2 of tessier2016 (docs/io.md).
double topology_aware_cost(const Network& net, const RoutingModel& routing, const IoGroup& group,
                           const Domains& domains, int k, int candidate, double hop_latency);

// The two movements a placement implies: every node's bytes to the aggregators of their
// domains (a node's bytes for its own domain stay put), and every aggregator's domain to the
// group's I/O node; and the rounds the buffer imposes (the largest domain span over the buffer).
struct AggregationJobs {
  std::vector<Job> aggregation;
  std::vector<Job> io;
  int rounds = 0;
};
AggregationJobs aggregation_jobs(const std::vector<IoGroup>& groups, const std::vector<AggregatorNodes>& placements,
                                 const AggregationOptions& options);

// Two phases pipelined over `rounds` rounds with two buffers: the first round's aggregation,
// then each round's write overlapping the next round's aggregation, then the last write.
double pipelined_seconds(double aggregation_seconds, double io_seconds, int rounds);

// Predicted seconds of both phases of one group's placement with `planner` (0 where a phase
// moves nothing), and their pipelined total: flow-aware's cost.
struct AggregationTimes {
  double aggregation = 0;
  double io = 0;
  double total = 0;
};
AggregationTimes aggregation_times(const std::string& planner, const Network& net, const RoutingModel& routing,
                                   const IoGroup& group, const AggregatorNodes& placement,
                                   const AggregationOptions& options);

}  // namespace optiq
