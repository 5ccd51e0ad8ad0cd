// The route SimGrid's TORUS cluster takes (kernel::routing::TorusZone), so that a simulated
// network and the planning core agree link for link. The platform generator
// (python/optiq/simulation/platform.py) lays the torus out with SimGrid's dimension 0 being the
// first dimension of bgq_dimension_order, so both route the dimensions in the same order.
#include "optiq/core/routing.hpp"
#include "routing/dimension_order.hpp"

namespace optiq {

namespace {

// TorusZone decides each dimension from the source's coordinate alone: go + when the target
// lies ahead within half a ring, or when the source sits past the ring's middle and the target
// is within half a ring of it by wrapping. Ties at exactly half a ring therefore go + except
// from the middle coordinate itself. A line (or a size-2 dimension, whose second cable
// SimGrid never uses) is always crossed the direct way.
int simgrid_direction(const TorusShape& topo, int dim, int s, int t) {
  const int ring = topo.size(dim);
  if (!topo.wraps(dim) || ring <= 2) return t > s ? +1 : -1;
  const int half = ring / 2;
  const bool ahead = t > s && t <= s + half;
  const bool wrap_ahead = s > half && (s + half) % ring >= t;
  return ahead || wrap_ahead ? +1 : -1;
}

}  // namespace

std::unique_ptr<RoutingModel> make_simgrid_routing(const Network& net) {
  return std::make_unique<detail::DimensionOrderRouting>("simgrid", net,
                                                         bgq_dimension_order(detail::torus_of(net, "simgrid").sizes()),
                                                         simgrid_direction);
}

}  // namespace optiq
