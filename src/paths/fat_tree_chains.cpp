#include "paths/fat_tree_chains.hpp"

#include <algorithm>
#include <limits>
#include <map>
#include <string>

#include "optiq/core/error.hpp"
#include "optiq/core/fat_tree.hpp"
#include "optiq/core/graph/parallel.hpp"

namespace optiq::detail {

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr FatTreeChains::Key kNone{kInf, 0};

}  // namespace

std::unique_ptr<FatTreeChains> FatTreeChains::make(const Legs& legs, const std::vector<double>& link_weight,
                                                   const std::vector<double>& node_weight) {
  const std::string routing = legs.routing().name();
  if (legs.direct() || !legs.network().fat_tree() || (routing != "dmodk" && routing != "simgrid")) return nullptr;
  std::unique_ptr<FatTreeChains> out(new FatTreeChains(legs, link_weight, node_weight));
  if (!out->build()) return nullptr;
  return out;
}

FatTreeChains::FatTreeChains(const Legs& legs, const std::vector<double>& link_weight,
                             const std::vector<double>& node_weight)
    : legs_(legs), net_(legs.network()), lw_(link_weight), nw_(node_weight) {}

bool FatTreeChains::build() {
  const FatTreeShape& tree = *net_.fat_tree();
  levels_ = tree.levels();
  hosts_ = tree.num_hosts();
  for (int l = 0; l < levels_; ++l)
    if (tree.cables(l) != 1) return false;  // parallel cables: several climbs reach one switch
  const auto& terms = legs_.terminals();
  if (static_cast<int>(terms.size()) != hosts_) return false;
  for (int i = 0; i < hosts_; ++i)
    if (terms[i] != i) return false;
  const int V = net_.num_vertices();
  level_begin_.resize(levels_ + 2);
  for (int l = 0; l <= levels_; ++l) level_begin_[l] = tree.vertex(l, 0);
  level_begin_[levels_ + 1] = V;
  up_begin_.assign(V + 1, 0);
  for (NodeId v = 0; v < V; ++v) up_begin_[v + 1] = up_begin_[v] + (tree.level(v) < levels_ ? tree.up_ports(v) : 0);
  up_.resize(up_begin_[V]);
  for (NodeId v = 0; v < V; ++v)
    for (int q = 0; q < up_begin_[v + 1] - up_begin_[v]; ++q) up_[up_begin_[v] + q] = tree.up_link(v, q);

  one_parent_ = true;
  for (NodeId h = 0; h < hosts_; ++h) one_parent_ = one_parent_ && up_begin_[h + 1] - up_begin_[h] == 1;
  // Each switch's children's up-links to it, for the walks down of route_costs_to.
  const NodeId upper = level_begin_[std::min(2, levels_ + 1)];
  down_begin_.assign(V - upper + 1, 0);
  for (NodeId v = level_begin_[1]; v < V; ++v)
    for (int a = up_begin_[v]; a < up_begin_[v + 1]; ++a) ++down_begin_[net_.link_dst(up_[a]) - upper + 1];
  for (std::size_t i = 1; i < down_begin_.size(); ++i) down_begin_[i] += down_begin_[i - 1];
  down_.resize(down_begin_.back());
  std::vector<int> at(down_begin_.begin(), down_begin_.end() - 1);
  for (NodeId v = level_begin_[1]; v < V; ++v)
    for (int a = up_begin_[v]; a < up_begin_[v + 1]; ++a) down_[at[net_.link_dst(up_[a]) - upper]++] = up_[a];

  // Hosts are numbered block by block: `span[k]` hosts below one level-k node.
  std::vector<long long> span(levels_ + 1, 1);
  for (int k = 1; k <= levels_; ++k) span[k] = span[k - 1] * tree.down(k - 1);
  turn_.assign(static_cast<std::size_t>(levels_ + 1) * hosts_, -1);
  descent_.assign(turn_.size(), 0.0);
  for (NodeId x = 0; x < hosts_; ++x) {
    for (int k = 1; k <= levels_; ++k) {
      if (span[k] == span[k - 1]) continue;  // one child per node at this level: no route turns here
      // A host whose lowest common level with x is k: the block's first outside x's own
      // level-(k-1) block. Its route must climb k links and descend k.
      const long long outer = x / span[k] * span[k], inner = x / span[k - 1] * span[k - 1];
      NodeId at = static_cast<NodeId>(outer == inner ? inner + span[k - 1] : outer);
      double cost = 0;
      for (int step = 0; step < 2 * k; ++step) {
        const LinkId l = legs_.next(x, at);
        if (l < 0) return false;
        const NodeId next = net_.link_dst(l);
        const bool up = tree.level(next) == tree.level(at) + 1;
        if (up != (step < k) || (!up && tree.level(next) != tree.level(at) - 1)) return false;
        if (step >= k) cost += lw_[l];
        at = next;
        if (step == k - 1) turn_[static_cast<std::size_t>(k) * hosts_ + x] = at;
      }
      if (at != x) return false;
      descent_[static_cast<std::size_t>(k) * hosts_ + x] = cost;
    }
  }
  return true;
}

void FatTreeChains::relax_up(NodeId v, Scratch& s) const {
  const Key c = s.up[v];
  for (int a = up_begin_[v]; a < up_begin_[v + 1]; ++a) {
    const LinkId l = up_[a];
    const Key next{c.w + lw_[l], c.h + 1};
    Key& into = s.up[net_.link_dst(l)];
    if (next < into) into = next, s.up_via[net_.link_dst(l)] = l;
  }
}

// Every vertex above the hosts takes its cheapest way up, level by level (hosts that changed
// have pushed theirs already).
void FatTreeChains::climb(Scratch& s) const {
  for (int l = 1; l < levels_; ++l)
    for (NodeId v = level_begin_[l]; v < level_begin_[l + 1]; ++v)
      if (s.up[v].w != kInf) relax_up(v, s);
}

void FatTreeChains::settle(NodeId src, NodeId dst, double below, Scratch& s) const {
  for (bool more = true; more;) {
    more = false;
    for (NodeId h = 0; h < hosts_; ++h) {
      if (!s.changed[h]) continue;
      s.changed[h] = 0;
      relax_up(h, s);
    }
    climb(s);
    for (NodeId x = 0; x < hosts_; ++x) {
      if (x == src) continue;
      Key best = s.arrival[x];
      int turn = -1;
      for (int k = 1; k <= levels_; ++k) {
        const std::size_t i = static_cast<std::size_t>(k) * hosts_ + x;
        if (turn_[i] < 0) continue;
        const Key via = s.up[turn_[i]];
        const Key c{via.w + descent_[i], via.h + k};
        if (c < best) best = c, turn = k;
      }
      if (turn < 0) continue;
      s.arrival[x] = best, s.turn[x] = turn;
      if (x == dst || !net_.may_forward(x)) continue;
      // A relay leads somewhere cheaper only if it is cheaper than what is wanted already.
      const Key onward{best.w + (nw_.empty() ? 0.0 : nw_[x]), best.h};
      if (onward.w < below && (dst < 0 || onward < s.arrival[dst]) && onward < s.up[x])
        s.up[x] = onward, s.up_via[x] = -1, s.changed[x] = 1, more = true;
    }
  }
}

void FatTreeChains::start(NodeId v, Scratch& s) const {
  const int V = net_.num_vertices();
  s.up.assign(V, kNone);
  s.up_via.assign(V, -1);
  s.arrival.assign(hosts_, kNone);
  s.turn.assign(hosts_, 0);
  s.changed.assign(hosts_, 0);
  s.up[v] = {0.0, 0};
  if (v < hosts_) s.changed[v] = 1;  // above the hosts, the climb relaxes it
}

bool FatTreeChains::cheapest(NodeId src, NodeId dst, double below, Scratch& s, std::vector<NodeId>& stops,
                             double& cost) const {
  OPTIQ_CHECK(src >= 0 && src < hosts_ && dst >= 0 && dst < hosts_ && src != dst, "chains run between two hosts");
  start(src, s);
  settle(src, dst, below, s);
  if (!(s.arrival[dst].w < below)) return false;
  cost = s.arrival[dst].w;
  stops.assign(1, dst);
  for (NodeId x = dst; x != src;) {
    NodeId v = turn_[static_cast<std::size_t>(s.turn[x]) * hosts_ + x];
    while (v >= hosts_) v = net_.link_src(s.up_via[v]);
    OPTIQ_CHECK(stops.size() <= static_cast<std::size_t>(hosts_), "a cheapest chain on a fat-tree loops");
    stops.push_back(v);
    x = v;
  }
  std::reverse(stops.begin(), stops.end());
  return true;
}

NodeId FatTreeChains::entry(NodeId host, double& offset) const {
  const FatTreeShape& tree = *net_.fat_tree();
  offset = 0;
  if (tree.up_ports(host) != 1) return host;
  const LinkId l = tree.up_link(host, 0);
  offset = lw_[l];
  return net_.link_dst(l);
}

void FatTreeChains::route_costs_from(NodeId entry, Scratch& s) const {
  start(entry, s);
  settle(entry, -1, -kInf, s);  // no relay costs less than nothing: one pass
}

void FatTreeChains::route_costs_to(NodeId dst, std::vector<double>& by_switch) const {
  OPTIQ_CHECK(dst >= 0 && dst < hosts_, "routes end at a host");
  const NodeId first = level_begin_[1], upper = level_begin_[std::min(2, levels_ + 1)];
  by_switch.assign(upper - first, kInf);
  std::vector<std::pair<NodeId, double>> stack;  // switches still to walk down from, and their cost
  for (int k = levels_; k >= 1; --k) {
    const std::size_t i = static_cast<std::size_t>(k) * hosts_ + dst;
    if (turn_[i] < 0) continue;
    stack.assign(1, {turn_[i], descent_[i]});
    while (!stack.empty()) {
      const auto [v, cost] = stack.back();
      stack.pop_back();
      if (v < upper) {
        by_switch[v - first] = cost;
        continue;
      }
      for (int a = down_begin_[v - upper]; a < down_begin_[v - upper + 1]; ++a)
        stack.emplace_back(net_.link_src(down_[a]), lw_[down_[a]] + cost);
    }
  }
}

FatTreeChains::EntryGroups FatTreeChains::group_by_entry(const std::vector<NodeId>& sources,
                                                          std::vector<double>& offset) const {
  std::map<NodeId, std::vector<std::size_t>> by_entry;
  offset.assign(sources.size(), 0.0);
  for (std::size_t i = 0; i < sources.size(); ++i) by_entry[entry(sources[i], offset[i])].push_back(i);
  return EntryGroups(by_entry.begin(), by_entry.end());
}

std::vector<double> FatTreeChains::cheapest_costs(const std::vector<std::pair<NodeId, NodeId>>& pairs) const {
  std::vector<NodeId> sources;
  for (const auto& [src, dst] : pairs) {
    OPTIQ_CHECK(src >= 0 && src < hosts_ && dst >= 0 && dst < hosts_ && src != dst, "chains run between two hosts");
    sources.push_back(src);
  }
  std::vector<double> offset;
  const EntryGroups groups = group_by_entry(sources, offset);
  std::vector<double> out(pairs.size(), kInf);
  graph::parallel_for(
      groups.size(), 2, [](bool) { return Scratch{}; },
      [&](Scratch& s, std::size_t g) {
        const NodeId from = groups[g].first;
        start(from, s);
        settle(from, -1, kInf, s);
        // A chain that relays at its own source again costs no less than one that does not, so
        // the chains from the entry, which may, cost what the source's own would.
        for (std::size_t i : groups[g].second) out[i] = offset[i] + s.arrival[pairs[i].second].w;
      });
  return out;
}

}  // namespace optiq::detail
