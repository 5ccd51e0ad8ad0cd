// optiq-io-bench: the same collective write with optiq (optiq/io.h) and with
// MPI_File_write_at_all, timed, both files compared byte for byte and read back through optiq.
// `optiq io-bench` launches it; its last stdout line is the JSON result. With --io-ranks (in
// SimGrid SMPI) the last ranks stand on the network's I/O nodes and receive what the
// aggregators write (forward.hpp); there is no MPI-IO reference then.
#include <mpi.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <memory>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>
#include <vector>

#include "args.hpp"
#include "forward.hpp"
#include "optiq/aggregation.hpp"
#include "optiq/io.h"
#include "optiq/routing.hpp"
#include "reference.hpp"
#include "runtime/api/io_rank_layout.hpp"
#include "runtime/api/shared_network.hpp"
#include "runtime/io/memory.hpp"
#include "workload.hpp"

namespace {

using optiq::iobench::Args;
using optiq::iobench::fail;
using optiq::iobench::MpiioWrite;
using optiq::iobench::read_whole;

void check(int status, optiq_t ctx, const char* what) {
  if (status != OPTIQ_SUCCESS) fail(std::string(what) + ": " + optiq_error_string(ctx));
}

double slowest(double seconds, MPI_Comm job) {
  double out = 0;
  MPI_Allreduce(&seconds, &out, 1, MPI_DOUBLE, MPI_MAX, job);
  return out;
}

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
// What one job measured.
struct Measured {
  std::vector<double> optiq, mpiio;
  double read_seconds = 0;
  int identical = 1;
  long long total = 0;
  int aggregators = 0, rounds = 0, groups = 0;
};

// The benchmark on the ranks of `job`. fwd: the simulated I/O nodes' sink, or null for files.
Measured run_job(const Args& a, MPI_Comm job, optiq::iobench::Forwarder* fwd) {
  int rank, np;
  MPI_Comm_rank(job, &rank);
  MPI_Comm_size(job, &np);
  Measured m;
  optiq_options co;
  optiq_options_init(&co);
  co.ranks_per_node = a.ranks_per_node;
  optiq_t ctx = nullptr;
  check(optiq_create(job, a.topology.c_str(), &co, &ctx), ctx, "optiq_create");

  optiq_io_options io;
  optiq_io_options_init(&io);
  io.files = a.files == "pset" ? OPTIQ_FILES_GROUP : OPTIQ_FILES_SHARED;
  io.group_nodes = a.group_nodes;
  io.aggregators = a.aggregators;
  io.buffer_bytes = a.buffer;
  io.placement = a.placement.empty() ? nullptr : a.placement.c_str();
  io.sink = a.sink == "mpiio" ? OPTIQ_SINK_MPIIO : a.sink == "null" ? OPTIQ_SINK_NULL : OPTIQ_SINK_PWRITE;
  io.overlap = a.overlap ? 1 : 0;
  io.forward = a.forward ? 1 : 0;
  optiq_io_custom_sink forward{};
  if (fwd) {
    forward = optiq::iobench::forwarding_sink(fwd);
    io.sink = OPTIQ_SINK_CUSTOM;
    io.custom = &forward;
  }
  const std::string optiq_path = (fwd ? std::string(".") : a.dir) + "/optiq.dat";
  optiq_file_t f = nullptr;
  check(optiq_file_open(ctx, optiq_path.c_str(), OPTIQ_IO_CREATE, &io, &f), ctx, "optiq_file_open");
  optiq_io_stats st;
  optiq_file_stats(f, &st);
  std::vector<int> group_of(np);
  MPI_Allgather(&st.group, 1, MPI_INT, group_of.data(), 1, MPI_INT, job);
  std::vector<int> members;
  for (int r = 0; r < np; ++r)
    if (group_of[r] == st.group) members.push_back(r);
  const int index = int(std::find(members.begin(), members.end(), rank) - members.begin());

  optiq::iobench::RankData mine;
  try {
    mine = optiq::iobench::file_patterns(a.workload, a.layout, int(members.size()), a.per_rank)[index];
  } catch (const std::invalid_argument& e) {
    fail(e.what());
  }
  std::vector<int> counts;
  std::vector<const optiq_io_extent*> lists;
  std::vector<const void*> data;
  // Simulated I/O nodes check bytes by count only: the arrays may then be one allocation shared
  // by all simulated ranks (memory.hpp), and their contents do not matter.
  std::vector<std::unique_ptr<optiq::rt::io::Memory>> simulated;
  long long bytes = 0;
  if (!fwd) optiq::iobench::fill(mine, rank, a.seed);
  for (std::size_t v = 0; v < mine.vars.size(); ++v) {
    counts.push_back(int(mine.vars[v].size()));
    lists.push_back(mine.vars[v].data());
    long long n = 0;
    for (const auto& e : mine.vars[v]) n += e.bytes * e.count;
    bytes += n;
    if (fwd) {
      simulated.push_back(std::make_unique<optiq::rt::io::Memory>(optiq::Bytes(n)));
      data.push_back(simulated.back()->get());
    } else {
      data.push_back(mine.data[v].data());
    }
  }
  check(optiq_file_declare(f, int(counts.size()), counts.data(), lists.data()), ctx, "optiq_file_declare");
  MPI_Allreduce(&bytes, &m.total, 1, MPI_LONG_LONG, MPI_SUM, job);

  // The reference: the same pieces through MPI-IO into a file of the same group. The two
  // writes alternate, so that both see the same state of the machine and its page cache.
  MPI_Comm group;
  MPI_Comm_split(job, st.group, rank, &group);
  const std::string suffix = a.files == "pset" ? "." + std::to_string(st.group) : "";
  const std::string mpiio_path = a.dir + "/mpiio.dat" + suffix;
  MPI_File fh = MPI_FILE_NULL;
  MPI_Info info = MPI_INFO_NULL;
  if (!fwd) {
    if (index == 0) MPI_File_delete(mpiio_path.c_str(), MPI_INFO_NULL);
    MPI_Barrier(group);
    if (a.hints) {
      MPI_Info_create(&info);
      MPI_Info_set(info, "cb_nodes", std::to_string(a.aggregators).c_str());
      MPI_Info_set(info, "cb_buffer_size", std::to_string(a.buffer).c_str());
      MPI_Info_set(info, "romio_cb_write", "enable");
    }
    if (MPI_File_open(group, mpiio_path.c_str(), MPI_MODE_CREATE | MPI_MODE_RDWR, info, &fh) != MPI_SUCCESS)
      fail("MPI_File_open cannot create " + mpiio_path);
  }
  {
    const optiq::iobench::RankData nothing;
    MpiioWrite w(fwd ? nothing : mine);  // both lvalues: the datatypes hold addresses into `mine`
    if (!fwd) MPI_File_set_view(fh, 0, MPI_BYTE, w.file, "native", info);
    for (int i = 0; i < a.warmup + a.iterations; ++i) {
      MPI_Barrier(job);
      double t = MPI_Wtime();
      check(optiq_file_write(f, data.data()), ctx, "optiq_file_write");
      if (fwd) optiq::iobench::sync(*fwd);
      const double ours = slowest(MPI_Wtime() - t, job);
      if (i >= a.warmup) m.optiq.push_back(ours);
      if (fwd) continue;
      MPI_Barrier(job);
      t = MPI_Wtime();
      MPI_File_write_at_all(fh, 0, w.count ? MPI_BOTTOM : nullptr, w.count, w.memory, MPI_STATUS_IGNORE);
      const double theirs = slowest(MPI_Wtime() - t, job);
      if (i >= a.warmup) m.mpiio.push_back(theirs);
    }
  }
  if (!fwd) MPI_File_close(&fh);
  if (info != MPI_INFO_NULL) MPI_Info_free(&info);

  // Both files byte for byte (the patterns have no holes), and optiq's read of its own.
  int same = 1;
  if (!fwd && a.sink != "null") {
    if (index == 0) same = read_whole(optiq_path + suffix) == read_whole(mpiio_path) ? 1 : 0;
    std::vector<std::vector<char>> back;
    std::vector<void*> into;
    for (const auto& d : mine.data) back.emplace_back(d.size());
    for (auto& b : back) into.push_back(b.data());
    MPI_Barrier(job);
    const double t = MPI_Wtime();
    check(optiq_file_read(f, into.data()), ctx, "optiq_file_read");
    m.read_seconds = slowest(MPI_Wtime() - t, job);
    if (back != mine.data) same = 0;
  }
  MPI_Allreduce(&same, &m.identical, 1, MPI_INT, MPI_MIN, job);
  optiq_file_stats(f, &st);
  m.aggregators = st.aggregator > 0 ? 1 : 0;
  m.rounds = st.rounds;
  MPI_Allreduce(MPI_IN_PLACE, &m.aggregators, 1, MPI_INT, MPI_SUM, job);
  MPI_Allreduce(MPI_IN_PLACE, &m.rounds, 1, MPI_INT, MPI_MAX, job);
  MPI_Allreduce(&st.group, &m.groups, 1, MPI_INT, MPI_MAX, job);
  ++m.groups;
  check(optiq_file_close(&f), ctx, "optiq_file_close");
  MPI_Comm_free(&group);
  MPI_Barrier(job);
  if (!fwd && !a.keep && index == 0) {
    unlink((optiq_path + suffix).c_str());
    unlink(mpiio_path.c_str());
  }
  optiq_destroy(&ctx);
  return m;
}

nlohmann::json rates(const std::vector<double>& seconds, long long total) {
  if (seconds.empty()) return nullptr;
  std::vector<double> r;
  for (double s : seconds) r.push_back(s > 0 ? double(total) / s : 0.0);
  return {{"median", median(r)}, {"min", *std::min_element(r.begin(), r.end())},
          {"max", *std::max_element(r.begin(), r.end())}, {"all", r}};
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, np;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &np);
  Args a = optiq::iobench::parse(argc, argv);

  // With --io-ranks the job is every rank but the last `servers`, which serve the I/O nodes.
  IoRanks io;
  MPI_Comm job = MPI_COMM_WORLD, fwd_comm = MPI_COMM_NULL;
  int compute = np;
  if (a.io_ranks) {
    if (a.topology.empty()) fail("--io-ranks needs a --topology with I/O nodes (mira:N+io)");
    io = io_ranks_of(a.topology, np, a.ranks_per_node, rank);
    compute = np - io.servers;
    MPI_Comm_dup(MPI_COMM_WORLD, &fwd_comm);
    MPI_Comm_split(MPI_COMM_WORLD, rank < compute ? 0 : 1, rank, &job);
  }
  if (a.topology.empty()) a.topology = "torus:" + std::to_string((np + a.ranks_per_node - 1) / a.ranks_per_node);

  Measured m;
  optiq::iobench::Served served;
  if (rank < compute) {
    optiq::iobench::Forwarder forwarder;
    if (a.io_ranks) {
      forwarder.comm = fwd_comm;
      forwarder.server = io.server;
    }
    m = run_job(a, job, a.io_ranks ? &forwarder : nullptr);
    if (a.io_ranks) optiq::iobench::finish(forwarder, compute, io.servers);
  } else {
    const std::string disk = a.disk ? (a.dir.empty() ? "" : a.dir + "/") + "io-node." + std::to_string(rank - compute) : "";
    served = optiq::iobench::serve(fwd_comm, compute, (long long)a.buffer, disk);
  }
  long long delivered = 0, stored = 0;
  MPI_Reduce(&served.received, &delivered, 1, MPI_LONG_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
  MPI_Reduce(&served.stored, &stored, 1, MPI_LONG_LONG, MPI_SUM, 0, MPI_COMM_WORLD);

  if (rank == 0) {
    // The null sink and the simulated I/O nodes leave nothing to compare.
    const bool compared = !a.io_ranks && a.sink != "null";
    nlohmann::json out = {{"identical", compared ? nlohmann::json(m.identical == 1) : nlohmann::json(nullptr)},
                          {"optiq_write_bps", rates(m.optiq, m.total)},
                          {"mpiio_write_bps", rates(m.mpiio, m.total)},
                          {"optiq_read_bps", m.read_seconds > 0 ? double(m.total) / m.read_seconds : 0.0},
                          {"bytes", m.total},
                          {"ranks", compute},
                          {"topology", a.topology},
                          {"workload", a.workload},
                          {"layout", a.workload == "hacc" ? a.layout : "contiguous"},
                          {"per_rank", a.per_rank},
                          {"files", a.files},
                          {"file_groups", m.groups},
                          {"aggregators", m.aggregators},
                          {"buffer", a.buffer},
                          {"rounds", m.rounds},
                          {"sink", a.io_ranks ? "io-ranks" : a.sink},
                          {"overlap", a.overlap},
                          {"forward", a.forward},
                          {"placement", a.placement.empty() ? nlohmann::json(nullptr) : nlohmann::json(a.placement)},
                          {"mpiio_hints", a.hints},
                          {"iterations", a.iterations},
                          {"kept", a.keep ? nlohmann::json(a.dir) : nlohmann::json(nullptr)}};
    if (a.io_ranks) {
      out["io_ranks"] = io.servers;
      // Every write's bytes reached the I/O nodes exactly once in total.
      out["io_node_bytes"] = delivered;
      out["delivered"] = delivered == m.total * (long long)(a.warmup + a.iterations);
      out["disk"] = a.disk;
      out["disk_bytes"] = stored;
    }
    std::printf("%s\n", out.dump().c_str());
  }
  MPI_Finalize();
  return 0;
}
