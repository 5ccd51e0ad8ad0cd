// Dijkstra (unbounded) or hop-layered Bellman-Ford (hop-bounded) from every source.
#include "optiq/core/cheapest.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>

#include "paths/by_source.hpp"
#include "paths/chains.hpp"
#include "optiq/core/error.hpp"
#include "optiq/core/legs.hpp"
#include "optiq/core/graph/dijkstra.hpp"
#include "optiq/core/graph/parallel.hpp"

namespace optiq {

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

struct Cost {  // compared by weight, then hops
  double w;
  int h;
  bool operator<(const Cost& o) const { return w != o.w ? w < o.w : h < o.h; }
};

class SourceSearch {
 public:
  SourceSearch(const Network& net, const std::vector<double>& lw, const std::vector<double>& nw)
      : net_(net), g_(net.graph()), lw_(lw), nw_(nw), search_(g_.vertices()), wanted_(g_.vertices(), 0) {}

  // Fills cost/path for the targets of one source.
  void run(NodeId src, const std::vector<NodeId>& targets, int hop_bound, std::vector<double>& cost,
           std::vector<LinkPath>& paths) {
    if (hop_bound < 0) dijkstra(src, targets, cost, paths);
    else layered(src, targets, hop_bound, cost, paths);
  }

 private:
  // Only endpoints forward: an I/O vertex may end a path but not lie inside one.
  bool may_leave(NodeId src, NodeId v) const { return v == src || net_.may_forward(v); }
  double leave_cost(NodeId src, NodeId v, LinkId l) const {
    return lw_[l] + (nw_.empty() || v == src ? 0.0 : nw_[v]);
  }

  void dijkstra(NodeId src, const std::vector<NodeId>& targets, std::vector<double>& cost,
                std::vector<LinkPath>& paths) {
    std::size_t remaining = 0;
    for (NodeId t : targets) remaining += !wanted_[t], wanted_[t] = 1;
    search_.start();
    search_.seed(src, Cost{0.0, 0});
    for (NodeId v; remaining > 0 && (v = search_.settle_next()) >= 0;) {
      if (wanted_[v]) --remaining;
      if (!may_leave(src, v)) continue;
      const Cost c = search_.key(v);
      for (int i = g_.out_begin(v); i < g_.out_end(v); ++i) {
        const LinkId l = g_.arc_at(i);
        search_.offer(g_.head_at(i), Cost{c.w + leave_cost(src, v, l), c.h + 1}, l);
      }
    }
    for (NodeId t : targets) {
      const bool found = search_.settled(t);
      cost.push_back(found ? search_.key(t).w : kInf);
      paths.emplace_back();
      if (found) search_.path_to(t, g_, paths.back());
    }
    for (NodeId t : targets) wanted_[t] = 0;
  }

  void layered(NodeId src, const std::vector<NodeId>& targets, int bound, std::vector<double>& cost,
               std::vector<LinkPath>& paths) {
    const int n = g_.vertices();
    // w[h][v]: cheapest walk of exactly h hops (or fewer, carried forward) ending at v.
    layer_w_.assign(static_cast<std::size_t>(bound + 1) * n, kInf);
    layer_via_.assign(static_cast<std::size_t>(bound + 1) * n, -1);
    layer_w_[src] = 0.0;
    for (int h = 1; h <= bound; ++h) {
      double* cur = &layer_w_[static_cast<std::size_t>(h) * n];
      const double* prev = &layer_w_[static_cast<std::size_t>(h - 1) * n];
      LinkId* via = &layer_via_[static_cast<std::size_t>(h) * n];
      for (NodeId v = 0; v < n; ++v) {
        if (prev[v] == kInf || !may_leave(src, v)) continue;
        for (int i = g_.out_begin(v); i < g_.out_end(v); ++i) {
          const LinkId l = g_.arc_at(i);
          const NodeId w = g_.head_at(i);
          const double c = prev[v] + leave_cost(src, v, l);
          if (c < cur[w]) cur[w] = c, via[w] = l;
        }
      }
    }
    for (NodeId t : targets) {
      double best = kInf;
      int hops = -1;
      for (int h = 0; h <= bound; ++h) {  // fewest hops among the cheapest
        const double c = layer_w_[static_cast<std::size_t>(h) * n + t];
        if (c < best) best = c, hops = h;
      }
      cost.push_back(best);
      paths.emplace_back();
      if (hops < 0) continue;
      NodeId v = t;
      for (int h = hops; h > 0; --h) {
        const LinkId l = layer_via_[static_cast<std::size_t>(h) * n + v];
        paths.back().push_back(l);
        v = g_.tail(l);
      }
      OPTIQ_CHECK(v == src, "layered search lost its path");
      std::reverse(paths.back().begin(), paths.back().end());
    }
  }

  const Network& net_;
  const graph::Csr& g_;
  const std::vector<double>& lw_;
  const std::vector<double>& nw_;
  graph::Dijkstra<Cost> search_;
  std::vector<char> wanted_;
  std::vector<double> layer_w_;
  std::vector<LinkId> layer_via_;
};

}  // namespace

CheapestPaths cheapest_paths(const Legs& legs, const std::vector<Job>& jobs, const std::vector<double>& link_weight,
                             const std::vector<double>& node_weight, int hop_bound, int max_proxies,
                             std::size_t settle_limit) {
  const Network& topo = legs.network();
  if (max_proxies >= 0 && legs.direct())
    throw InternalError("a bound on proxies needs the legs' overlay (Legs(..., overlay = true))");
  if (static_cast<int>(link_weight.size()) != topo.num_links())
    throw Error("link weights: expected " + std::to_string(topo.num_links()) + " entries, got " +
                std::to_string(link_weight.size()));
  if (!node_weight.empty() && static_cast<int>(node_weight.size()) != topo.num_vertices())
    throw Error("node weights: expected " + std::to_string(topo.num_vertices()) + " entries, got " +
                std::to_string(node_weight.size()));
  for (double w : link_weight)
    if (!(w >= 0) || std::isinf(w)) throw Error("link weights must be finite and non-negative");
  for (double w : node_weight)
    if (!(w >= 0) || std::isinf(w)) throw Error("node weights must be finite and non-negative");
  std::map<NodeId, std::vector<std::size_t>> by_source;
  for (std::size_t i = 0; i < jobs.size(); ++i) {
    if (!topo.contains(jobs[i].src) || !topo.contains(jobs[i].dst))
      throw Error("job " + std::to_string(i) + ": node outside the topology");
    by_source[jobs[i].src].push_back(i);
  }
  if (!legs.direct())
    return detail::cheapest_chains(legs, jobs, link_weight, node_weight, hop_bound, max_proxies, settle_limit);
  const detail::SourceGroups groups(by_source.begin(), by_source.end());

  CheapestPaths out;
  out.cost.assign(jobs.size(), kInf);
  out.paths.assign(jobs.size(), {});
  detail::search_by_source<SourceSearch, double>(
      groups, jobs, [&] { return SourceSearch(topo, link_weight, node_weight); },
      [&](SourceSearch& search, NodeId src, const std::vector<std::size_t>&, const std::vector<NodeId>& targets,
          std::vector<double>& cost, std::vector<LinkPath>& paths) { search.run(src, targets, hop_bound, cost, paths); },
      [&](std::size_t job, double cost, LinkPath&& path) {
        out.cost[job] = cost;
        out.paths[job] = std::move(path);
      });
  return out;
}

}  // namespace optiq
