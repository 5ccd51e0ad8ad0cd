// optiq-io-bench: the same collective write with optiq (optiq/io.h) and with
// MPI_File_write_at_all, timed, both files compared byte for byte and read back through optiq.
// `optiq io-bench` launches it; its last stdout line is the JSON result. With --io-ranks (in
// SimGrid SMPI) the last ranks stand on the network's I/O nodes and receive what the
// aggregators write (forward.hpp); there is no MPI-IO reference then.
#include <mpi.h>

#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include "optiq/core/aggregation.hpp"
#include "optiq/core/routing.hpp"
#include "runtime/api/io_rank_layout.hpp"
#include "runtime/api/shared_network.hpp"
#include "tools/common/document.hpp"
#include "tools/io_bench/job.hpp"

namespace {

using optiq::iobench::Args;
using optiq::iobench::fail;
using optiq::iobench::Measured;

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.size() % 2 ? v[v.size() / 2] : (v[v.size() / 2 - 1] + v[v.size() / 2]) / 2;
}

// The simulated I/O nodes: their count, and the world rank serving this rank's I/O node (a
// compute rank's; -1 on the servers themselves).
struct IoRanks {
  int servers = 0;
  int server = -1;
};

IoRanks io_ranks_of(const std::string& topology, int np, int ranks_per_node, int rank) {
  IoRanks out;
  try {
    const std::shared_ptr<const optiq::Network> shared = optiq::rt::shared_network(topology);
    const optiq::Network& net = *shared;
    const optiq::rt::IoRankLayout layout = optiq::rt::io_rank_layout(net, topology, ranks_per_node, np);
    const std::vector<optiq::NodeId>& ios = layout.io_nodes;
    const long long compute = layout.compute;
    const auto routing = optiq::make_routing(net.default_routing(), net);
    out.servers = int(ios.size());
    if (rank < compute) {
      const optiq::NodeId io = optiq::io_node_of_endpoint(net, *routing, net.endpoints()[std::size_t(rank / ranks_per_node)]);
      out.server = int(compute) + int(std::lower_bound(ios.begin(), ios.end(), io) - ios.begin());
    }
  } catch (const std::exception& e) {
    fail(e.what());
  }
  return out;
}
optiq::json::Ordered rates(const std::vector<double>& seconds, long long total) {
  if (seconds.empty()) return nullptr;
  std::vector<double> r;
  for (double s : seconds) r.push_back(s > 0 ? double(total) / s : 0.0);
  return {{"median", median(r)}, {"min", *std::min_element(r.begin(), r.end())},
          {"max", *std::max_element(r.begin(), r.end())}, {"all", r}};
}

// Rank 0's JSON document. The null sink and the simulated I/O nodes leave nothing to compare.
optiq::json::Ordered report(const Args& a, const Measured& m, int compute) {
  using optiq::json::Ordered;
  const optiq_io_options io = a.io_options();
  const optiq_options rt = a.runtime_options();
  const bool compared = !a.io_ranks && io.sink != OPTIQ_SINK_NULL;
  return {{"identical", compared ? Ordered(m.identical == 1) : Ordered(nullptr)},
          {"optiq_write_bps", rates(m.optiq, m.total)},
          {"mpiio_write_bps", rates(m.mpiio, m.total)},
          {"optiq_read_bps", m.read_seconds > 0 ? double(m.total) / m.read_seconds : 0.0},
          {"bytes", m.total},
          {"ranks", compute},
          {"topology", a.topology},
          {"ranks_per_node", rt.ranks_per_node},
          {"workload", a.workload},
          {"layout", a.workload == "hacc" ? a.layout : "contiguous"},
          {"per_rank", a.per_rank},
          {"files", optiq::get_option(io, "files")},
          {"file_groups", m.groups},
          {"aggregators", m.aggregators},
          {"buffer", io.buffer_bytes},
          {"rounds", m.rounds},
          {"sink", a.io_ranks ? "io-ranks" : optiq::get_option(io, "sink")},
          {"overlap", io.overlap != 0},
          {"forward", io.forward != 0},
          {"placement", io.placement ? Ordered(io.placement) : Ordered(nullptr)},
          {"mpiio_hints", a.hints},
          {"iterations", a.iterations},
          {"kept", a.keep ? Ordered(a.dir) : Ordered(nullptr)}};
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, np;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &np);
  Args a = optiq::iobench::parse(argc, argv);
  const int ranks_per_node = a.runtime_options().ranks_per_node;

  // With --io-ranks the job is every rank but the last `servers`, which serve the I/O nodes.
  IoRanks io;
  MPI_Comm job = MPI_COMM_WORLD, fwd_comm = MPI_COMM_NULL;
  int compute = np;
  if (a.io_ranks) {
    if (a.topology.empty()) fail("--io-ranks needs a --topology with I/O nodes (mira:N+io)");
    io = io_ranks_of(a.topology, np, ranks_per_node, rank);
    compute = np - io.servers;
    MPI_Comm_dup(MPI_COMM_WORLD, &fwd_comm);
    MPI_Comm_split(MPI_COMM_WORLD, rank < compute ? 0 : 1, rank, &job);
  }
  if (a.topology.empty()) a.topology = "torus:" + std::to_string((np + ranks_per_node - 1) / ranks_per_node);

  Measured m;
  optiq::iobench::Served served;
  if (rank < compute) {
    optiq::iobench::Forwarder forwarder;
    if (a.io_ranks) {
      forwarder.comm = fwd_comm;
      forwarder.server = io.server;
    }
    m = optiq::iobench::run_job(a, job, a.io_ranks ? &forwarder : nullptr);
    if (a.io_ranks) optiq::iobench::finish(forwarder, compute, io.servers);
  } else {
    const std::string disk = a.disk ? (a.dir.empty() ? "" : a.dir + "/") + "io-node." + std::to_string(rank - compute) : "";
    served = optiq::iobench::serve(fwd_comm, compute, (long long)a.io_options().buffer_bytes, disk);
  }
  long long delivered = 0, stored = 0;
  MPI_Reduce(&served.received, &delivered, 1, MPI_LONG_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
  MPI_Reduce(&served.stored, &stored, 1, MPI_LONG_LONG, MPI_SUM, 0, MPI_COMM_WORLD);

  if (rank == 0) {
    optiq::json::Ordered out = report(a, m, compute);
    if (a.io_ranks) {
      out["io_ranks"] = io.servers;
      // Every write's bytes reached the I/O nodes exactly once in total.
      out["io_node_bytes"] = delivered;
      out["delivered"] = delivered == m.total * (long long)(a.warmup + a.iterations);
      out["disk"] = a.disk;
      out["disk_bytes"] = stored;
    }
    optiq::tools::print_document(out);
  }
  MPI_Finalize();
  return 0;
}
