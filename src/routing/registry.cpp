#include "optiq/error.hpp"
#include "optiq/routing.hpp"

namespace optiq {

std::unique_ptr<RoutingModel> make_bgq_routing(const Topology& topo);
std::unique_ptr<RoutingModel> make_dor_routing(const Topology& topo);
std::unique_ptr<RoutingModel> make_simgrid_routing(const Topology& topo);

std::vector<std::string> routing_names() { return {"bgq", "dor", "simgrid"}; }

std::unique_ptr<RoutingModel> make_routing(const std::string& name, const Topology& topology) {
  if (name == "bgq") return make_bgq_routing(topology);
  if (name == "dor") return make_dor_routing(topology);
  if (name == "simgrid") return make_simgrid_routing(topology);
  throw Error("unknown routing '" + name + "' (known: bgq, dor, simgrid)");
}

}  // namespace optiq
