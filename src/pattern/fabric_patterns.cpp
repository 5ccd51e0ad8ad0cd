// Patterns that load what dragonflies and fat-trees share: the blue links between two groups,
// and the up-link destination-mod-k routing picks at a fat-tree's first switch level.
#include <algorithm>
#include <map>

#include "optiq/core/dragonfly.hpp"
#include "optiq/core/error.hpp"
#include "optiq/core/fat_tree.hpp"
#include "optiq/core/network_pattern.hpp"
#include "optiq/core/routing.hpp"

namespace optiq {

NetworkPattern dragonfly_pattern(const std::string& name, const Network& network, const NetworkPatternOptions& o) {
  const DragonflyShape* df = network.dragonfly();
  if (!df) throw Error("pattern '" + name + "' needs a dragonfly network, not " + network.spec());
  const auto& q = df->params();
  if (q.groups < 2) throw Error("pattern '" + name + "' needs two or more groups (" + network.spec() + " has one)");
  // Hosts of a group are consecutive: host x sits on router x / N, routers numbered group first.
  const int per_group = q.chassis * q.routers * q.nodes;
  NetworkPattern p;
  auto add = [&](int a, int b) {
    for (int i = 0; i < per_group; ++i) p.pairs.emplace_back(a * per_group + i, b * per_group + i), p.weights.push_back(1);
  };
  if (name == "groups-alltoall") {
    for (int a = 0; a < q.groups; ++a)
      for (int b = 0; b < q.groups; ++b)
        if (a != b) add(a, b);
    return p;
  }
  const int a = o.group_src >= 0 ? o.group_src : 0, b = o.group_dst >= 0 ? o.group_dst : 1;
  if (a >= q.groups || b >= q.groups || a == b)
    throw Error("pattern 'group-to-group' needs two different groups below " + std::to_string(q.groups) + " (got " +
                std::to_string(a) + " and " + std::to_string(b) + ")");
  add(a, b);
  return p;
}

// Destination-mod-k (`dmodk`, and `simgrid`, whose up ports are the same) sends a flow for host
// t from a host up to parent t mod w_0, from a level-1 switch up port (t / w_0) mod (w_1 p_1),
// and so on. So flows from the hosts below one level-l switch (a block) to destinations outside
// the block with equal t mod (w_0 w_1 p_1 ... w_l p_l) meet at one switch and leave it on one
// up-link. Blocks in order take the class with the most unused destinations outside the block,
// as long as one has any; the sources left over take the destinations left over, rotated to
// stay off their own block.
namespace {

std::vector<NodeId> adversarial_at(const FatTreeShape& ft, int level) {
  const int N = ft.num_hosts();
  int block_size = 1, k = ft.up(0);
  for (int l = 0; l < level; ++l) block_size *= ft.down(l);
  for (int l = 1; l <= level; ++l) k *= ft.up(l) * ft.cables(l);
  k = std::min(k, N);
  std::vector<std::vector<NodeId>> unused(k);  // per class, ascending
  for (NodeId t = 0; t < N; ++t) unused[t % k].push_back(t);
  std::vector<NodeId> to(N, -1);
  std::vector<NodeId> left_src;
  for (int block = 0; block < N / block_size; ++block) {
    int s = block * block_size;
    const int end = s + block_size;
    while (s < end) {
      int best = -1;
      size_t best_count = 0;
      for (int c = 0; c < k; ++c) {
        const size_t outside =
            std::count_if(unused[c].begin(), unused[c].end(), [&](NodeId t) { return t / block_size != block; });
        if (outside > best_count) best = c, best_count = outside;
      }
      if (best < 0) break;
      auto& pool = unused[best];
      std::vector<NodeId> keep;
      for (NodeId t : pool)
        if (s < end && t / block_size != block) to[s++] = t;
        else keep.push_back(t);
      pool = keep;
    }
    for (; s < end; ++s) left_src.push_back(s);
  }
  std::vector<NodeId> left_dst;
  for (const auto& pool : unused) left_dst.insert(left_dst.end(), pool.begin(), pool.end());
  std::sort(left_dst.begin(), left_dst.end());
  // The rotation with the fewest sources in their destination's block (never a source to itself
  // where another rotation avoids it).
  const size_t n = left_src.size();
  size_t best_shift = 0;
  long best_cost = -1;
  for (size_t shift = 0; shift < std::min<size_t>(n, 64); ++shift) {
    long cost = 0;
    for (size_t i = 0; i < n; ++i) {
      const NodeId s = left_src[i], t = left_dst[(i + shift) % n];
      cost += (s == t) * 1000000L + (s / block_size == t / block_size);
    }
    if (best_cost < 0 || cost < best_cost) best_cost = cost, best_shift = shift;
  }
  for (size_t i = 0; i < n; ++i) to[left_src[i]] = left_dst[(i + best_shift) % n];
  return to;
}

// Flows on the busiest link of the permutation's `dmodk` routes.
int busiest_flows(const Network& network, const RoutingModel& routing, const std::vector<NodeId>& to) {
  std::vector<int> flows(network.num_links(), 0);
  int most = 0;
  for (NodeId s = 0; s < static_cast<NodeId>(to.size()); ++s)
    for (LinkId l : routing.route(s, to[s])) most = std::max(most, ++flows[l]);
  return most;
}

}  // namespace

// The permutation aimed at the up-links of the level (1 to L-1) whose routes it loads most;
// the lowest such level on a tie.
NetworkPattern dmodk_adversarial(const Network& network) {
  const FatTreeShape* ft = network.fat_tree();
  if (!ft) throw Error("pattern 'dmodk-adversarial' needs a fat-tree network, not " + network.spec());
  if (ft->levels() < 2)
    throw Error("pattern 'dmodk-adversarial' needs a fat-tree of two or more levels: on " + network.spec() +
                " every route passes one switch and no up-link is shared");
  const auto routing = make_routing("dmodk", network);
  std::vector<NodeId> best;
  int best_flows = -1;
  for (int level = 1; level < ft->levels(); ++level) {
    auto to = adversarial_at(*ft, level);
    const int flows = busiest_flows(network, *routing, to);
    if (flows > best_flows) best_flows = flows, best = std::move(to);
  }
  NetworkPattern p;
  for (NodeId s = 0; s < static_cast<NodeId>(best.size()); ++s) p.pairs.emplace_back(s, best[s]), p.weights.push_back(1);
  return p;
}

}  // namespace optiq
