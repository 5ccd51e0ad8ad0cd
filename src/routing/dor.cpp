// Plain dimension-order routing: dimension 0 first, the shorter way round, + on ties.
#include <numeric>

#include "optiq/routing.hpp"
#include "dimension_order.hpp"

namespace optiq {

namespace {

int dor_direction(const Topology& topo, int dim, int s, int t) {
  const int up = ((t - s) % topo.size(dim) + topo.size(dim)) % topo.size(dim);  // steps going +
  if (!topo.wraps(dim)) return t > s ? +1 : -1;
  return 2 * up <= topo.size(dim) ? +1 : -1;
}

class DorRouting final : public RoutingModel {
 public:
  explicit DorRouting(const Topology& topo) : topo_(topo), order_(topo.dims()) {
    std::iota(order_.begin(), order_.end(), 0);
  }
  std::string name() const override { return "dor"; }
  LinkPath route(NodeId src, NodeId dst) const override {
    return detail::walk_dimension_order(topo_, order_, src, dst, dor_direction);
  }

 private:
  const Topology& topo_;
  std::vector<int> order_;
};

}  // namespace

std::unique_ptr<RoutingModel> make_dor_routing(const Topology& topo) { return std::make_unique<DorRouting>(topo); }

}  // namespace optiq
