#include "optiq/core/legs.hpp"

#include <limits>
#include <string>

#include "optiq/core/error.hpp"
#include "optiq/core/graph/parallel.hpp"
#include "optiq/core/paths.hpp"

namespace optiq {

bool links_are_legs(const Network& net, const RoutingModel& routing) {
  for (NodeId v = 0; v < net.num_vertices(); ++v)
    if (net.kind(v) == VertexKind::Switch) return false;
  // Dimension-ordered minimal routes between neighbours are the link between them (in a size-2
  // ring the + link both ways: the same two vertices), which spares half a million routes on Mira.
  const std::string name = routing.name();
  if (net.torus() && (name == "bgq" || name == "dor" || name == "simgrid")) return true;
  for (LinkId l = 0; l < net.num_links(); ++l) {
    const NodeId a = net.link_src(l), b = net.link_dst(l);
    try {
      const LinkPath r = routing.route(a, b);
      if (r.size() != 1 || net.link_dst(r[0]) != b) return false;
    } catch (const Error&) {
      return false;  // no route between two neighbours: the link serves other routes only
    }
  }
  return true;
}

Legs::Legs(const Network& net, const RoutingModel& routing, bool overlay) : net_(net), routing_(routing) {
  // Where only some endpoints forward, a route still passes the others in hardware, which a
  // chain of one-link legs cannot say: such a network is searched on the overlay, whatever it is.
  direct_ = !overlay && !net.forwarding_restricted() && links_are_legs(net, routing);
  if (direct_) return;
  const int n = net_.num_vertices();
  terminal_of_.assign(n, -1);
  for (NodeId v = 0; v < n; ++v)
    if (net_.is_terminal(v)) terminal_of_[v] = static_cast<int>(terminals_.size()), terminals_.push_back(v);
  formula_ = routing_.next_link_is_formula();
  if (!formula_) build_tables();
}

int Legs::walk_hops(int t, NodeId at) const {
  const NodeId dst = terminals_[t];
  int h = 0;
  for (LinkId l; at != dst && (l = routing_.next_link(at, dst)) >= 0; at = net_.link_dst(l))
    OPTIQ_CHECK(++h <= net_.num_vertices(), "a formula route loops");
  return at == dst ? h : 0;
}

void Legs::build_tables() {
  const int n = net_.num_vertices();
  const long long entries = static_cast<long long>(terminals_.size()) * n;
  if (entries > kMaxTableEntries) {
    // A routing that cannot give tables at all says so first (it names the routing to use).
    if (!terminals_.empty()) routing_.next_links(terminals_.front());
    throw Error("network '" + net_.spec() + "' has switches, and routing '" + routing_.name() +
                "' has no formula for its next links, so its realizable paths come from one next-link table " +
                "per endpoint: " + std::to_string(terminals_.size()) + " endpoints x " + std::to_string(n) +
                " vertices exceeds the limit of " + std::to_string(kMaxTableEntries) + " entries");
  }
  next_.assign(static_cast<std::size_t>(entries), -1);
  hops_.assign(static_cast<std::size_t>(entries), 0);
  graph::parallel_for(
      terminals_.size(), 16, [](bool) { return std::vector<NodeId>(); },
      [&](std::vector<NodeId>& walk, std::size_t t) {
        const NodeId dst = terminals_[t];
        const std::vector<LinkId> next = routing_.next_links(dst);
        LinkId* row = &next_[index(static_cast<int>(t), 0)];
        std::uint16_t* hops = &hops_[index(static_cast<int>(t), 0)];
        std::copy(next.begin(), next.end(), row);
        // Hops by walking each route until a vertex whose count is known; a walk longer than
        // the network has vertices is a loop in the routing.
        for (NodeId v = 0; v < n; ++v) {
          if (v == dst || row[v] < 0 || hops[v] > 0) continue;
          walk.clear();
          NodeId at = v;
          while (at != dst && row[at] >= 0 && hops[at] == 0) {
            if (static_cast<int>(walk.size()) >= n)
              throw Error("routing '" + routing_.name() + "': the route from vertex " + std::to_string(v) +
                          " to vertex " + std::to_string(dst) + " loops");
            walk.push_back(at);
            at = net_.link_dst(row[at]);
          }
          if (at != dst && hops[at] == 0) {  // the route breaks off: no route from these vertices
            for (NodeId w : walk) row[w] = -1;
            continue;
          }
          int h = hops[at];
          for (auto it = walk.rbegin(); it != walk.rend(); ++it) {
            if (++h > std::numeric_limits<std::uint16_t>::max())
              throw Error("routing '" + routing_.name() + "': a route longer than 65535 links");
            hops[*it] = static_cast<std::uint16_t>(h);
          }
        }
      });
}

void Legs::append_leg(NodeId from, NodeId to, LinkPath& out) const {
  const int t = terminal_of_[to];
  OPTIQ_CHECK(t >= 0 && (from == to || next(t, from) >= 0), "a leg ends at a terminal its start has a route to");
  for (NodeId at = from; at != to; at = net_.link_dst(out.back())) out.push_back(next(t, at));
}

namespace {

// Does the default route from nodes[i] to nodes[j] take exactly the path's stretch i..j? Where
// every link is a leg only the vertices are compared: two links joining the same two vertices
// (a ring of two, as BG/Q's E dimension) count as one choice the network makes. Elsewhere the
// links themselves: a parallel cable the route does not take carries nothing of it.
bool follows(const Legs& legs, const std::vector<NodeId>& nodes, const LinkPath& links, std::size_t i, std::size_t j) {
  const Network& net = legs.network();
  if (legs.direct()) {
    const LinkPath r = legs.routing().route(nodes[i], nodes[j]);
    if (r.size() != j - i) return false;
    for (std::size_t k = 0; k < r.size(); ++k)
      if (net.link_dst(r[k]) != nodes[i + k + 1]) return false;
    return true;
  }
  const int t = legs.terminal_index(nodes[j]);
  if (t < 0 || legs.hops(t, nodes[i]) != static_cast<int>(j - i)) return false;
  for (std::size_t k = i; k < j; ++k)
    if (legs.next(t, nodes[k]) != links[k]) return false;
  return true;
}

// Where every link is a leg the default routes are dimension-ordered or shortest: a route
// follows a path up to some point and not after, and never beyond the path's shortest
// stretch. So from each junction a bisection finds how far the route follows, and the leg
// ends at the farthest node up to there that may copy (each candidate checked again, so a
// routing without that property only costs extra copies). Time: the path's length times the
// network's diameter, not its square: plan files may hold simple paths of 10^5 hops.
bool direct_junctions(const Legs& legs, const std::vector<NodeId>& nodes, const LinkPath& links,
                      const std::function<bool(NodeId)>& may_copy,
                      std::vector<std::size_t>& junctions, std::size_t* stuck) {
  const Network& net = legs.network();
  const std::size_t h = nodes.size() - 1;
  std::size_t i = 0;
  while (i < h) {
    std::size_t hi = i + 1;
    while (hi + 1 <= h && net.hop_distance(nodes[i], nodes[hi + 1]) == static_cast<int>(hi + 1 - i)) ++hi;
    std::size_t lo = i + 1;
    while (lo < hi) {
      const std::size_t mid = lo + (hi - lo + 1) / 2;
      if (follows(legs, nodes, links, i, mid)) lo = mid;
      else hi = mid - 1;
    }
    std::size_t reach = 0;
    for (std::size_t j = lo; j > i; --j) {
      if (j < h && !may_copy(nodes[j])) continue;
      if (j == i + 1 || follows(legs, nodes, links, i, j)) {
        reach = j;
        break;
      }
    }
    if (reach == 0) {
      if (stuck) *stuck = i;
      return false;
    }
    if (reach < h) junctions.push_back(reach);
    i = reach;
  }
  return true;
}

// Elsewhere legs have arbitrary lengths (known from the tables): fewest legs by dynamic
// programming over the path's positions, ties to the farther junction.
bool overlay_junctions(const Legs& legs, const std::vector<NodeId>& nodes, const LinkPath& links,
                       const std::function<bool(NodeId)>& may_copy,
                       std::vector<std::size_t>& junctions, std::size_t* stuck) {
  const std::size_t h = nodes.size() - 1;
  auto can_end = [&](std::size_t j) { return j == h || may_copy(nodes[j]); };
  constexpr int kNone = std::numeric_limits<int>::max();
  std::vector<int> legs_from(h + 1, kNone);  // fewest legs from a position to the end
  std::vector<std::size_t> choice(h + 1, h);
  legs_from[h] = 0;
  for (std::size_t i = h; i-- > 0;) {
    if (i > 0 && !may_copy(nodes[i])) continue;
    for (std::size_t j = i + 1; j <= h; ++j)
      if (can_end(j) && legs_from[j] != kNone && legs_from[j] + 1 <= legs_from[i] && follows(legs, nodes, links, i, j))
        legs_from[i] = legs_from[j] + 1, choice[i] = j;
  }
  if (legs_from[0] != kNone) {
    for (std::size_t i = choice[0]; i < h; i = choice[i]) junctions.push_back(i);
    return true;
  }
  // No chain reaches the end: the longest greedy chain from the start, for callers that
  // finish off plan.
  std::size_t i = 0;
  for (;;) {
    std::size_t reach = 0;
    for (std::size_t j = i + 1; j < h; ++j)
      if (may_copy(nodes[j]) && follows(legs, nodes, links, i, j)) reach = j;
    if (reach == 0) break;
    junctions.push_back(reach);
    i = reach;
  }
  if (stuck) *stuck = i;
  return false;
}

}  // namespace

bool leg_junctions(const Legs& legs, NodeId src, const LinkPath& path, const std::function<bool(NodeId)>& may_copy,
                   std::vector<std::size_t>& junctions, std::size_t* stuck) {
  junctions.clear();
  if (stuck) *stuck = 0;
  if (path.empty()) return true;
  const std::vector<NodeId> nodes = path_nodes(legs.network(), src, path);
  return legs.direct() ? direct_junctions(legs, nodes, path, may_copy, junctions, stuck)
                       : overlay_junctions(legs, nodes, path, may_copy, junctions, stuck);
}

}  // namespace optiq
