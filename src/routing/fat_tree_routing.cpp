// Routes on a fat-tree: `simgrid`, the route SimGrid 3.32's FatTreeZone takes, read from its
// get_local_route; and `dmodk`, the destination-mod-k rule its documentation names, which climbs
// the same way and differs only in the parallel cable it takes down the tree (docs/model.md,
// "Fat-trees").
#include <memory>
#include <string>
#include <vector>

#include "optiq/error.hpp"
#include "optiq/fat_tree.hpp"
#include "optiq/routing.hpp"

namespace optiq {

namespace {

const FatTreeShape& fat_tree_of(const Network& net, const std::string& routing) {
  if (!net.fat_tree())
    throw Error("routing '" + routing + "' needs a fat-tree network (fattree:...), not '" + net.spec() + "'");
  return *net.fat_tree();
}

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

  std::vector<LinkId> next_links(NodeId dst) const override {
    check_host(dst);
    if (!next_link_is_formula()) {
      // SimGrid's cable down the tree depends on the source: find out whether two routes to dst
      // really part, from the routes themselves.
      try {
        return RoutingModel::next_links(dst);
      } catch (const Error& e) {
        throw Error(std::string(e.what()) + " (SimGrid picks the parallel cable down a fat-tree by the source; " +
                    "routing 'dmodk' takes the same switches with cables chosen by the destination, docs/model.md)");
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
