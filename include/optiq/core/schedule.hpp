// From a plan to per-rank work: which ranks copy which bytes, in which chunks, with which tags,
// and how many forwarding slots each rank lends to whom. Pure computation, no MPI: the runtime
// builds schedules on one rank and ships each rank its own.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "optiq/core/options.hpp"
#include "optiq/core/plan.hpp"
#include "optiq/core/routing.hpp"

namespace optiq {

using Rank = std::int32_t;

// Which node of the topology every rank of a communicator runs on.
class RankMap {
 public:
  // rank_to_node empty: rank r runs on node r / ranks_per_node. Throws optiq::Error when a rank
  // falls outside the topology.
  RankMap(const Network& topo, int num_ranks, int ranks_per_node, std::vector<NodeId> rank_to_node = {});

  int num_ranks() const { return static_cast<int>(node_of_.size()); }
  NodeId node_of(Rank r) const { return node_of_[r]; }
  const std::vector<Rank>& ranks_on(NodeId n) const { return ranks_on_[n]; }
  bool occupied(NodeId n) const { return !ranks_on_[n].empty(); }
  // The lowest rank on a node, or -1: the rank that acts for the node in a plan file's jobs.
  Rank leader(NodeId n) const { return occupied(n) ? ranks_on_[n].front() : -1; }

 private:
  std::vector<NodeId> node_of_;
  std::vector<std::vector<Rank>> ranks_on_;
};

// Bytes moving from one rank to another. `offset` places them inside the message between the
// two ranks (non-zero only when a plan file has several jobs for one pair of nodes).
struct RankJob {
  Rank src = 0;
  Rank dst = 0;
  Bytes bytes = 0;
  Bytes offset = 0;
};

// One stream of a job's bytes along one path: the ranks that handle it, in order. The first
// sends from the application's buffer, the last receives into it, the ones between copy the
// bytes through their forwarding slots.
struct Flow {
  std::size_t job = 0;
  Bytes offset = 0;  // inside the src->dst message
  Bytes bytes = 0;
  std::vector<Rank> hops;  // one rank when src == dst
  bool off_plan = false;   // a turning point has no rank: the tail follows the default route
};

// Where a path must be copied so that every stretch between copies is the network's own
// default route: indices into path_nodes(src, path), excluding the two ends, at the junctions
// of its fewest legs (include/optiq/core/legs.hpp). Only the node sequence is compared (software
// cannot pick between two links to the same neighbour). Copies go only to occupied nodes; when
// no chain of legs joined at occupied nodes reaches the end, *off_plan is set, the points
// cover the longest such chain from the start, and the rest goes straight to the destination
// on the default route.
class Legs;
std::vector<std::size_t> forwarding_points(const Legs& legs, NodeId src, const LinkPath& path,
                                           const RankMap& placement, bool* off_plan);

// Flows for every job. `plan` must have one JobPlan per job, in the same order, with node
// endpoints placement.node_of(src/dst). Jobs missing from the plan (planned[i] == false) go
// directly from source to destination.
std::vector<Flow> make_flows(const Network& topo, const RoutingModel& routing, const RankMap& placement,
                             const std::vector<RankJob>& jobs, const Plan& plan, const std::vector<bool>& planned);

// Node aggregation: every job from a rank on node A to a rank on node B joins one transfer of
// the pair, planned as one node-to-node job. The pair's stream is its jobs' bytes back to back
// (in the order of `members`); each path share of the plan carries a stretch of that stream,
// gathered at one rank of A, forwarded along the path and scattered from one rank of B, so
// every hop is a chunk-sized copy and no rank holds more than its forwarding slots.
struct NodePair {
  NodeId src = 0, dst = 0;
  Bytes bytes = 0;
  std::vector<std::size_t> members;  // indices into the rank jobs, ascending
};

// The pairs of nodes between which `jobs` move bytes (rank jobs inside one node are left out),
// ordered by (src, dst).
std::vector<NodePair> node_pairs(const RankMap& placement, const std::vector<RankJob>& jobs);

// The rank that gathers a pair's bytes at its source node: the one that sends the most of
// them itself, so the fewest bytes are copied inside the node; among equals, the first from
// the (dst mod n)-th rank on, so that a node's pairs spread over its ranks when its ranks send
// alike. The scattering rank at the destination node likewise: the one that receives the most.
Rank gathering_rank(const RankMap& placement, const NodePair& pair, const std::vector<RankJob>& jobs);
Rank scattering_rank(const RankMap& placement, const NodePair& pair, const std::vector<RankJob>& jobs);

// Flows of the pair's jobs under `plan` (its node-to-node job, bytes == pair.bytes).
void append_pair_flows(const Network& topo, const Legs& legs, const RankMap& placement,
                       const std::vector<RankJob>& jobs, const NodePair& pair, const JobPlan& plan,
                       std::vector<Flow>* flows);

// Scheduling knobs that shape chunks and slots.
struct ScheduleOptions {
  Bytes chunk = 0;                   // 0: automatic (see choose_chunks)
  Bytes budget = static_cast<Bytes>(option_default("runtime", "forward-budget"));  // forwarding slot memory per rank
  int max_tag = 32767;               // the communicator's MPI_TAG_UB
};

constexpr Bytes kMaxMessage = Bytes(1) << 30;  // largest single MPI message the runtime sends
constexpr int kDataTagBase = 16;               // tags below are the runtime's control messages

// --- Per-rank schedule -------------------------------------------------------------------
// A chunk arriving at a rank has a class: 0 at its destination, h at its h-th forwarder. A
// rank lends its forwarding slots per stream (upstream rank, class); a chunk of class h only
// ever waits for a slot of class h+1, so buffers cannot deadlock.

struct SendFlow {  // a flow this rank starts
  Rank next = 0;
  std::int32_t tag = 0;
  std::int32_t next_class = 0;  // class at `next`
  Rank dst = 0;                 // final destination: where the bytes sit in the send buffer
  Bytes offset = 0;             // inside the message to dst
  Bytes bytes = 0;
  Bytes chunk = 0;
};

struct ForwardEntry {  // a flow this rank copies onward
  Rank upstream = 0;
  std::int32_t tag_in = 0;
  std::int32_t in_class = 0;  // >= 1
  Rank next = 0;
  std::int32_t tag_out = 0;
  std::int32_t next_class = 0;
  Bytes bytes = 0;
  Bytes chunk = 0;
};

struct RecvFlow {  // a flow ending at this rank
  Rank upstream = 0;
  std::int32_t tag = 0;
  Rank src = 0;   // where the bytes go in the receive buffer
  Bytes offset = 0;
  Bytes bytes = 0;
  Bytes chunk = 0;
};

struct SelfCopy {  // bytes a rank sends to itself
  Bytes offset = 0;
  Bytes bytes = 0;
};

// Slots a forwarder lends to one upstream stream: `initial` credits for slots first_slot ..
// first_slot+initial-1, and `chunks` chunks in total (so the exact number of credits that will
// come back is chunks - initial).
struct Stream {
  Rank peer = 0;  // the upstream rank (at the forwarder) or the forwarder (at the sender)
  std::int32_t cls = 0;
  std::uint64_t chunks = 0;
  std::uint32_t first_slot = 0;
  std::uint32_t initial = 0;
  Bytes slot_bytes = 0;  // the forwarder's slot size (puts address slot * slot_bytes)
};

struct PeerBytes {
  Rank peer = 0;
  Bytes bytes = 0;
};

struct RankSchedule {
  Rank rank = 0;
  int num_ranks = 0;
  Bytes slot_bytes = 0;      // this rank's forwarding slot size (0: it forwards nothing)
  std::uint32_t num_slots = 0;
  std::vector<SendFlow> sends;
  std::vector<ForwardEntry> forwards;
  std::vector<RecvFlow> recvs;
  std::vector<SelfCopy> self;
  std::vector<Stream> in_streams;   // slots this rank lends (it is the forwarder)
  std::vector<Stream> out_streams;  // slots lent to this rank by its next hops
  std::vector<PeerBytes> send_bytes;  // per destination, ascending
  std::vector<PeerBytes> recv_bytes;  // per source, ascending
  Bytes off_plan_bytes = 0;  // of the flows this rank starts
  // The time the whole operation's plan promises (its fluid prediction), the same on every
  // rank; the engine paces this rank's own chunks to it. 0: nothing forwards, or unknown.
  double planned_seconds = 0;
  // The whole operation's time in the planner's model (planned paths and direct jobs alike),
  // the same on every rank; 0 when nothing crosses the network.
  double predicted_seconds = 0;
  // Pairs of nodes whose rank jobs moved as one planned transfer (node aggregation), the same
  // on every rank; 0: each rank job was planned on its own.
  std::uint64_t aggregated_pairs = 0;
  // The plan's shape, the same on every rank: jobs planned (rank pairs, or pairs of nodes under
  // aggregation), the paths that carry bytes, and the most paths of one job.
  std::uint64_t planned_jobs = 0, planned_paths = 0, most_paths = 0;
};

// Chunk size per flow. Explicit: the same for every flow. Automatic: when no flow forwards,
// each goes whole (up to kMaxMessage); otherwise all share one size, an eighth of the largest
// forwarded flow within 4-32 KiB, that leaves room for two slots per stream within the budget. Throws optiq::Error when the budget cannot hold one slot
// per stream at some rank.
std::vector<Bytes> choose_chunks(const std::vector<Flow>& flows, int num_ranks, const ScheduleOptions& options);

// Every rank's schedule. Throws optiq::Error when the budget is too small or tags run out.
std::vector<RankSchedule> build_schedules(const std::vector<RankJob>& jobs, const std::vector<Flow>& flows,
                                          int num_ranks, const ScheduleOptions& options);

std::string serialize(const RankSchedule& schedule);
RankSchedule deserialize_schedule(const std::string& bytes);  // throws optiq::Error when malformed

}  // namespace optiq
