// Underestimates of cheapest-path costs on a contracted graph: a certificate that stays valid
// (dropping weights only lowers costs) at a small fraction of the price of exact searches.
#include <algorithm>
#include <limits>
#include <map>

#include "optiq/core/cheapest.hpp"
#include "optiq/core/error.hpp"
#include "optiq/core/graph/contract.hpp"
#include "optiq/core/graph/dijkstra.hpp"

namespace optiq {

std::vector<double> cheapest_cost_lower_bounds(const Network& topo, const std::vector<Job>& jobs,
                                               const std::vector<double>& w, double threshold, int max_components) {
  OPTIQ_CHECK(static_cast<int>(w.size()) == topo.num_links(), "one weight per link");
  const graph::Csr& g = topo.graph();
  const graph::Components comp = graph::merge_below(g, w, threshold);
  if (comp.count > max_components) return {};

  // Contracted arcs weigh their cheapest link; links under the threshold are free.
  const graph::Quotient q = graph::quotient(g, comp);
  std::vector<int> tails(q.from), heads(q.to);
  std::vector<double> cost(q.groups(), std::numeric_limits<double>::infinity());
  for (int x = 0; x < q.groups(); ++x)
    for (int i = q.begin[x]; i < q.begin[x + 1]; ++i) {
      const double c = w[q.arcs[i]];
      cost[x] = std::min(cost[x], c < threshold ? 0.0 : c);
    }
  const graph::Csr small(comp.count, std::move(tails), std::move(heads));

  graph::Dijkstra<double> search(comp.count);
  std::map<int, std::vector<double>> from;  // source component -> distances
  std::vector<double> bounds(jobs.size(), 0.0);
  for (std::size_t j = 0; j < jobs.size(); ++j) {
    const int s = comp.of[jobs[j].src];
    auto it = from.find(s);
    if (it == from.end()) {
      search.start();
      search.seed(s, 0.0);
      for (int a; (a = search.settle_next()) >= 0;)
        for (int i = small.out_begin(a); i < small.out_end(a); ++i)
          search.offer(small.head_at(i), search.key(a) + cost[small.arc_at(i)], small.arc_at(i));
      std::vector<double> dist(comp.count, 0.0);  // 0 where unreachable: still a valid bound
      for (int b = 0; b < comp.count; ++b)
        if (search.settled(b)) dist[b] = search.key(b);
      it = from.emplace(s, std::move(dist)).first;
    }
    bounds[j] = it->second[comp.of[jobs[j].dst]];
  }
  return bounds;
}

}  // namespace optiq
