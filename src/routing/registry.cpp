#include "optiq/error.hpp"
#include "optiq/network_routing.hpp"
#include "optiq/routing.hpp"

namespace optiq {

std::unique_ptr<RoutingModel> make_bgq_routing(const Network& net);
std::unique_ptr<RoutingModel> make_dor_routing(const Network& net);
std::unique_ptr<RoutingModel> make_simgrid_routing(const Network& net);

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
                    std::to_string(l));
      next[at] = l;
      at = net.link_dst(l);
    }
  }
  return next;
}

std::vector<std::string> routing_names() { return {"bgq", "dor", "simgrid", "shortest", "table"}; }

std::unique_ptr<RoutingModel> make_routing(const std::string& name, const Network& net) {
  if (name == "bgq") return make_bgq_routing(net);
  if (name == "dor") return make_dor_routing(net);
  if (name == "simgrid") return make_simgrid_routing(net);
  if (name == "shortest") return make_shortest_routing(net);
  if (name == "table") return make_table_routing(net);
  throw Error("unknown routing '" + name + "' (known: bgq, dor, simgrid, shortest, table)");
}

}  // namespace optiq
