// Dijkstra (unbounded) or hop-layered Bellman-Ford (hop-bounded) from every source.
#include "optiq/cheapest.hpp"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <limits>
#include <map>
#include <thread>

#include "optiq/error.hpp"

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
  SourceSearch(const Topology& topo, const std::vector<double>& lw, const std::vector<double>& nw,
               const std::vector<NodeId>& next)
      : topo_(topo), lw_(lw), nw_(nw), next_(next), slots_(2 * topo.dims()) {}

  // Fills cost/path for the targets of one source.
  void run(NodeId src, const std::vector<NodeId>& targets, int hop_bound, std::vector<double>& cost,
           std::vector<LinkPath>& paths) {
    if (hop_bound < 0) dijkstra(src, targets, cost, paths);
    else layered(src, targets, hop_bound, cost, paths);
  }

 private:
  double leave_cost(NodeId src, NodeId v, LinkId l) const {
    return lw_[l] + (nw_.empty() || v == src ? 0.0 : nw_[v]);
  }

  void dijkstra(NodeId src, const std::vector<NodeId>& targets, std::vector<double>& cost,
                std::vector<LinkPath>& paths) {
    const int n = topo_.num_nodes();
    best_.assign(n, Cost{kInf, 0});
    via_.assign(n, -1);
    done_.assign(n, 0);
    pos_.assign(n, -1);
    heap_.clear();
    std::vector<char> wanted(n, 0);
    std::size_t remaining = 0;
    for (NodeId t : targets) remaining += !wanted[t], wanted[t] = 1;
    best_[src] = Cost{0.0, 0};
    push_or_decrease(src);
    while (!heap_.empty() && remaining > 0) {
      const NodeId v = pop_min();
      done_[v] = 1;
      if (wanted[v]) --remaining;
      const Cost c = best_[v];
      for (LinkId l = v * slots_; l < (v + 1) * slots_; ++l) {
        const NodeId w = next_[l];
        if (w < 0 || done_[w]) continue;
        const Cost nc{c.w + leave_cost(src, v, l), c.h + 1};
        if (nc < best_[w]) {
          best_[w] = nc;
          via_[w] = l;
          push_or_decrease(w);
        }
      }
    }
    for (NodeId t : targets) {
      cost.push_back(done_[t] ? best_[t].w : kInf);
      paths.emplace_back();
      if (!done_[t]) continue;
      for (NodeId v = t; v != src; v = topo_.link_src(via_[v])) paths.back().push_back(via_[v]);
      std::reverse(paths.back().begin(), paths.back().end());
    }
  }

  // Indexed binary heap on best_ (ties: lower node id), so every node sits in it at most once.
  bool before(NodeId a, NodeId b) const {
    return best_[a] < best_[b] || (!(best_[b] < best_[a]) && a < b);
  }
  void place(std::size_t i, NodeId v) {
    heap_[i] = v;
    pos_[v] = static_cast<int>(i);
  }
  void sift_up(std::size_t i) {
    const NodeId v = heap_[i];
    while (i > 0 && before(v, heap_[(i - 1) / 2])) {
      place(i, heap_[(i - 1) / 2]);
      i = (i - 1) / 2;
    }
    place(i, v);
  }
  void push_or_decrease(NodeId v) {
    if (pos_[v] < 0) {
      heap_.push_back(v);
      sift_up(heap_.size() - 1);
    } else {
      sift_up(static_cast<std::size_t>(pos_[v]));
    }
  }
  NodeId pop_min() {
    const NodeId top = heap_[0];
    pos_[top] = -1;
    const NodeId last = heap_.back();
    heap_.pop_back();
    if (!heap_.empty()) {
      std::size_t i = 0;
      while (true) {
        const std::size_t l = 2 * i + 1, r = l + 1;
        std::size_t m = i;
        NodeId mv = last;
        if (l < heap_.size() && before(heap_[l], mv)) m = l, mv = heap_[l];
        if (r < heap_.size() && before(heap_[r], mv)) m = r, mv = heap_[r];
        if (m == i) break;
        place(i, heap_[m]);
        i = m;
      }
      place(i, last);
    }
    return top;
  }

  void layered(NodeId src, const std::vector<NodeId>& targets, int bound, std::vector<double>& cost,
               std::vector<LinkPath>& paths) {
    const int n = topo_.num_nodes();
    // w[h][v]: cheapest walk of exactly h hops (or fewer, carried forward) ending at v.
    layer_w_.assign(static_cast<std::size_t>(bound + 1) * n, kInf);
    layer_via_.assign(static_cast<std::size_t>(bound + 1) * n, -1);
    layer_w_[src] = 0.0;
    for (int h = 1; h <= bound; ++h) {
      double* cur = &layer_w_[static_cast<std::size_t>(h) * n];
      const double* prev = &layer_w_[static_cast<std::size_t>(h - 1) * n];
      LinkId* via = &layer_via_[static_cast<std::size_t>(h) * n];
      for (NodeId v = 0; v < n; ++v) {
        if (prev[v] == kInf) continue;
        for (LinkId l = v * slots_; l < (v + 1) * slots_; ++l) {
          const NodeId w = next_[l];
          if (w < 0) continue;
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
        v = topo_.link_src(l);
      }
      OPTIQ_CHECK(v == src, "layered search lost its path");
      std::reverse(paths.back().begin(), paths.back().end());
    }
  }

  const Topology& topo_;
  const std::vector<double>& lw_;
  const std::vector<double>& nw_;
  const std::vector<NodeId>& next_;  // neighbour behind every link slot, -1 if none
  const int slots_;
  std::vector<Cost> best_;
  std::vector<LinkId> via_;
  std::vector<char> done_;
  std::vector<int> pos_;        // heap position of a node, -1 when not in the heap
  std::vector<NodeId> heap_;
  std::vector<double> layer_w_;
  std::vector<LinkId> layer_via_;
};

}  // namespace

CheapestPaths cheapest_paths(const Topology& topo, const std::vector<Job>& jobs, const std::vector<double>& link_weight,
                             const std::vector<double>& node_weight, int hop_bound) {
  if (static_cast<int>(link_weight.size()) != topo.num_link_slots())
    throw Error("link weights: expected " + std::to_string(topo.num_link_slots()) + " entries, got " +
                std::to_string(link_weight.size()));
  if (!node_weight.empty() && static_cast<int>(node_weight.size()) != topo.num_nodes())
    throw Error("node weights: expected " + std::to_string(topo.num_nodes()) + " entries, got " +
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
  std::vector<std::pair<NodeId, std::vector<std::size_t>>> groups(by_source.begin(), by_source.end());

  CheapestPaths out;
  out.cost.assign(jobs.size(), kInf);
  out.paths.assign(jobs.size(), {});
  std::vector<NodeId> neighbour(topo.num_link_slots());
  for (LinkId l = 0; l < topo.num_link_slots(); ++l) neighbour[l] = topo.link_dst(l);
  std::atomic<std::size_t> next{0};
  auto work = [&] {
    SourceSearch search(topo, link_weight, node_weight, neighbour);
    std::vector<double> cost;
    std::vector<LinkPath> paths;
    std::vector<NodeId> targets;
    for (std::size_t g; (g = next.fetch_add(1)) < groups.size();) {
      targets.clear();
      for (std::size_t j : groups[g].second) targets.push_back(jobs[j].dst);
      cost.clear();
      paths.clear();
      search.run(groups[g].first, targets, hop_bound, cost, paths);
      for (std::size_t i = 0; i < groups[g].second.size(); ++i) {
        out.cost[groups[g].second[i]] = cost[i];
        out.paths[groups[g].second[i]] = std::move(paths[i]);
      }
    }
  };
  const unsigned helpers = groups.size() < 8 ? 0 : std::min(3u, std::max(1u, std::thread::hardware_concurrency()) - 1);
  std::vector<std::thread> threads;
  for (unsigned t = 0; t < helpers; ++t) threads.emplace_back(work);
  work();
  for (auto& t : threads) t.join();
  return out;
}

}  // namespace optiq
