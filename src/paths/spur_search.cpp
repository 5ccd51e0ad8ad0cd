#include "paths/spur_search.hpp"

#include <algorithm>

#include "optiq/core/error.hpp"

namespace optiq::detail {

SpurSearch::SpurSearch(const Network& net)
    : net_(net),
      torus_(net.torus()),
      part_(net.torus() ? nullptr : net.torus_part()),
      back_(net.graph().reversed()),
      banned_(net.num_vertices(), 0),
      seen_(net.num_vertices(), 0),
      closed_(net.num_vertices(), 0),
      dead_(net.num_vertices(), 0),
      g_(net.num_vertices(), 0) {
  for (NodeId v = 0; v < net.num_vertices(); ++v)
    if (!net.may_forward(v)) has_non_endpoints_ = true;  // switches, I/O vertices, endpoints of other jobs
  if (!torus_) return;  // no distance hint: the search is breadth-first
  const int n = torus_->dims();
  for (int d = 0; d < n; ++d)
    if (torus_->size(d) > 255) throw Error("path search supports dimensions of at most 255 nodes");
  coords_.resize(static_cast<std::size_t>(net.num_vertices()) * n);
  for (NodeId v = 0; v < net.num_vertices(); ++v)
    for (int d = 0; d < n; ++d) coords_[static_cast<std::size_t>(v) * n + d] = static_cast<std::uint8_t>(torus_->coord(v, d));
  ring_.resize(n);
  for (int d = 0; d < n; ++d) {
    const int size = torus_->size(d);
    ring_[d].resize(static_cast<std::size_t>(size) * size);
    for (int a = 0; a < size; ++a)
      for (int b = 0; b < size; ++b) ring_[d][a * size + b] = static_cast<std::uint8_t>(torus_->ring_distance(d, a, b));
  }
}

int SpurSearch::h(NodeId a, NodeId b) const {
  if (!torus_) return part_ ? net_.hop_distance(a, b) : 0;  // beside BG/Q's I/O side: exact too
  const int n = torus_->dims();
  const std::uint8_t* ca = &coords_[static_cast<std::size_t>(a) * n];
  const std::uint8_t* cb = &coords_[static_cast<std::size_t>(b) * n];
  int sum = 0;
  for (int d = 0; d < n; ++d) sum += ring_[d][ca[d] * torus_->size(d) + cb[d]];
  return sum;
}

bool SpurSearch::descend(NodeId from, NodeId x, NodeId to, LinkPath& out) {
  if (x == to) return true;
  const int here = h(x, to);
  const graph::Csr& g = net_.graph();
  for (int i = g.out_begin(x); i < g.out_end(x); ++i) {  // links of x in ascending id order
    const LinkId l = g.arc_at(i);
    const NodeId y = g.head_at(i);
    if (dead_[y] == epoch_ || banned_[y] == epoch_ || h(y, to) != here - 1 || !may_pass(y, to)) continue;
    if (x == from && first_link_banned(l)) continue;
    out.push_back(l);
    if (descend(from, y, to, out)) return true;
    out.pop_back();
  }
  dead_[x] = epoch_;
  return false;
}

bool SpurSearch::first_link_banned(LinkId link) const {
  return std::find(banned_links_.begin(), banned_links_.end(), link) != banned_links_.end();
}

bool SpurSearch::find(NodeId from, NodeId to, int budget, LinkPath& out) {
  ++epoch_;
  out.clear();
  struct ClearBans {
    SpurSearch* s;
    ~ClearBans() { s->banned_links_.clear(); }
  } clear_bans{this};

  if (banned_[from] == epoch_ || banned_[to] == epoch_ || budget < 0) return false;
  if (from == to) return true;
  if (h(from, to) > budget) return false;
  // The greedy walk needs exact distances to the target, which only a torus (whole or beside
  // BG/Q's I/O side) gives.
  if ((torus_ || part_) && descend(from, from, to, out)) return true;
  out.clear();
  return astar(from, to, budget, out);
}

bool SpurSearch::astar(NodeId from, NodeId to, int budget, LinkPath& out) {
  if (static_cast<int>(buckets_.size()) <= budget) buckets_.resize(budget + 1);

  // Backward search from `to`: g is the exact distance to `to` once a node is closed, and
  // h(v) = unconstrained distance from `from` keeps it admissible and consistent.
  auto h = [&](NodeId v) { return this->h(from, v); };
  g_[to] = 0;
  seen_[to] = epoch_;
  int best = -1;
  const int f0 = h(to);
  if (f0 <= budget) buckets_[f0].push_back(to);
  for (int f = f0; f <= budget; ++f) {
    auto& bucket = buckets_[f];
    while (!bucket.empty()) {
      const NodeId v = bucket.back();
      bucket.pop_back();
      if (closed_[v] == epoch_ || g_[v] + h(v) != f) continue;  // closed already, or a stale entry
      closed_[v] = epoch_;
      if (v == from) best = g_[v];
      const int ng = g_[v] + 1;
      for (int i = back_.out_begin(v); i < back_.out_end(v); ++i) {  // links w -> v
        const NodeId w = back_.head_at(i);
        if (banned_[w] == epoch_ || closed_[w] == epoch_ || !may_pass(w, from)) continue;
        if (w == from && first_link_banned(back_.arc_at(i))) continue;
        if (seen_[w] == epoch_ && g_[w] <= ng) continue;
        g_[w] = ng;
        seen_[w] = epoch_;
        const int nf = ng + h(w);
        if (nf <= budget) buckets_[nf].push_back(w);
      }
    }
    if (best >= 0) {  // every node with f <= best is now closed: the shortest-path DAG is known
      for (int rest = f + 1; rest <= budget; ++rest) buckets_[rest].clear();
      break;
    }
  }
  if (best < 0) return false;

  // Walk forward taking the smallest link id that stays on a shortest path.
  NodeId x = from;
  for (int r = best; r > 0; --r) {
    LinkId chosen = -1;
    const graph::Csr& g = net_.graph();
    for (int i = g.out_begin(x); i < g.out_end(x); ++i) {
      const LinkId l = g.arc_at(i);
      const NodeId y = g.head_at(i);
      if (banned_[y] == epoch_ || (x == from && first_link_banned(l)) || !may_pass(y, to)) continue;
      if (closed_at(y, r - 1)) {
        chosen = l;
        break;
      }
    }
    if (chosen < 0) throw InternalError("spur search lost its shortest-path DAG");
    out.push_back(chosen);
    x = net_.link_dst(chosen);
  }
  return true;
}

}  // namespace optiq::detail
