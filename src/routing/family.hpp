// The shape a family's routing models need, or the error naming the family they need.
#pragma once

#include <string>

#include "optiq/core/error.hpp"
#include "optiq/core/network.hpp"

namespace optiq::detail {

// `shape` is the network's shape of the family (null when the network is of another one);
// `family` says what the routing needs, e.g. "a fat-tree network (fattree:...)".
template <class Shape>
const Shape& family_shape(const Shape* shape, const Network& net, const std::string& routing, const char* family) {
  if (!shape) throw Error("routing '" + routing + "' needs " + family + ", not '" + net.spec() + "'");
  return *shape;
}

}  // namespace optiq::detail
