// Streams into forwarders, shared by chunk sizing and schedule building.
#pragma once

#include <map>
#include <tuple>
#include <vector>

#include "optiq/core/schedule.hpp"

namespace optiq::detail {

// (forwarder, upstream, class) -> flows through it. A chunk reaching hops[k] of a flow with
// forwarders is of class k for 0 < k < last; class 0 at the destination.
using StreamKey = std::tuple<Rank, Rank, int>;

inline std::map<StreamKey, std::vector<std::size_t>> forwarding_streams(const std::vector<Flow>& flows) {
  std::map<StreamKey, std::vector<std::size_t>> streams;
  for (std::size_t f = 0; f < flows.size(); ++f) {
    const auto& hops = flows[f].hops;
    for (std::size_t k = 1; k + 1 < hops.size(); ++k)
      streams[{hops[k], hops[k - 1], static_cast<int>(k)}].push_back(f);
  }
  return streams;
}

inline bool is_forwarded(const Flow& flow) { return flow.hops.size() > 2; }

}  // namespace optiq::detail
