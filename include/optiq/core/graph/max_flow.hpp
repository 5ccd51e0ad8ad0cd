// Maximum flow on real-valued capacities (Dinic: blocking flows on breadth-first level graphs).
//
// Arcs are added once and keep their ids; capacities may change between solves, which is what
// a parametric search needs (the same network solved for several time horizons). Capacities
// are finite and non-negative; a residual within a relative tolerance of zero counts as full,
// so rounding cannot keep a phase alive on crumbs of capacity.
#pragma once

#include <vector>

namespace optiq::graph {

class MaxFlow {
 public:
  explicit MaxFlow(int vertices);

  int vertices() const { return static_cast<int>(out_.size()); }
  int arcs() const { return static_cast<int>(head_.size() / 2); }
  // Arc ids count from 0 in the order of adding. Self loops are accepted and never carry flow.
  int add_arc(int tail, int head, double capacity);
  void set_capacity(int arc, double capacity);
  double capacity(int arc) const { return capacity_[arc]; }
  int tail(int arc) const { return head_[2 * arc + 1]; }
  int head(int arc) const { return head_[2 * arc]; }

  // The value of a maximum flow from source to sink, replacing any earlier flow.
  double solve(int source, int sink);
  // After solve: the flow on an arc, in [0, capacity].
  double flow(int arc) const;
  // After solve: whether v is reachable from the source by arcs with residual capacity left.
  // Those vertices form the source side of a minimum cut.
  bool source_side(int v) const { return level_[v] >= 0; }

 private:
  bool build_levels(int source, int sink);
  double blocking_flow(int source, int sink);
  bool open(int half) const { return residual_[half] > tolerance_; }

  // Each arc is two halves: 2a forward, 2a + 1 backward; half h's partner is h ^ 1.
  std::vector<int> head_;  // per half
  std::vector<double> residual_;
  std::vector<double> capacity_;  // per arc
  std::vector<std::vector<int>> out_;  // per vertex: the halves leaving it, in the order added
  std::vector<int> level_;
  std::vector<std::size_t> current_;  // per vertex: the next of its halves to try in this phase
  double tolerance_ = 0;
};

}  // namespace optiq::graph
