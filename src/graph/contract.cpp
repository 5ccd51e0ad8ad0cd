#include "optiq/core/graph/contract.hpp"

namespace optiq::graph {

Components components(UnionFind& sets) {
  const int n = sets.size();
  Components c;
  c.of.assign(n, -1);
  std::vector<int> id(n, -1);
  for (int v = 0; v < n; ++v) {
    const int r = sets.find(v);
    if (id[r] < 0) id[r] = c.count++;
    c.of[v] = id[r];
  }
  return c;
}

Quotient quotient(const Csr& g, const Components& c) {
  std::vector<std::tuple<int, int, int>> between;  // (from, to, arc)
  for (int a = 0; a < g.arc_ids(); ++a) {
    if (!g.present(a)) continue;
    const int x = c.of[g.tail(a)], y = c.of[g.head(a)];
    if (x != y) between.emplace_back(x, y, a);
  }
  std::sort(between.begin(), between.end());
  Quotient q;
  for (std::size_t i = 0; i < between.size(); ++i) {
    const auto [x, y, a] = between[i];
    if (i == 0 || std::get<0>(between[i - 1]) != x || std::get<1>(between[i - 1]) != y) {
      q.from.push_back(x);
      q.to.push_back(y);
      q.begin.push_back(static_cast<int>(q.arcs.size()));
    }
    q.arcs.push_back(a);
  }
  q.begin.push_back(static_cast<int>(q.arcs.size()));
  return q;
}

}  // namespace optiq::graph
