#include "planner/sink_flow.hpp"

#include <algorithm>
#include <cmath>

#include "optiq/core/error.hpp"
#include "optiq/core/graph/max_flow.hpp"

namespace optiq::detail {

namespace {

// A flow within this fraction of the demand counts as carrying all of it: the parametric
// search converges onto the bottleneck cut from below, and the last crumb is rounding.
constexpr double kFeasible = 1e-9;
// Rounds of the parametric search. Each round's cut is one the next T satisfies, so rounds
// are few (3.6 on average and at most 8 per destination on Mira 1024's 1:8 patterns, 5.2 and
// 13 at 4096); the cap only guards against rounding loops.
constexpr int kMaxRounds = 100;
// Flow below this fraction of the demand is left out of the paths (rounding residue).
constexpr double kCrumb = 1e-9;

// Which links a path into `sink` may use: only endpoints forward, so a link may enter an I/O
// vertex or a switch only if that is the sink, and nothing leaves the sink. Links leaving an
// I/O vertex stay usable: none enters it, so they carry only its own bytes when it is a source.
struct Usable {
  const Network& net;
  NodeId sink;
  bool operator()(LinkId l) const {
    const NodeId from = net.link_src(l), to = net.link_dst(l);
    if (from == sink || net.kind(from) == VertexKind::Switch) return false;
    return to == sink || net.may_forward(to);
  }
};

// The smallest T at which `links` can take `demand` bytes between them, link l taking
// capacity_l * T - load_l once that is positive. Infinite when there are no links.
double horizon(const Network& net, const std::vector<double>& load, std::vector<LinkId> links, double demand) {
  auto opens = [&](LinkId l) { return std::max(0.0, load[l]) / net.capacity(l); };
  std::sort(links.begin(), links.end(), [&](LinkId a, LinkId b) { return opens(a) != opens(b) ? opens(a) < opens(b) : a < b; });
  double rate = 0, taken = 0;  // capacities and loads of the links open so far
  for (std::size_t i = 0; i < links.size(); ++i) {
    rate += net.capacity(links[i]);
    taken += std::max(0.0, load[links[i]]);
    const double t = (demand + taken) / rate;
    if (i + 1 == links.size() || t <= opens(links[i + 1])) return t;
  }
  return INFINITY;
}

// Vertices from which the sink is reachable over usable links.
std::vector<char> reaching(const Network& net, NodeId sink, const Usable& usable) {
  const graph::Csr into = net.graph().reversed();
  std::vector<char> seen(net.num_vertices(), 0);
  std::vector<NodeId> queue = {sink};
  seen[sink] = 1;
  for (std::size_t i = 0; i < queue.size(); ++i)
    for (int k = into.out_begin(queue[i]); k < into.out_end(queue[i]); ++k) {
      const LinkId l = into.arc_at(k);
      const NodeId from = into.head_at(k);
      if (!seen[from] && usable(l)) seen[from] = 1, queue.push_back(from);
    }
  return seen;
}

// Cuts the flow into simple paths per source: walks from the source along the heaviest
// remaining arc (ties: the lower link id), cancelling any cycle the walk closes.
std::vector<std::vector<FlowPath>> decompose(const Network& net, NodeId sink, const std::vector<SourceDemand>& sources,
                                             const std::vector<double>& supply, std::vector<double> remaining,
                                             double crumb) {
  const graph::Csr& out = net.graph();
  std::vector<std::vector<FlowPath>> paths(sources.size());
  std::vector<int> position(net.num_vertices(), -1);  // index of a vertex on the current walk
  for (std::size_t i = 0; i < sources.size(); ++i) {
    double left = supply[i];
    while (left > crumb) {
      LinkPath walk;
      std::vector<NodeId> visited = {sources[i].node};
      position[sources[i].node] = 0;
      NodeId v = sources[i].node;
      while (v != sink) {
        LinkId next = -1;
        for (int k = out.out_begin(v); k < out.out_end(v); ++k) {
          const LinkId l = out.arc_at(k);
          if (remaining[l] > crumb && (next < 0 || remaining[l] > remaining[next])) next = l;
        }
        if (next < 0) break;  // only rounding residue is left from here
        const NodeId w = net.link_dst(next);
        if (position[w] < 0) {
          walk.push_back(next);
          position[w] = static_cast<int>(visited.size());
          visited.push_back(w);
          v = w;
          continue;
        }
        // A cycle back to w: it carries nothing to the sink, so cancel it and walk on from w.
        const std::size_t from = static_cast<std::size_t>(position[w]);
        double cycle = remaining[next];
        for (std::size_t k = from; k < walk.size(); ++k) cycle = std::min(cycle, remaining[walk[k]]);
        remaining[next] -= cycle;
        for (std::size_t k = from; k < walk.size(); ++k) remaining[walk[k]] -= cycle;
        for (std::size_t k = from + 1; k < visited.size(); ++k) position[visited[k]] = -1;
        walk.resize(from);
        visited.resize(from + 1);
        v = w;
      }
      for (NodeId u : visited) position[u] = -1;
      if (v != sink) break;
      double amount = left;
      for (LinkId l : walk) amount = std::min(amount, remaining[l]);
      for (LinkId l : walk) remaining[l] -= amount;
      left -= amount;
      auto same = std::find_if(paths[i].begin(), paths[i].end(), [&](const FlowPath& p) { return p.links == walk; });
      if (same != paths[i].end())
        same->bytes += amount;
      else
        paths[i].push_back({std::move(walk), amount});
    }
    std::stable_sort(paths[i].begin(), paths[i].end(), [](const FlowPath& a, const FlowPath& b) { return a.bytes > b.bytes; });
  }
  return paths;
}

}  // namespace

SinkFlow soonest_sink_flow(const Network& net, NodeId sink, const std::vector<SourceDemand>& sources,
                           const std::vector<double>& load) {
  OPTIQ_CHECK(static_cast<int>(load.size()) == net.num_links(), "one load per link");
  const Usable usable{net, sink};
  const std::vector<char> reaches = reaching(net, sink, usable);

  // The flow network: the network's usable links, and a super source (vertex V) feeding every
  // source that reaches the sink with that source's bytes.
  const int super = net.num_vertices();
  graph::MaxFlow flow(super + 1);
  std::vector<LinkId> link_of_arc;
  for (LinkId l = 0; l < net.num_links(); ++l)
    if (usable(l) && reaches[net.link_dst(l)]) {
      flow.add_arc(net.link_src(l), net.link_dst(l), 0.0);
      link_of_arc.push_back(l);
    }
  std::vector<int> source_arc(sources.size(), -1);
  double demand = 0;
  for (std::size_t i = 0; i < sources.size(); ++i) {
    OPTIQ_CHECK(sources[i].node != sink && sources[i].bytes > 0, "a source is not its sink and has bytes");
    if (!reaches[sources[i].node]) continue;
    source_arc[i] = flow.add_arc(super, sources[i].node, sources[i].bytes);
    demand += sources[i].bytes;
  }
  SinkFlow result;
  result.paths.resize(sources.size());
  if (demand <= 0) return result;

  // Start from the cheapest cuts to evaluate: into the sink, and out of each source.
  std::vector<std::vector<LinkId>> leaving(net.num_vertices());
  std::vector<LinkId> into_sink;
  for (LinkId l : link_of_arc) {
    leaving[net.link_src(l)].push_back(l);
    if (net.link_dst(l) == sink) into_sink.push_back(l);
  }
  double t = horizon(net, load, into_sink, demand);
  for (std::size_t i = 0; i < sources.size(); ++i)
    if (source_arc[i] >= 0) t = std::max(t, horizon(net, load, leaving[sources[i].node], sources[i].bytes));
  OPTIQ_CHECK(std::isfinite(t), "a source reaching the sink has links to send on");

  for (int round = 0; round < kMaxRounds; ++round) {
    for (std::size_t a = 0; a < link_of_arc.size(); ++a) {
      const LinkId l = link_of_arc[a];
      flow.set_capacity(static_cast<int>(a), std::max(0.0, net.capacity(l) * t - load[l]));
    }
    if (flow.solve(super, sink) >= demand * (1 - kFeasible)) break;
    // The minimum cut separates the sources on its side from the sink: their bytes must cross
    // its links, which no T below that cut's own horizon allows.
    double stuck = 0;
    for (std::size_t i = 0; i < sources.size(); ++i)
      if (source_arc[i] >= 0 && flow.source_side(sources[i].node)) stuck += sources[i].bytes;
    std::vector<LinkId> crossing;
    for (LinkId l : link_of_arc)
      if (flow.source_side(net.link_src(l)) && !flow.source_side(net.link_dst(l))) crossing.push_back(l);
    const double next = horizon(net, load, crossing, stuck);
    if (!(next > t * (1 + kFeasible))) break;  // the cut is already tight: what is missing is rounding
    t = next;
  }
  result.seconds = t;

  std::vector<double> on_link(net.num_links(), 0.0), supply(sources.size(), 0.0);
  for (std::size_t a = 0; a < link_of_arc.size(); ++a) on_link[link_of_arc[a]] = flow.flow(static_cast<int>(a));
  for (std::size_t i = 0; i < sources.size(); ++i)
    if (source_arc[i] >= 0) supply[i] = flow.flow(source_arc[i]);
  result.paths = decompose(net, sink, sources, supply, std::move(on_link), kCrumb * demand);
  return result;
}

}  // namespace optiq::detail
