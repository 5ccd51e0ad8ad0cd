#include "optiq/core/graph/max_flow.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include "optiq/core/error.hpp"

namespace optiq::graph {

namespace {

// Residuals below this fraction of the largest capacity count as zero: a saturated arc whose
// residual rounding left at 1e-17 would otherwise open a phase per crumb.
constexpr double kRelativeTolerance = 1e-12;

void check_capacity(double capacity) {
  if (!(capacity >= 0) || !std::isfinite(capacity))
    throw Error("a flow capacity must be finite and at least 0, got " + std::to_string(capacity));
}

}  // namespace

MaxFlow::MaxFlow(int vertices) : out_(static_cast<std::size_t>(std::max(vertices, 0))) {
  OPTIQ_CHECK(vertices >= 0, "a flow network has at least 0 vertices");
}

int MaxFlow::add_arc(int tail, int head, double capacity) {
  OPTIQ_CHECK(tail >= 0 && tail < vertices() && head >= 0 && head < vertices(), "an arc joins two vertices of the network");
  check_capacity(capacity);
  const int arc = arcs();
  head_.push_back(head);
  head_.push_back(tail);
  residual_.push_back(capacity);
  residual_.push_back(0);
  capacity_.push_back(capacity);
  out_[tail].push_back(2 * arc);
  out_[head].push_back(2 * arc + 1);
  return arc;
}

void MaxFlow::set_capacity(int arc, double capacity) {
  check_capacity(capacity);
  capacity_[arc] = capacity;
}

double MaxFlow::flow(int arc) const { return std::clamp(residual_[2 * arc + 1], 0.0, capacity_[arc]); }

bool MaxFlow::build_levels(int source, int sink) {
  level_.assign(out_.size(), -1);
  std::vector<int> queue = {source};
  level_[source] = 0;
  for (std::size_t i = 0; i < queue.size(); ++i) {
    const int v = queue[i];
    for (int h : out_[v])
      if (open(h) && level_[head_[h]] < 0) {
        level_[head_[h]] = level_[v] + 1;
        queue.push_back(head_[h]);
      }
  }
  return level_[sink] >= 0;
}

// Augments along level-increasing paths until none is left. Iterative, because late phases
// of a long network can have paths as long as the network has vertices.
double MaxFlow::blocking_flow(int source, int sink) {
  current_.assign(out_.size(), 0);
  double total = 0;
  std::vector<int> path;  // halves from the source
  int v = source;
  while (true) {
    if (v == sink) {
      double bottleneck = residual_[path.front()];
      for (int h : path) bottleneck = std::min(bottleneck, residual_[h]);
      for (int h : path) {
        residual_[h] -= bottleneck;
        residual_[h ^ 1] += bottleneck;
      }
      total += bottleneck;
      path.clear();
      v = source;
      continue;
    }
    auto& at = current_[v];
    while (at < out_[v].size() && !(open(out_[v][at]) && level_[head_[out_[v][at]]] == level_[v] + 1)) ++at;
    if (at < out_[v].size()) {
      path.push_back(out_[v][at]);
      v = head_[out_[v][at]];
      continue;
    }
    // A dead end: nothing more passes v in this phase.
    if (v == source) return total;
    level_[v] = -1;
    v = head_[path.back() ^ 1];
    path.pop_back();
  }
}

double MaxFlow::solve(int source, int sink) {
  OPTIQ_CHECK(source >= 0 && source < vertices() && sink >= 0 && sink < vertices() && source != sink,
              "a flow runs between two distinct vertices of the network");
  double widest = 0;
  for (int a = 0; a < arcs(); ++a) {
    residual_[2 * a] = capacity_[a];
    residual_[2 * a + 1] = 0;
    widest = std::max(widest, capacity_[a]);
  }
  tolerance_ = kRelativeTolerance * widest;
  double total = 0;
  while (build_levels(source, sink)) total += blocking_flow(source, sink);
  return total;
}

}  // namespace optiq::graph
