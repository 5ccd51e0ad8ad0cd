// Routes on a fat-tree: `simgrid`, the route SimGrid 3.32's FatTreeZone takes, read from its
// get_local_route; and `dmodk`, the destination-mod-k rule its documentation names, which climbs
// the same way and differs only in the parallel cable it takes down the tree (docs/model.md,
// "Fat-trees").
#include <algorithm>
#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "optiq/core/error.hpp"
#include "optiq/core/fat_tree.hpp"
#include "optiq/core/routing.hpp"
#include "routing/family.hpp"

namespace optiq {

namespace {

const FatTreeShape& fat_tree_of(const Network& net, const std::string& routing) {
  return detail::family_shape(net.fat_tree(), net, routing, "a fat-tree network (fattree:...)");
}

// dmodk's routes from one host to all hosts (FatTreeRouting::route_costs). A route to x climbs
// to the lowest level k above both hosts by the up ports q_l(x) = (x / (w_0..w_{l-1})) mod
// (w_l p_l), then descends to x. The climb reaches the level-k node whose parent digits are
// those ports' (q_l mod w_l) and whose other digits are x's: a node that depends on x and k
// alone, so the descent's cost D[k][x] is the same from every source and is computed once.
// From one source, destinations that choose the same ports share the climb: its costs are
// kept per prefix of ports, each link walked once.
class FatTreeRouteCosts final : public RouteCosts {
 public:
  FatTreeRouteCosts(const Network& net, const FatTreeShape& tree, const RoutingModel& routing,
                    const std::vector<long long>& below, const std::vector<double>& lw)
      : net_(net), tree_(tree), below_(below), lw_(lw), L_(tree.levels()), N_(tree.num_hosts()) {
    span_.assign(L_ + 1, 1);  // hosts below one level-k node: m_0 ... m_{k-1}
    for (int k = 1; k <= L_; ++k) span_[k] = span_[k - 1] * tree_.down(k - 1);
    ports_.resize(L_);
    for (int l = 0; l < L_; ++l) ports_[l] = tree_.up(l) * tree_.cables(l);
    prefixes_.assign(L_ + 1, 1);
    for (int l = 1; l <= L_; ++l) prefixes_[l] = prefixes_[l - 1] * ports_[l - 1];
    climb_cost_.resize(L_ + 1), climb_node_.resize(L_ + 1), climb_seen_.resize(L_ + 1);
    for (int l = 0; l <= L_; ++l) {
      climb_cost_[l].resize(prefixes_[l]);
      climb_node_[l].resize(prefixes_[l]);
      climb_seen_[l].assign(prefixes_[l], 0);
    }
    blocks_.resize(L_ + 1);
    for (int l = 0; l <= L_; ++l) blocks_[l] = N_ / span_[l];
    // Every up link's weight by (level, position, port), read without the shape's arithmetic:
    // to() reads one per block and level, a host's own up link among them.
    up_at_.assign(L_ + 1, 0);
    for (int l = 0; l < L_; ++l) up_at_[l + 1] = up_at_[l] + static_cast<std::size_t>(tree_.level_size(l)) * ports_[l];
    up_weight_.resize(up_at_[L_]);
    for (int l = 0; l < L_; ++l)
      for (int pos = 0; pos < tree_.level_size(l); ++pos)
        for (int q = 0; q < ports_[l]; ++q)
          up_weight_[up_at_[l] + static_cast<std::size_t>(pos) * ports_[l] + q] = lw_[tree_.up_link_at(l, pos, q)];
    block_weight_.resize(L_);
    for (int l = 0; l < L_; ++l) block_weight_[l].resize(blocks_[l]);
    above_.assign(L_ + 1, 0.0), turn_descent_.assign(L_ + 1, 0.0);
    descent_.assign(static_cast<std::size_t>(L_ + 1) * N_, 0.0);
    prefix_.assign(static_cast<std::size_t>(L_ + 1) * N_, 0);
    for (NodeId x = 0; x < N_; ++x) {
      NodeId top = x;
      for (int k = 1; k <= L_; ++k) {
        prefix_[static_cast<std::size_t>(k) * N_ + x] =
            prefix_[static_cast<std::size_t>(k - 1) * N_ + x] * ports_[k - 1] + port(k - 1, x);
        top = net_.link_dst(tree_.up_link(top, port(k - 1, x)));
        double c = 0;
        for (NodeId at = top; at != x;) {
          const LinkId l = routing.next_link(at, x);
          c += lw_[l];
          at = net_.link_dst(l);
        }
        descent_[static_cast<std::size_t>(k) * N_ + x] = c;
      }
    }
  }

  // To dst: a host climbs by dst's ports, so below level l the hosts of one level-l block
  // share the node they climb through and its up link; each such link is read once, into
  // block_weight_[l] (0 for dst's own block, from which routes climb no higher). One pass
  // over the hosts then sums, bottom level first, the weights of the blocks each lies in and
  // the descent of the level its route turns at: one write per host where a pass per level
  // read and wrote every host again.
  //
  // The level-l node block b climbs through has dst's parent digits below l and b's digits
  // from l on, so its position is fixed(l) + b * (w_0 ... w_{l-1}).
  void to(NodeId dst, std::vector<double>& cost, std::vector<int>& hops) override {
    OPTIQ_CHECK(dst >= 0 && dst < N_, "route costs end at a host");
    cost.resize(N_);
    hops.resize(N_);
    long long fixed = 0;
    for (int l = 0; l < L_; ++l) {
      const int q = port(l, dst);
      const double* weight = up_weight_.data() + up_at_[l] + q;
      double* block = block_weight_[l].data();
      for (long long b = 0; b < blocks_[l]; ++b) block[b] = weight[(fixed + b * below_[l]) * ports_[l]];
      block[dst / span_[l]] = 0;
      fixed += (q % tree_.up(l)) * below_[l];
    }
    for (int k = 1; k <= L_; ++k) turn_descent_[k] = descent_[static_cast<std::size_t>(k) * N_ + dst];
    if (L_ == 1) {  // hosts below one switch
      for (NodeId x = 0; x < N_; ++x) {
        cost[x] = x == dst ? 0 : block_weight_[0][x] + turn_descent_[1];
        hops[x] = x == dst ? 0 : 2;
      }
      return;
    }
    for (long long b = 0; b < blocks_[L_ - 1]; ++b) fill_to(L_ - 1, b, 0, dst, cost.data(), hops.data());
  }

  // Whether the climbs' table stays small: the ports of every level multiplied.
  static bool fits(const FatTreeShape& tree) {
    long long n = 1;
    for (int l = 0; l < tree.levels(); ++l)
      if ((n *= static_cast<long long>(tree.up(l)) * tree.cables(l)) > (1LL << 22)) return false;
    return true;
  }

  void from(NodeId src, std::vector<double>& cost, std::vector<int>& hops) override {
    OPTIQ_CHECK(src >= 0 && src < N_, "route costs start at a host");
    cost.resize(N_);
    hops.resize(N_);
    cost[src] = 0, hops[src] = 0;
    climb_cost_[0][0] = 0, climb_node_[0][0] = src;
    // Where the climbs are fewer than the hosts, all of them first; else each as a host needs it.
    const bool every_climb = prefixes_[L_] <= N_;
    if (every_climb) {
      for (int k = 1; k <= L_; ++k)
        for (long long p = 0; p < prefixes_[k]; ++p) {
          const long long parent = p / ports_[k - 1];
          const LinkId link = tree_.up_link(climb_node_[k - 1][parent], static_cast<int>(p % ports_[k - 1]));
          climb_cost_[k][p] = climb_cost_[k - 1][parent] + lw_[link];
          climb_node_[k][p] = net_.link_dst(link);
        }
    } else {
      if (++stamp_ == 0) {
        for (auto& seen : climb_seen_) std::fill(seen.begin(), seen.end(), 0);
        stamp_ = 1;
      }
      climb_seen_[0][0] = stamp_;
    }
    // The hosts whose lowest common level with src is k: src's level-k block without its
    // level-(k-1) block (hosts are numbered block by block).
    for (int k = 1; k <= L_; ++k) {
      const long long outer = src / span_[k] * span_[k], inner = src / span_[k - 1] * span_[k - 1];
      const long long* prefix = &prefix_[static_cast<std::size_t>(k) * N_];
      const double* descent = &descent_[static_cast<std::size_t>(k) * N_];
      const double* climbs = climb_cost_[k].data();
      for (const auto [begin, end] : {std::pair{outer, inner}, std::pair{inner + span_[k - 1], outer + span_[k]}}) {
        if (every_climb) {
          for (long long x = begin; x < end; ++x) cost[x] = climbs[prefix[x]] + descent[x];
        } else {
          for (long long x = begin; x < end; ++x) cost[x] = climb(k, prefix[x]) + descent[x];
        }
        std::fill(hops.begin() + begin, hops.begin() + end, 2 * k);
      }
    }
  }

 private:
  int port(int level, NodeId x) const { return static_cast<int>(x / below_[level] % ports_[level]); }

  // to()'s pass over the hosts of level-l block b (l >= 1). `turn` is the level routes from
  // them to dst turn at once a block above already differs from dst's (0: not yet known).
  // above_[m] holds the weight of the level-m block being filled, for m > l.
  void fill_to(int l, long long b, int turn, NodeId dst, double* cost, int* hops) {
    if (turn == 0 && b != dst / span_[l]) turn = l + 1;
    above_[l] = block_weight_[l][b];
    const long long first = b * tree_.down(l - 1), end = first + tree_.down(l - 1);
    if (l > 1) {
      for (long long c = first; c < end; ++c) fill_to(l - 1, c, turn, dst, cost, hops);
      return;
    }
    const double* own_weight = block_weight_[0].data();
    const int k = turn > 0 ? turn : 1;
    const double descent = turn_descent_[k];
    // The climb's levels bottom first, then the descent: summed in another order the costs
    // could round differently, and ties between proxies (so plans) with them.
    if (L_ == 2) {
      const double a1 = above_[1];
      for (long long x = first; x < end; ++x) cost[x] = (own_weight[x] + a1) + descent;
    } else if (L_ == 3) {
      const double a1 = above_[1], a2 = above_[2];
      for (long long x = first; x < end; ++x) cost[x] = ((own_weight[x] + a1) + a2) + descent;
    } else {
      for (long long x = first; x < end; ++x) {
        double v = own_weight[x];
        for (int m = 1; m < L_; ++m) v += above_[m];
        cost[x] = v + descent;
      }
    }
    std::fill(hops + first, hops + end, 2 * k);
    if (dst >= first && dst < end) cost[dst] = 0, hops[dst] = 0;
  }

  // The cost of the climb from the present source through the ports of prefix p (depth k).
  double climb(int k, long long p) {
    if (climb_seen_[k][p] == stamp_) return climb_cost_[k][p];
    const long long parent = p / ports_[k - 1];
    const double below = climb(k - 1, parent);
    const LinkId link = tree_.up_link(climb_node_[k - 1][parent], static_cast<int>(p % ports_[k - 1]));
    climb_cost_[k][p] = below + lw_[link];
    climb_node_[k][p] = net_.link_dst(link);
    climb_seen_[k][p] = stamp_;
    return climb_cost_[k][p];
  }

  const Network& net_;
  const FatTreeShape& tree_;
  const std::vector<long long>& below_;
  const std::vector<double>& lw_;
  int L_, N_;
  std::vector<long long> span_, prefixes_, blocks_;
  std::vector<int> ports_;
  std::vector<std::vector<double>> climb_cost_;
  std::vector<std::vector<NodeId>> climb_node_;
  std::vector<std::vector<std::uint32_t>> climb_seen_;
  std::uint32_t stamp_ = 0;
  std::vector<double> descent_;      // [k * N + x]
  std::vector<double> up_weight_;    // [up_at_[l] + position * ports_[l] + port]
  std::vector<std::size_t> up_at_;
  std::vector<long long> prefix_;    // [k * N + x]: x's first k up ports, as one number
  std::vector<std::vector<double>> block_weight_;  // to()'s scratch: per level, per block
  std::vector<double> above_, turn_descent_;       // ... per level
};

class FatTreeRouting final : public RoutingModel {
 public:
  FatTreeRouting(const Network& net, bool simgrid)
      : net_(net), tree_(fat_tree_of(net, simgrid ? "simgrid" : "dmodk")), simgrid_(simgrid) {
    for (int l = 0; l < tree_.levels(); ++l) single_cables_ = single_cables_ && tree_.cables(l) == 1;
    below_.assign(tree_.levels() + 1, 1);
    for (int l = 1; l <= tree_.levels(); ++l) below_[l] = below_[l - 1] * tree_.up(l - 1);
  }

  std::string name() const override { return simgrid_ ? "simgrid" : "dmodk"; }
  const Network& network() const override { return net_; }

  LinkPath route(NodeId src, NodeId dst) const override {
    check_host(src);
    check_host(dst);
    LinkPath path;
    if (src == dst) return path;  // SimGrid's platform gives a host its loopback; the network has none
    // Up: destination-mod-k, the parallel cables counted among the ports (k = w p), until the
    // node is an ancestor of the destination.
    NodeId at = src;
    while (!tree_.is_ancestor(at, dst)) {
      const LinkId l = tree_.up_link(at, up_port(tree_.level(at), dst));
      path.push_back(l);
      at = net_.link_dst(l);
    }
    if (simgrid_) simgrid_down(src, dst, at, path);
    else
      while (at != dst) {
        const LinkId l = tree_.down_link(at, dmodk_down_port(tree_.level(at), dst));
        path.push_back(l);
        at = net_.link_dst(l);
      }
    return path;
  }

  // dmodk, and simgrid without parallel cables (the same routes): one choice per vertex.
  bool next_link_is_formula() const override { return !simgrid_ || single_cables_; }

  LinkId next_link(NodeId at, NodeId dst) const override {
    if (!next_link_is_formula()) return RoutingModel::next_link(at, dst);
    check_host(dst);
    if (!net_.contains(at)) throw Error("vertex " + std::to_string(at) + " is outside the network");
    if (at == dst) return -1;
    const int lv = tree_.level(at);
    return tree_.is_ancestor(at, dst) ? tree_.down_link(at, dmodk_down_port(lv, dst))
                                      : tree_.up_link(at, up_port(lv, dst));
  }

  std::unique_ptr<RouteCosts> route_costs(const std::vector<double>& link_weight) const override {
    if (!next_link_is_formula() || !FatTreeRouteCosts::fits(tree_)) return nullptr;
    return std::make_unique<FatTreeRouteCosts>(net_, tree_, *this, below_, link_weight);
  }

  std::vector<LinkId> next_links(NodeId dst) const override {
    check_host(dst);
    if (!next_link_is_formula()) {
      // SimGrid's cable down the tree depends on the source: find out whether two routes to dst
      // really part, from the routes themselves.
      try {
        return RoutingModel::next_links(dst);
      } catch (const Error& e) {
        throw Error(std::string(e.what()) + " (SimGrid picks the parallel cable down a fat-tree by the source; " +
                    "dmodk takes the same switches with cables chosen by the destination)");
      }
    }
    std::vector<LinkId> next(net_.num_vertices(), -1);
    for (NodeId v = 0; v < net_.num_vertices(); ++v) next[v] = next_link(v, dst);
    return next;
  }

 private:
  void check_host(NodeId v) const {
    if (!net_.contains(v)) throw Error("route endpoint outside the network");
    if (v >= tree_.num_hosts())
      throw Error("routing '" + name() + "' routes between hosts; vertex " + std::to_string(v) + " is a switch");
  }

  // SimGrid's d-mod-k: the destination's index divided by the parents of every level below,
  // modulo this level's up ports.
  int up_port(int level, NodeId dst) const {
    return static_cast<int>(dst / below_[level] % (static_cast<long long>(tree_.up(level)) * tree_.cables(level)));
  }

  // dmodk down from a level-`level` switch: the child on the destination's side, by the cable
  // the destination's up port at the child's level would use, (d / (w_0..w_{l})) mod p_l.
  int dmodk_down_port(int level, NodeId dst) const {
    const int l = level - 1;
    const int cable = (up_port(l, dst) / tree_.up(l));
    return cable * tree_.down(l) + tree_.digit(dst, l);
  }

  // FatTreeZone's down phase as written: each scan over a switch's down ports starts at the
  // source's cable (source index mod p) and takes the first port towards the destination; after a
  // descent the same scan goes on over the child's ports from the next index, so below the
  // turning switch the cable can differ from the source's (docs/model.md).
  void simgrid_down(NodeId src, NodeId dst, NodeId at, LinkPath& path) const {
    while (at != dst) {
      const int lv = tree_.level(at);
      int i = (src % tree_.cables(lv - 1)) * tree_.down(lv - 1);
      while (true) {
        const int level = tree_.level(at);
        if (level == 0 || i >= tree_.down_ports(at)) break;
        if (i % tree_.down(level - 1) == tree_.digit(dst, level - 1)) {
          const LinkId l = tree_.down_link(at, i);
          path.push_back(l);
          at = net_.link_dst(l);
        }
        ++i;
      }
    }
  }

  const Network& net_;
  const FatTreeShape& tree_;
  bool simgrid_;
  bool single_cables_ = true;
  std::vector<long long> below_;  // w_0 ... w_{l-1}: the parents of every level below level l
};

}  // namespace

std::unique_ptr<RoutingModel> make_fat_tree_routing(const Network& net, bool simgrid) {
  return std::make_unique<FatTreeRouting>(net, simgrid);
}

}  // namespace optiq
