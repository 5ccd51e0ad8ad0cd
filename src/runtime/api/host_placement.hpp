// Ranks placed by host name, and the network a job plans on: only its own endpoints forward.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "runtime/transport/transport.hpp"
#include "optiq/core/network.hpp"
#include "optiq/core/schedule.hpp"

namespace optiq::rt {

// This process's host name: OPTIQ_HOST where set (tests, launchers whose processor names are
// not the network's), else MPI_Get_processor_name (under SMPI the simulated host's name).
std::string host_name();

// Collective over comms.ctrl: the endpoint each rank's host names, the same vector on every
// rank. Throws Failure(OPTIQ_ERR_TOPOLOGY) on every rank alike when the network does not name
// its hosts or some rank's host is not in it (naming the lowest such rank and its host).
std::vector<NodeId> nodes_by_host(const Comms& comms, const Network& net);

// The network planners see: on a network with switches (a shared machine) where the ranks leave
// endpoints unoccupied, the same network where only the occupied ones forward
// (Network::with_forwarders), shared between the contexts of one process that agree on it
// (SMPI runs thousands in one process); else `net` itself.
std::shared_ptr<const Network> job_network(const std::shared_ptr<const Network>& net, const RankMap& placement);

}  // namespace optiq::rt
