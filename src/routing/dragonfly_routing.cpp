// Routes on a dragonfly: `simgrid`, the route SimGrid 3.32's DragonflyZone takes, read from its
// get_local_route; and `minimal`, the minimal route its documentation promises, which differs only
// where SimGrid's does not form a path (docs/model.md, "Dragonflies").
#include <memory>
#include <string>
#include <vector>

#include "optiq/core/dragonfly.hpp"
#include "optiq/core/error.hpp"
#include "optiq/core/routing.hpp"
#include "routing/family.hpp"

namespace optiq {

namespace {

const DragonflyShape& dragonfly_of(const Network& net, const std::string& routing) {
  return detail::family_shape(net.dragonfly(), net, routing, "a dragonfly network (dragonfly:...)");
}

class DragonflyRouteCosts;

class DragonflyRouting final : public RoutingModel {
 public:
  DragonflyRouting(const Network& net, bool simgrid)
      : net_(net), fly_(dragonfly_of(net, simgrid ? "simgrid" : "minimal")), simgrid_(simgrid) {
    places_.reserve(fly_.num_routers());
    for (int r = 0; r < fly_.num_routers(); ++r) places_.push_back(fly_.place(fly_.num_hosts() + r));
  }

  std::string name() const override { return simgrid_ ? "simgrid" : "minimal"; }
  const Network& network() const override { return net_; }

  // Local link up; in another group, green to the blade numbered like the target group, black
  // to chassis 0, then the blue link; then green to the target's blade and black to its chassis;
  // local link down. SimGrid's one departure: after the green hop it continues from chassis 0 of
  // the target group, which a route within a group from chassis c != 0 is not at (its links then
  // do not form a path).
  LinkPath route(NodeId src, NodeId dst) const override {
    check_host(src);
    check_host(dst);
    LinkPath path;
    if (src == dst) return path;  // SimGrid's platform gives a host its loopback; the network has none
    path.push_back(fly_.local_up(src));
    if (fly_.router_of(src) != fly_.router_of(dst)) {
      DragonflyShape::Place at = fly_.place(src);
      const DragonflyShape::Place t = fly_.place(dst);
      if (t.group != at.group) {
        if (at.blade != t.group) {
          path.push_back(fly_.green(at.group, at.chassis, at.blade, t.group));
          at.blade = t.group;
        }
        if (at.chassis != 0) {
          path.push_back(fly_.black(at.group, at.chassis, 0, at.blade));
          at.chassis = 0;
        }
        path.push_back(fly_.blue(at.group, t.group));
        at = {t.group, 0, at.group};
      }
      if (t.blade != at.blade) {
        path.push_back(fly_.green(at.group, at.chassis, at.blade, t.blade));
        at.blade = t.blade;
        if (simgrid_) at.chassis = 0;
      }
      if (t.chassis != at.chassis) path.push_back(fly_.black(at.group, at.chassis, t.chassis, at.blade));
    }
    path.push_back(fly_.local_down(dst));
    return path;
  }

  // Without SimGrid's departure (one chassis or one router per chassis: no route it spoils)
  // both models take the minimal routes, one choice per vertex.
  bool next_link_is_formula() const override { return !simgrid_ || fly_.params().chassis == 1 || fly_.params().routers == 1; }

  LinkId next_link(NodeId at, NodeId dst) const override {
    if (!next_link_is_formula()) return RoutingModel::next_link(at, dst);  // next_links says why not
    check_host(dst);
    if (!net_.contains(at)) throw Error("vertex " + std::to_string(at) + " is outside the network");
    if (at == dst) return -1;
    if (!fly_.is_router(at)) return fly_.local_up(at);
    return router_next(at, dst);
  }

  // The rule at router `at` towards host dst (both checked by the caller).
  LinkId router_next(NodeId at, NodeId dst) const {
    const DragonflyShape::Place& t = places_[dst / fly_.params().nodes];
    const DragonflyShape::Place& here = places_[at - fly_.num_hosts()];
    if (here.group != t.group) {
      if (here.blade != t.group) return fly_.green(here.group, here.chassis, here.blade, t.group);
      if (here.chassis != 0) return fly_.black(here.group, here.chassis, 0, here.blade);
      return fly_.blue(here.group, t.group);
    }
    if (here.blade != t.blade) return fly_.green(here.group, here.chassis, here.blade, t.blade);
    if (here.chassis != t.chassis) return fly_.black(here.group, here.chassis, t.chassis, here.blade);
    return fly_.local_down(dst);
  }

  std::unique_ptr<RouteCosts> route_costs(const std::vector<double>& link_weight) const override;

  std::vector<LinkId> next_links(NodeId dst) const override {
    check_host(dst);
    if (!next_link_is_formula()) {
      const DragonflyParams& p = fly_.params();
      const NodeId from = fly_.router_index(0, 1, 0) * p.nodes, to = fly_.router_index(0, 0, 1) * p.nodes;
      throw Error("routing 'simgrid' on '" + net_.spec() + "' has routes that are not paths (e.g. host " +
                  std::to_string(from) + " to host " + std::to_string(to) +
                  ": after a green hop in a chassis other than 0 SimGrid goes on from chassis 0); plan with "
                  "--routing minimal, the documented rule and the default (docs/model.md)");
    }
    std::vector<LinkId> next(net_.num_vertices(), -1);
    for (NodeId v = 0; v < net_.num_vertices(); ++v) next[v] = next_link(v, dst);
    return next;
  }

 private:
  void check_host(NodeId v) const {
    if (!net_.contains(v)) throw Error("route endpoint outside the network");
    if (fly_.is_router(v))
      throw Error("routing '" + name() + "' routes between hosts; vertex " + std::to_string(v) + " is a router");
  }

  const Network& net_;
  const DragonflyShape& fly_;
  bool simgrid_;
  std::vector<DragonflyShape::Place> places_;  // of every router: next_link() asks two per hop
};

// Minimal routes from one host to all hosts (DragonflyRouting::route_costs): up to the
// source's router, one route per router, down to the host. A route between routers does not
// depend on which host of the target router it is for. The walks take the routing's rule at
// each router without next_link's checks: a round of mcf walks millions of hops.
class DragonflyRouteCosts final : public RouteCosts {
 public:
  DragonflyRouteCosts(const Network& net, const DragonflyShape& fly, const DragonflyRouting& routing,
                      const std::vector<double>& lw)
      : net_(net), fly_(fly), routing_(routing), lw_(lw),
        to_cost_(fly.num_routers()), to_hops_(fly.num_routers()),
        from_cost_(fly.num_routers()), from_hops_(fly.num_routers()) {}

  void to(NodeId dst, std::vector<double>& cost, std::vector<int>& hops) override {
    OPTIQ_CHECK(dst >= 0 && dst < fly_.num_hosts(), "route costs end at a host");
    const int n = fly_.params().nodes;
    const NodeId target = fly_.router_of(dst);
    if (target != to_router_) {  // the routes between routers serve every host of the target router
      for (int r = 0; r < fly_.num_routers(); ++r) walk(fly_.num_hosts() + r, target, dst, to_cost_[r], to_hops_[r]);
      to_router_ = target;
    }
    const double down = lw_[fly_.local_down(dst)];
    cost.assign(fly_.num_hosts(), 0.0);
    hops.assign(fly_.num_hosts(), 0);
    for (NodeId x = 0; x < fly_.num_hosts(); ++x) {
      if (x == dst) continue;
      const int r = x / n;
      cost[x] = lw_[fly_.local_up(x)] + to_cost_[r] + down;
      hops[x] = to_hops_[r] + 2;
    }
  }

  void from(NodeId src, std::vector<double>& cost, std::vector<int>& hops) override {
    OPTIQ_CHECK(src >= 0 && src < fly_.num_hosts(), "route costs start at a host");
    const int n = fly_.params().nodes;
    const NodeId start = fly_.router_of(src);
    if (start != from_router_) {  // ... and every host of the source router
      for (int r = 0; r < fly_.num_routers(); ++r) walk(start, fly_.num_hosts() + r, r * n, from_cost_[r], from_hops_[r]);
      from_router_ = start;
    }
    const double up = lw_[fly_.local_up(src)];
    cost.assign(fly_.num_hosts(), 0.0);
    hops.assign(fly_.num_hosts(), 0);
    for (NodeId x = 0; x < fly_.num_hosts(); ++x) {
      if (x == src) continue;
      const int r = x / n;
      cost[x] = up + from_cost_[r] + lw_[fly_.local_down(x)];
      hops[x] = from_hops_[r] + 2;
    }
  }

 private:
  // The route from router `at` to router `target` (towards its host `host`): its weight and links.
  void walk(NodeId at, NodeId target, NodeId host, double& cost, int& hops) const {
    cost = 0, hops = 0;
    for (; at != target; ++hops) {
      const LinkId l = routing_.router_next(at, host);
      cost += lw_[l];
      at = net_.link_dst(l);
    }
  }

  const Network& net_;
  const DragonflyShape& fly_;
  const DragonflyRouting& routing_;
  const std::vector<double>& lw_;
  // The routes between routers last computed: to one router, and from one.
  std::vector<double> to_cost_;
  std::vector<int> to_hops_;
  NodeId to_router_ = -1;
  std::vector<double> from_cost_;
  std::vector<int> from_hops_;
  NodeId from_router_ = -1;
};

std::unique_ptr<RouteCosts> DragonflyRouting::route_costs(const std::vector<double>& link_weight) const {
  if (!next_link_is_formula()) return nullptr;
  return std::make_unique<DragonflyRouteCosts>(net_, fly_, *this, link_weight);
}

}  // namespace

std::unique_ptr<RoutingModel> make_dragonfly_routing(const Network& net, bool simgrid) {
  return std::make_unique<DragonflyRouting>(net, simgrid);
}

}  // namespace optiq
