// Ranks placed by host name on a network that names its hosts: each rank's host comes from
// OPTIQ_HOST (set per rank here, as a launcher that lies would), shuffled, two or three ranks to
// a host, uneven, and one host missing. Every byte arrives or every rank gets the same error;
// and plans on the job's scattered hosts relay only at them (no bytes turn off plan).
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>

#include "optiq/core/network.hpp"
#include "scenario.hpp"

using namespace mpitest;

namespace {

// A dragonfly of 32 hosts named "cn-<k>" as an imported file would: four groups of four routers
// with two hosts each, one global link between two groups, so that plans relay through a third.
std::string write_named_dragonfly() {
  const optiq::Network net = optiq::parse_network("dragonfly:4,1;1,1;4,1;2", 1e9);
  auto id = [&](optiq::NodeId v) {
    return std::string("\"") + (net.kind(v) == optiq::VertexKind::Endpoint ? "cn-" : "sw-") + std::to_string(v) + "\"";
  };
  std::ostringstream out;
  out << "{\"graph\": {\"hosts\": true}, \"nodes\": [";
  for (optiq::NodeId v = 0; v < net.num_vertices(); ++v)
    out << (v ? ", " : "") << "{\"id\": " << id(v) << ", \"kind\": \"" << optiq::kind_name(net.kind(v)) << "\"}";
  out << "], \"links\": [";
  for (optiq::LinkId l = 0; l < net.num_links(); ++l)
    out << (l ? ", " : "") << "{\"source\": " << id(net.link_src(l)) << ", \"target\": " << id(net.link_dst(l))
        << ", \"capacity\": 1e9}";
  out << "]}\n";
  // One file per job: rank 0 names it, every rank reads it.
  int pid = static_cast<int>(getpid());
  MPI_Bcast(&pid, 1, MPI_INT, 0, MPI_COMM_WORLD);
  const std::string path = "/tmp/optiq-mpi-hosts-" + std::to_string(pid) + ".json";
  if (world_rank() == 0) std::ofstream(path) << out.str();
  MPI_Barrier(MPI_COMM_WORLD);
  return path;
}

// The hosts of a random allocation: `count` of the 32, scattered over the groups.
std::vector<int> allocation(std::uint64_t seed, int count) {
  std::vector<int> hosts(32);
  for (int i = 0; i < 32; ++i) hosts[i] = i;
  optiq::Rng rng(seed);
  for (int i = 31; i > 0; --i) std::swap(hosts[i], hosts[rng.below(i + 1)]);
  hosts.resize(count);
  return hosts;
}

unsigned long long forwarded_total = 0;  // over every run: the relaying checks above must bite

void run_on(const std::string& topology, const std::string& host, optiq_options o, std::uint64_t salt,
            const std::string& what, Checker& ck) {
  setenv("OPTIQ_HOST", host.c_str(), 1);
  optiq_t ctx;
  const int status = common_status(optiq_create(MPI_COMM_WORLD, topology.c_str(), &o, &ctx));
  if (ck.expect(status == OPTIQ_SUCCESS, "%s: create: %s", what.c_str(), optiq_error_string(ctx))) {
    for (int call = 0; call < 2; ++call)
      checked_call(ctx, make_exchange(salt + call, world_rank(), world_size(), 1, {0.9, 5000, true}), MPI_BYTE,
                   salt + call, ck, what);
    optiq_stats st;
    optiq_get_stats(ctx, &st);
    unsigned long long off_plan = 0;
    MPI_Allreduce(&st.off_plan_bytes, &off_plan, 1, MPI_UNSIGNED_LONG_LONG, MPI_SUM, MPI_COMM_WORLD);
    ck.expect(off_plan == 0, "%s: %llu bytes turned at a host without a rank", what.c_str(), off_plan);
    forwarded_total += st.forwarded_bytes;
  }
  optiq_destroy(&ctx);
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  Checker ck;
  const int rank = world_rank(), size = world_size();
  const std::string topology = "graph:" + write_named_dragonfly();
  for (const char* planner : {"mcf", "heu2", "default"}) {
    optiq_options o = options(planner, OPTIQ_TRANSPORT_P2P);
    // One rank per host, shuffled over a scattered allocation.
    const auto one = allocation(size, size);
    run_on(topology, "cn-" + std::to_string(one[rank]), o, 10, std::string(planner) + " one per host", ck);
    // Two or three ranks to a host, unevenly: ranks 0-2 share a host, then pairs.
    const int hosts = size <= 3 ? 1 : 1 + (size - 2) / 2;
    const auto few = allocation(size + 100, hosts);
    const int slot = rank < 3 ? 0 : 1 + (rank - 3) / 2;
    run_on(topology, "cn-" + std::to_string(few[std::min(slot, hosts - 1)]), o, 20,
           std::string(planner) + " 2-3 per host", ck);
  }
  {  // The same network placed by arithmetic when asked to.
    optiq_options o = options("mcf", OPTIQ_TRANSPORT_RMA);
    o.rank_placement = OPTIQ_PLACEMENT_BLOCK;
    run_on(topology, "no-such-host", o, 30, "block placement ignores host names", ck);
  }
  {  // A host the network does not have: the same status and the host's name on every rank.
    optiq_options o = options("mcf", OPTIQ_TRANSPORT_P2P);
    setenv("OPTIQ_HOST", rank == size - 1 ? "login-7" : ("cn-" + std::to_string(rank)).c_str(), 1);
    optiq_t ctx;
    const int status = common_status(optiq_create(MPI_COMM_WORLD, topology.c_str(), &o, &ctx));
    ck.expect(status == OPTIQ_ERR_TOPOLOGY, "missing host: %s", optiq_status_name(status));
    ck.expect(std::string(optiq_error_string(ctx)).find("'login-7'") != std::string::npos,
              "missing host: message '%s'", optiq_error_string(ctx));
    optiq_destroy(&ctx);
  }
  {  // Placement by host asked of a network that names none.
    optiq_options o = options("mcf", OPTIQ_TRANSPORT_P2P);
    o.rank_placement = OPTIQ_PLACEMENT_HOSTS;
    optiq_t ctx;
    const int status = common_status(optiq_create(MPI_COMM_WORLD, ("torus:" + std::to_string(size)).c_str(), &o, &ctx));
    ck.expect(status == OPTIQ_ERR_TOPOLOGY, "unnamed hosts: %s", optiq_status_name(status));
    ck.expect(std::string(optiq_error_string(ctx)).find("does not name its hosts") != std::string::npos,
              "unnamed hosts: message '%s'", optiq_error_string(ctx));
    optiq_destroy(&ctx);
  }
  unsigned long long forwarded = 0;
  MPI_Allreduce(&forwarded_total, &forwarded, 1, MPI_UNSIGNED_LONG_LONG, MPI_SUM, MPI_COMM_WORLD);
  if (size >= 5) ck.expect(forwarded > 0, "no run relayed a byte: the placement checks prove nothing");
  if (rank == 0) std::remove(topology.substr(6).c_str());
  const int failures = ck.total();
  if (rank == 0) std::printf("%s: %d failures at %d ranks\n", failures ? "FAILED" : "passed", failures, size);
  MPI_Finalize();
  return failures ? 1 : 0;
}
