// Plain dimension-order routing: dimension 0 first, the shorter way round, + on ties.
#include <numeric>

#include "optiq/core/routing.hpp"
#include "routing/dimension_order.hpp"

namespace optiq {

namespace {

int dor_direction(const TorusShape& topo, int dim, int s, int t) {
  const int up = ((t - s) % topo.size(dim) + topo.size(dim)) % topo.size(dim);  // steps going +
  if (!topo.wraps(dim)) return t > s ? +1 : -1;
  return 2 * up <= topo.size(dim) ? +1 : -1;
}

}  // namespace

std::unique_ptr<RoutingModel> make_dor_routing(const Network& net) {
  const TorusShape& topo = detail::torus_of(net, "dor");
  std::vector<int> order(topo.dims());
  std::iota(order.begin(), order.end(), 0);
  return std::make_unique<detail::DimensionOrderRouting>("dor", net, std::move(order), dor_direction);
}

}  // namespace optiq
