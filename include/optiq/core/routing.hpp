// The network's own deterministic routes: the baseline every plan is compared with.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "optiq/core/network.hpp"

namespace optiq {

// The costs of the default routes from one endpoint to every endpoint under fixed link
// weights, from routings that know a faster way than one walk per route
// (RoutingModel::route_costs). One object serves one thread: it keeps scratch space.
class RouteCosts {
 public:
  virtual ~RouteCosts() = default;
  // For the i-th endpoint (Network::endpoints() order): the sum of the link weights along the
  // route from `from` (an endpoint) and its links; 0 and 0 for `from` itself.
  virtual void from(NodeId from, std::vector<double>& cost, std::vector<int>& hops) = 0;
  // The same for the routes from every endpoint to endpoint `to`.
  virtual void to(NodeId to, std::vector<double>& cost, std::vector<int>& hops) = 0;
};

class RoutingModel {
 public:
  virtual ~RoutingModel() = default;
  virtual std::string name() const = 0;
  virtual const Network& network() const = 0;
  // Links from src to dst, in order; empty when src == dst.
  virtual LinkPath route(NodeId src, NodeId dst) const = 0;
  // The default routes to dst from every vertex as one next link per vertex (-1 at dst and
  // where no route starts): the forwarding table switches hold for dst. Throws optiq::Error
  // when two routes to dst leave one vertex by different links (the routing is not
  // destination-based). The generic version asks route() from every vertex that is not a switch.
  virtual std::vector<LinkId> next_links(NodeId dst) const;
  // One entry of that table: the link leaving `at` on the default route to endpoint dst (-1 at
  // dst). Routings whose choice at a vertex is a formula of the vertex and the destination
  // (fat-trees under `dmodk`, dragonflies under `minimal`) answer it in constant time and say
  // so with next_link_is_formula(); planners then keep no tables of their own
  // (include/optiq/core/legs.hpp), which is what lets them plan fabrics of 10,000 endpoints and more.
  // The generic version builds next_links(dst) for each call: for tests and occasional use.
  virtual bool next_link_is_formula() const { return false; }
  virtual LinkId next_link(NodeId at, NodeId dst) const;
  // The routes from one endpoint to all endpoints costed at once (fat-trees: climbs shared by
  // the destinations that choose the same up ports, descents shared by every source;
  // dragonflies: one route per pair of routers, kept for the next endpoint of the same
  // router). nullptr where the routing has no such way. Only for
  // routings whose routes between endpoints pass no other endpoint (hosts are leaves), so that
  // the link weights are the whole cost of a route. `link_weight` must outlive the object and
  // keep its values while it lives: the object may keep weights and costs between calls.
  virtual std::unique_ptr<RouteCosts> route_costs(const std::vector<double>& link_weight) const;
};

// Order in which BG/Q routes the dimensions of a partition of this shape: longest first, with
// the published tie-break for 128- and 256-node partitions.
std::vector<int> bgq_dimension_order(const std::vector<int>& sizes);

// Known models: on tori and meshes "bgq" (BG/Q deterministic routing), "dor" (dimension 0
// first, shorter way, + on ties) and "simgrid" (SimGrid's TORUS cluster, dimensions in
// bgq_dimension_order; see docs/simulation.md); on fat-trees "simgrid" (SimGrid's FAT_TREE
// cluster) and "dmodk" (destination-mod-k, cables chosen by the destination); on dragonflies
// "simgrid" (SimGrid's DRAGONFLY cluster) and "minimal" (its documented minimal routes); on any
// network "shortest" and "table" (include/optiq/core/network_routing.hpp). docs/model.md says where
// SimGrid's routes depart from its documentation.
std::unique_ptr<RoutingModel> make_routing(const std::string& name, const Network& topology);
std::vector<std::string> routing_names();

}  // namespace optiq
