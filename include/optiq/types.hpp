// Scalar types used across the core.
#pragma once

#include <cstdint>
#include <vector>

namespace optiq {

using NodeId = std::int32_t;
using LinkId = std::int32_t;
using Bytes = std::uint64_t;

// A route through the network: consecutive link ids; empty for a node sending to itself.
using LinkPath = std::vector<LinkId>;

}  // namespace optiq
