#include "runtime/api/host_placement.hpp"

#include <cstdlib>
#include <map>
#include <mutex>

#include "runtime/online/failure.hpp"
#include "optiq/optiq.h"

namespace optiq::rt {

std::string host_name() {
  if (const char* given = std::getenv("OPTIQ_HOST"); given && *given) return given;
  char name[MPI_MAX_PROCESSOR_NAME] = {};
  int length = 0;
  MPI_Get_processor_name(name, &length);
  return std::string(name, static_cast<std::size_t>(length));
}

std::vector<NodeId> nodes_by_host(const Comms& comms, const Network& net) {
  if (!net.hosts_named())  // the same on every rank: the topology was agreed before
    throw Failure(OPTIQ_ERR_TOPOLOGY, "ranks are placed by host name, but " + net.spec() +
                                          " does not name its hosts (import the machine's description, or "
                                          "use rank-placement block)");
  const std::string mine = host_name();
  const NodeId here = net.endpoint_named(mine);
  std::vector<NodeId> nodes(static_cast<std::size_t>(comms.size));
  MPI_Allgather(&here, 1, MPI_INT, nodes.data(), 1, MPI_INT, comms.ctrl);
  int missing = -1;
  for (int r = 0; r < comms.size && missing < 0; ++r)
    if (nodes[r] < 0) missing = r;
  if (missing < 0) return nodes;
  // Only the missing rank knows its host's name: it tells the others, so every rank reports it.
  char name[MPI_MAX_PROCESSOR_NAME + 1] = {};
  if (comms.rank == missing) mine.copy(name, MPI_MAX_PROCESSOR_NAME);
  MPI_Bcast(name, MPI_MAX_PROCESSOR_NAME + 1, MPI_CHAR, missing, comms.ctrl);
  name[MPI_MAX_PROCESSOR_NAME] = '\0';
  throw Failure(OPTIQ_ERR_TOPOLOGY, "rank " + std::to_string(missing) + " runs on host '" + name +
                                        "', which is not an endpoint of " + net.spec());
}

std::shared_ptr<const Network> job_network(const std::shared_ptr<const Network>& net, const RankMap& placement) {
  // A torus partition is the job's own (BG/Q), and its routing may not allow the overlay a
  // restricted torus needs (Legs): there a path that turns at a node without a rank goes on by
  // the default route (optiq_stats.off_plan_bytes). Switched machines are shared.
  bool switched = false;
  for (NodeId v = 0; v < net->num_vertices() && !switched; ++v) switched = net->kind(v) == VertexKind::Switch;
  std::vector<NodeId> own;
  for (NodeId v : net->endpoints())
    if (placement.occupied(v)) own.push_back(v);
  if (!switched || own.size() == net->endpoints().size()) return net;
  std::string key = net->spec() + '\n' + net->digest() + '\n';
  for (NodeId v : own) key += std::to_string(v) + ',';

  static std::mutex mutex;
  static std::map<std::string, std::weak_ptr<const Network>> live;
  const std::lock_guard<std::mutex> lock(mutex);
  if (auto found = live.find(key); found != live.end())
    if (auto shared = found->second.lock()) return shared;
  auto made = std::make_shared<const Network>(net->with_forwarders(own));
  for (auto it = live.begin(); it != live.end();) it = it->second.expired() ? live.erase(it) : std::next(it);
  live[key] = made;
  return made;
}

}  // namespace optiq::rt
