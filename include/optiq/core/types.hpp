// Scalar types used across the core.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace optiq {

using NodeId = std::int32_t;
using LinkId = std::int32_t;
using Bytes = std::uint64_t;

// A route through the network: consecutive link ids; empty for a node sending to itself.
using LinkPath = std::vector<LinkId>;

// Called now and then during long work: (what is being done, items done, items in total).
using Progress = std::function<void(const std::string& stage, std::size_t done, std::size_t total)>;

}  // namespace optiq
