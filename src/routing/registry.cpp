#include "optiq/core/error.hpp"
#include "optiq/core/network_routing.hpp"
#include "optiq/core/routing.hpp"

namespace optiq {

std::unique_ptr<RoutingModel> make_bgq_routing(const Network& net);
std::unique_ptr<RoutingModel> make_dor_routing(const Network& net);
std::unique_ptr<RoutingModel> make_simgrid_routing(const Network& net);
std::unique_ptr<RoutingModel> make_fat_tree_routing(const Network& net, bool simgrid);
std::unique_ptr<RoutingModel> make_dragonfly_routing(const Network& net, bool simgrid);

std::vector<LinkId> RoutingModel::next_links(NodeId dst) const {
  const Network& net = network();
  std::vector<LinkId> next(net.num_vertices(), -1);
  for (NodeId s = 0; s < net.num_vertices(); ++s) {
    if (s == dst || !net.is_terminal(s)) continue;
    NodeId at = s;
    for (LinkId l : route(s, dst)) {
      if (next[at] >= 0 && next[at] != l)
        throw Error("routing '" + name() + "' is not destination-based: routes to vertex " + std::to_string(dst) +
                    " leave vertex " + std::to_string(at) + " by links " + std::to_string(next[at]) + " and " +
                    std::to_string(l) + "; plan with --routing " + net.default_routing() + " (docs/model.md)");
      next[at] = l;
      at = net.link_dst(l);
    }
  }
  return next;
}

LinkId RoutingModel::next_link(NodeId at, NodeId dst) const {
  if (!network().contains(at)) throw Error("vertex " + std::to_string(at) + " is outside the network");
  return next_links(dst)[at];
}

std::unique_ptr<RouteCosts> RoutingModel::route_costs(const std::vector<double>&) const { return nullptr; }

std::vector<std::string> routing_names() { return {"bgq", "dor", "simgrid", "dmodk", "minimal", "shortest", "table"}; }

std::unique_ptr<RoutingModel> make_routing(const std::string& name, const Network& net) {
  if (name == "bgq") return make_bgq_routing(net);
  if (name == "dor") return make_dor_routing(net);
  if (name == "simgrid") {  // SimGrid's route on whichever of its clusters the network is
    if (net.fat_tree()) return make_fat_tree_routing(net, true);
    if (net.dragonfly()) return make_dragonfly_routing(net, true);
    if (!net.torus_part())
      throw Error("routing 'simgrid' needs a torus, mesh, fat-tree or dragonfly network, not '" + net.spec() + "'");
    return make_simgrid_routing(net);
  }
  if (name == "dmodk") return make_fat_tree_routing(net, false);
  if (name == "minimal") return make_dragonfly_routing(net, false);
  if (name == "shortest") return make_shortest_routing(net);
  if (name == "table") return make_table_routing(net);
  throw Error("unknown routing '" + name + "' (known: bgq, dor, simgrid, dmodk, minimal, shortest, table)");
}

}  // namespace optiq
