// BG/Q deterministic routing as reconstructed by the OPTIQ authors (DESIGN §2).
#include "optiq/core/routing.hpp"
#include "routing/dimension_order.hpp"

namespace optiq {

std::vector<int> bgq_dimension_order(const std::vector<int>& sizes) {
  const int n = static_cast<int>(sizes.size());
  long long nodes = 1;
  for (int s : sizes) nodes *= s;
  std::vector<int> remaining = sizes;
  std::vector<int> order(n);
  for (int i = 0; i < n; ++i) {
    int best = i;
    int len = remaining[i];
    for (int j = 0; j < n; ++j)
      if (remaining[j] > len) {
        best = j;
        len = remaining[j];
      }
    if (best == 0 && n > 1 && remaining[0] == remaining[1] && (nodes == 128 || nodes == 256)) best = 1;
    order[i] = best;
    remaining[best] = -1;
  }
  return order;
}

namespace {

// Direct way unless the ring makes the wrap shorter; at exactly half the ring, even sources go
// direct and odd ones wrap. In a size-2 ring this sends both 0->1 and 1->0 out of the + port.
int bgq_direction(const TorusShape& topo, int dim, int s, int t) {
  const int direct = t > s ? +1 : -1;
  const int distance = t > s ? t - s : s - t;
  const int ring = topo.size(dim);
  if (!topo.wraps(dim) || 2 * distance < ring || (2 * distance == ring && s % 2 == 0)) return direct;
  return -direct;
}

}  // namespace

std::unique_ptr<RoutingModel> make_bgq_routing(const Network& net) {
  return std::make_unique<detail::DimensionOrderRouting>("bgq", net, bgq_dimension_order(detail::torus_of(net, "bgq").sizes()),
                                                         bgq_direction);
}

}  // namespace optiq
