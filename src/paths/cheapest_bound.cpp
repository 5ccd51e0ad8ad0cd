// Underestimates of cheapest-path costs on a contracted graph: a certificate that stays valid
// (dropping weights only lowers costs) at a small fraction of the price of exact searches.
#include <algorithm>
#include <limits>
#include <map>
#include <numeric>
#include <queue>

#include "optiq/cheapest.hpp"
#include "optiq/error.hpp"

namespace optiq {

namespace {

int find(std::vector<int>& parent, int x) {
  while (parent[x] != x) x = parent[x] = parent[parent[x]];
  return x;
}

}  // namespace

std::vector<double> cheapest_cost_lower_bounds(const Topology& topo, const std::vector<Job>& jobs,
                                               const std::vector<double>& w, double threshold, int max_components) {
  const int n = topo.num_nodes(), slots = 2 * topo.dims();
  OPTIQ_CHECK(static_cast<int>(w.size()) == topo.num_link_slots(), "one weight per link slot");
  std::vector<int> parent(n);
  std::iota(parent.begin(), parent.end(), 0);
  for (LinkId l = 0; l < topo.num_link_slots(); ++l) {
    const NodeId v = topo.link_dst(l);
    if (v < 0 || w[l] >= threshold) continue;
    const NodeId u = topo.link_src(l);
    for (LinkId back = v * slots; back < (v + 1) * slots; ++back)
      if (topo.link_dst(back) == u && w[back] < threshold) {
        parent[find(parent, u)] = find(parent, v);
        break;
      }
  }
  std::vector<int> comp(n, -1);
  int k = 0;
  for (NodeId v = 0; v < n; ++v) {
    const int r = find(parent, v);
    if (comp[r] < 0) comp[r] = k++;
    comp[v] = comp[r];
  }
  if (k > max_components) return {};

  // Contracted arcs, the cheapest of parallel ones; links under the threshold are free.
  std::map<std::pair<int, int>, double> arcs;
  for (LinkId l = 0; l < topo.num_link_slots(); ++l) {
    const NodeId v = topo.link_dst(l);
    if (v < 0) continue;
    const int a = comp[topo.link_src(l)], b = comp[v];
    if (a == b) continue;
    const double c = w[l] < threshold ? 0.0 : w[l];
    auto [it, fresh] = arcs.emplace(std::make_pair(a, b), c);
    if (!fresh) it->second = std::min(it->second, c);
  }
  std::vector<std::vector<std::pair<int, double>>> out(k);
  for (const auto& [ab, c] : arcs) out[ab.first].emplace_back(ab.second, c);

  constexpr double kInf = std::numeric_limits<double>::infinity();
  std::map<int, std::vector<double>> from;  // source component -> distances
  std::vector<double> bounds(jobs.size(), 0.0);
  for (std::size_t j = 0; j < jobs.size(); ++j) {
    const int s = comp[jobs[j].src];
    auto it = from.find(s);
    if (it == from.end()) {
      std::vector<double> dist(k, kInf);
      using Entry = std::pair<double, int>;
      std::priority_queue<Entry, std::vector<Entry>, std::greater<Entry>> open;
      dist[s] = 0;
      open.push({0.0, s});
      while (!open.empty()) {
        const auto [d, a] = open.top();
        open.pop();
        if (d > dist[a]) continue;
        for (const auto& [b, c] : out[a])
          if (d + c < dist[b]) dist[b] = d + c, open.push({dist[b], b});
      }
      it = from.emplace(s, std::move(dist)).first;
    }
    const double d = it->second[comp[jobs[j].dst]];
    bounds[j] = d == kInf ? 0.0 : d;  // unreachable never happens in a connected torus
  }
  return bounds;
}

}  // namespace optiq
