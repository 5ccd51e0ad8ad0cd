// Default routes on any network: the rules a subnet manager programs into switches.
#pragma once

#include <memory>
#include <vector>

#include "optiq/core/network.hpp"
#include "optiq/core/routing.hpp"

namespace optiq {

// `shortest`: fewest links; among equally short routes the one whose link ids, read from the
// source, are smallest at the first difference. The choice at a vertex depends only on the
// vertex and the destination, so the routes form one forwarding table per destination, as
// switches hold them.
std::unique_ptr<RoutingModel> make_shortest_routing(const Network& net);

// The network's forwarding table (Network::forwarding_table): at vertex v a packet for
// destination t leaves by the link the table names. A missing entry, a link that does not leave
// v, or a loop is an optiq::Error naming the vertex and destination.
std::unique_ptr<RoutingModel> make_table_routing(const Network& net);

}  // namespace optiq
