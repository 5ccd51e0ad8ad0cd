// optiq-io-bench: the same collective write with optiq (optiq/io.h) and with
// MPI_File_write_at_all, timed, both files compared byte for byte and read back through optiq.
// `optiq io-bench` launches it; its last stdout line is the JSON result.
#include <mpi.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <map>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>
#include <vector>

#include "optiq/io.h"
#include "workload.hpp"

namespace {

struct Args {
  std::string topology, workload = "hacc", layout = "aos", files = "shared", dir, placement, sink = "pwrite";
  long long per_rank = 1 << 20;
  int ranks_per_node = 1, group_nodes = 128, aggregators = 16, iterations = 5, warmup = 1;
  unsigned long long buffer = 16ULL << 20, seed = 1;
  bool keep = false, hints = false;
};

[[noreturn]] void fail(const std::string& message) {
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank == 0) std::fprintf(stderr, "optiq-io-bench: error: %s\n", message.c_str());
  MPI_Finalize();
  std::exit(2);
}

long long number(const std::string& flag, const std::string& text, long long lo, long long hi) {
  try {
    std::size_t used = 0;
    const long long v = std::stoll(text, &used);
    if (used == text.size() && v >= lo && v <= hi) return v;
  } catch (const std::exception&) {
  }
  fail(flag + " wants an integer in [" + std::to_string(lo) + ", " + std::to_string(hi) + "], got '" + text + "'");
}

unsigned long long size(const std::string& flag, const std::string& text) {
  unsigned long long v = 0;
  if (optiq_parse_size(text.c_str(), &v) != OPTIQ_SUCCESS) fail(flag + ": not a byte size: '" + text + "'");
  return v;
}

Args parse(int argc, char** argv) {
  Args a;
  for (int i = 1; i < argc; ++i) {
    const std::string f = argv[i];
    if (f == "--keep") { a.keep = true; continue; }
    if (f == "--hints") { a.hints = true; continue; }
    if (i + 1 >= argc) fail("missing value after " + f);
    const std::string v = argv[++i];
    if (f == "--topology") a.topology = v;
    else if (f == "--ranks-per-node") a.ranks_per_node = int(number(f, v, 1, 1 << 20));
    else if (f == "--workload") a.workload = v;
    else if (f == "--layout") a.layout = v;
    else if (f == "--per-rank") a.per_rank = (long long)size(f, v);
    else if (f == "--files") a.files = v;
    else if (f == "--group-nodes") a.group_nodes = int(number(f, v, 1, 1 << 30));
    else if (f == "--aggregators") a.aggregators = int(number(f, v, 1, 1 << 20));
    else if (f == "--buffer") a.buffer = size(f, v);
    else if (f == "--placement") a.placement = v;
    else if (f == "--sink") a.sink = v;
    else if (f == "--dir") a.dir = v;
    else if (f == "--iterations") a.iterations = int(number(f, v, 1, 100000));
    else if (f == "--warmup") a.warmup = int(number(f, v, 0, 100000));
    else if (f == "--seed") a.seed = (unsigned long long)number(f, v, 0, (1LL << 62));
    else fail("unknown option " + f);
  }
  if (a.dir.empty()) fail("--dir is required");
  if (a.files != "shared" && a.files != "pset") fail("--files is shared or pset, got '" + a.files + "'");
  if (a.sink != "pwrite" && a.sink != "mpiio" && a.sink != "null") fail("--sink is pwrite, mpiio or null");
  if (a.per_rank > (1LL << 40)) fail("--per-rank is limited to 1 TiB");
  return a;
}

void check(int status, optiq_t ctx, const char* what) {
  if (status != OPTIQ_SUCCESS) fail(std::string(what) + ": " + optiq_error_string(ctx));
}

double slowest(double seconds) {
  double out = 0;
  MPI_Allreduce(&seconds, &out, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  return out;
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.size() % 2 ? v[v.size() / 2] : (v[v.size() / 2 - 1] + v[v.size() / 2]) / 2;
}

// MPI_File_write_at_all as an application writes these variables: a file view of the pieces and
// a memory datatype over its arrays, so the MPI library does its own packing.
struct MpiioWrite {
  MPI_Datatype file = MPI_BYTE, memory = MPI_BYTE;
  int count = 0;
  MpiioWrite(const optiq::iobench::RankData& r) {
    struct Piece {
      long long offset, bytes;
      const char* from;
    };
    std::vector<Piece> pieces;
    for (std::size_t v = 0; v < r.vars.size(); ++v) {
      const char* at = r.data[v].data();
      for (const auto& e : r.vars[v])
        for (long long c = 0; c < e.count && e.bytes > 0; ++c, at += e.bytes)
          pieces.push_back({e.offset + c * e.stride, e.bytes, at});
    }
    std::sort(pieces.begin(), pieces.end(), [](const Piece& a, const Piece& b) { return a.offset < b.offset; });
    if (pieces.empty()) return;
    std::vector<int> lengths;
    std::vector<MPI_Aint> offsets, addresses;
    for (const Piece& p : pieces) {
      lengths.push_back(int(p.bytes));
      offsets.push_back(MPI_Aint(p.offset));
      MPI_Aint a;
      MPI_Get_address(p.from, &a);
      addresses.push_back(a);
    }
    MPI_Type_create_hindexed(int(pieces.size()), lengths.data(), offsets.data(), MPI_BYTE, &file);
    MPI_Type_create_hindexed(int(pieces.size()), lengths.data(), addresses.data(), MPI_BYTE, &memory);
    MPI_Type_commit(&file);
    MPI_Type_commit(&memory);
    count = 1;
  }
  ~MpiioWrite() {
    if (file != MPI_BYTE) MPI_Type_free(&file), MPI_Type_free(&memory);
  }
};

std::string read_whole(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, np;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &np);
  Args a = parse(argc, argv);
  if (a.topology.empty()) a.topology = "torus:" + std::to_string((np + a.ranks_per_node - 1) / a.ranks_per_node);

  optiq_options co;
  optiq_options_init(&co);
  co.ranks_per_node = a.ranks_per_node;
  optiq_t ctx = nullptr;
  check(optiq_create(MPI_COMM_WORLD, a.topology.c_str(), &co, &ctx), ctx, "optiq_create");

  optiq_io_options io;
  optiq_io_options_init(&io);
  io.files = a.files == "pset" ? OPTIQ_FILES_GROUP : OPTIQ_FILES_SHARED;
  io.group_nodes = a.group_nodes;
  io.aggregators = a.aggregators;
  io.buffer_bytes = a.buffer;
  io.placement = a.placement.empty() ? nullptr : a.placement.c_str();
  io.sink = a.sink == "mpiio" ? OPTIQ_SINK_MPIIO : a.sink == "null" ? OPTIQ_SINK_NULL : OPTIQ_SINK_PWRITE;
  const std::string optiq_path = a.dir + "/optiq.dat";
  optiq_file_t f = nullptr;
  check(optiq_file_open(ctx, optiq_path.c_str(), OPTIQ_IO_CREATE, &io, &f), ctx, "optiq_file_open");
  optiq_io_stats st;
  optiq_file_stats(f, &st);
  std::vector<int> group_of(np);
  MPI_Allgather(&st.group, 1, MPI_INT, group_of.data(), 1, MPI_INT, MPI_COMM_WORLD);
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
  optiq::iobench::fill(mine, rank, a.seed);
  std::vector<int> counts;
  std::vector<const optiq_io_extent*> lists;
  std::vector<const void*> data;
  for (std::size_t v = 0; v < mine.vars.size(); ++v) {
    counts.push_back(int(mine.vars[v].size()));
    lists.push_back(mine.vars[v].data());
    data.push_back(mine.data[v].data());
  }
  check(optiq_file_declare(f, int(counts.size()), counts.data(), lists.data()), ctx, "optiq_file_declare");
  long long bytes = mine.bytes(), total = 0;
  MPI_Allreduce(&bytes, &total, 1, MPI_LONG_LONG, MPI_SUM, MPI_COMM_WORLD);

  // The reference: the same pieces through MPI-IO into a file of the same group. The two
  // writes alternate, so that both see the same state of the machine and its page cache.
  MPI_Comm group;
  MPI_Comm_split(MPI_COMM_WORLD, st.group, rank, &group);
  const std::string suffix = a.files == "pset" ? "." + std::to_string(st.group) : "";
  const std::string mpiio_path = a.dir + "/mpiio.dat" + suffix;
  if (index == 0) MPI_File_delete(mpiio_path.c_str(), MPI_INFO_NULL);
  MPI_Barrier(group);
  MPI_Info info = MPI_INFO_NULL;
  if (a.hints) {
    MPI_Info_create(&info);
    MPI_Info_set(info, "cb_nodes", std::to_string(a.aggregators).c_str());
    MPI_Info_set(info, "cb_buffer_size", std::to_string(a.buffer).c_str());
    MPI_Info_set(info, "romio_cb_write", "enable");
  }
  MPI_File fh;
  if (MPI_File_open(group, mpiio_path.c_str(), MPI_MODE_CREATE | MPI_MODE_RDWR, info, &fh) != MPI_SUCCESS)
    fail("MPI_File_open cannot create " + mpiio_path);
  std::vector<double> optiq_times, mpiio_times;
  {
    MpiioWrite w(mine);
    MPI_File_set_view(fh, 0, MPI_BYTE, w.file, "native", info);
    for (int i = 0; i < a.warmup + a.iterations; ++i) {
      MPI_Barrier(MPI_COMM_WORLD);
      double t = MPI_Wtime();
      check(optiq_file_write(f, data.data()), ctx, "optiq_file_write");
      const double ours = slowest(MPI_Wtime() - t);
      MPI_Barrier(MPI_COMM_WORLD);
      t = MPI_Wtime();
      MPI_File_write_at_all(fh, 0, w.count ? MPI_BOTTOM : nullptr, w.count, w.memory, MPI_STATUS_IGNORE);
      const double theirs = slowest(MPI_Wtime() - t);
      if (i >= a.warmup) optiq_times.push_back(ours), mpiio_times.push_back(theirs);
    }
  }
  MPI_File_close(&fh);
  if (info != MPI_INFO_NULL) MPI_Info_free(&info);

  // Both files byte for byte (the patterns have no holes), and optiq's read of its own.
  int same = 1;
  if (a.sink != "null" && index == 0) same = read_whole(optiq_path + suffix) == read_whole(mpiio_path) ? 1 : 0;
  double read_seconds = 0;
  if (a.sink != "null") {
    std::vector<std::vector<char>> back;
    std::vector<void*> into;
    for (const auto& d : mine.data) back.emplace_back(d.size());
    for (auto& b : back) into.push_back(b.data());
    MPI_Barrier(MPI_COMM_WORLD);
    const double t = MPI_Wtime();
    check(optiq_file_read(f, into.data()), ctx, "optiq_file_read");
    read_seconds = slowest(MPI_Wtime() - t);
    if (back != mine.data) same = 0;
  }
  int identical = 0;
  MPI_Allreduce(&same, &identical, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  optiq_file_stats(f, &st);
  int aggregators = st.aggregator > 0 ? 1 : 0, rounds = st.rounds, groups = 0;
  MPI_Allreduce(MPI_IN_PLACE, &aggregators, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  MPI_Allreduce(MPI_IN_PLACE, &rounds, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  MPI_Allreduce(&st.group, &groups, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  check(optiq_file_close(&f), ctx, "optiq_file_close");
  MPI_Comm_free(&group);
  MPI_Barrier(MPI_COMM_WORLD);
  if (!a.keep && index == 0) {
    unlink((optiq_path + suffix).c_str());
    unlink(mpiio_path.c_str());
  }
  optiq_destroy(&ctx);

  if (rank == 0) {
    const auto bps = [&](const std::vector<double>& t) {
      std::vector<double> rates;
      for (double s : t) rates.push_back(s > 0 ? double(total) / s : 0.0);
      return nlohmann::json{{"median", median(rates)}, {"min", *std::min_element(rates.begin(), rates.end())},
                            {"max", *std::max_element(rates.begin(), rates.end())}, {"all", rates}};
    };
    // The null sink leaves nothing to compare.
    nlohmann::json out = {{"identical", a.sink == "null" ? nlohmann::json(nullptr) : nlohmann::json(identical == 1)},
                          {"optiq_write_bps", bps(optiq_times)},
                          {"mpiio_write_bps", bps(mpiio_times)},
                          {"optiq_read_bps", read_seconds > 0 ? double(total) / read_seconds : 0.0},
                          {"bytes", total},
                          {"ranks", np},
                          {"topology", a.topology},
                          {"workload", a.workload},
                          {"layout", a.workload == "hacc" ? a.layout : "contiguous"},
                          {"per_rank", a.per_rank},
                          {"files", a.files},
                          {"file_groups", groups + 1},
                          {"aggregators", aggregators},
                          {"buffer", a.buffer},
                          {"rounds", rounds},
                          {"sink", a.sink},
                          {"mpiio_hints", a.hints},
                          {"iterations", a.iterations},
                          {"kept", a.keep ? nlohmann::json(a.dir) : nlohmann::json(nullptr)}};
    std::printf("%s\n", out.dump().c_str());
  }
  MPI_Finalize();
  return 0;
}
