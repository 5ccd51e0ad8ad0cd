#include "tools/io_bench/job.hpp"

#include <unistd.h>

#include <algorithm>
#include <memory>
#include <stdexcept>
#include <string>

#include "runtime/io/memory.hpp"
#include "tools/io_bench/reference.hpp"
#include "tools/io_bench/workload.hpp"

namespace optiq::iobench {

namespace {

void check(int status, optiq_t ctx, const char* what) {
  if (status != OPTIQ_SUCCESS) fail(std::string(what) + ": " + optiq_error_string(ctx));
}

double slowest(double seconds, MPI_Comm job) {
  double out = 0;
  MPI_Allreduce(&seconds, &out, 1, MPI_DOUBLE, MPI_MAX, job);
  return out;
}

// optiq's side of the job: the context, the open file and this rank's place in its file group.
struct OptiqFile {
  optiq_t ctx = nullptr;
  optiq_file_t f = nullptr;
  optiq_io_options io{};
  optiq_io_custom_sink forward{};
  optiq_io_stats st{};
  int index = 0;        // this rank among its group's members
  int group_size = 0;
  std::string path;     // optiq's file (its group's suffix excluded)
  std::string suffix;   // ".G" with one file per group
};

void open_file(const Args& a, MPI_Comm job, Forwarder* fwd, OptiqFile& o) {
  int rank, np;
  MPI_Comm_rank(job, &rank);
  MPI_Comm_size(job, &np);
  const optiq_options co = a.runtime_options();
  check(optiq_create(job, a.topology.c_str(), &co, &o.ctx), o.ctx, "optiq_create");
  o.io = a.io_options();
  if (fwd) {
    o.forward = forwarding_sink(fwd);
    o.io.sink = OPTIQ_SINK_CUSTOM;
    o.io.custom = &o.forward;
  }
  o.path = (fwd ? std::string(".") : a.dir) + "/optiq.dat";
  check(optiq_file_open(o.ctx, o.path.c_str(), OPTIQ_IO_CREATE, &o.io, &o.f), o.ctx, "optiq_file_open");
  optiq_file_stats(o.f, &o.st);
  std::vector<int> group_of(np);
  MPI_Allgather(&o.st.group, 1, MPI_INT, group_of.data(), 1, MPI_INT, job);
  for (int r = 0; r < np; ++r) {
    if (group_of[r] != o.st.group) continue;
    if (r == rank) o.index = o.group_size;
    ++o.group_size;
  }
  o.suffix = o.io.files == OPTIQ_FILES_GROUP ? "." + std::to_string(o.st.group) : "";
}

// This rank's pieces, declared to optiq: the arrays optiq_file_write reads.
struct Pieces {
  RankData mine;
  std::vector<int> counts;
  std::vector<const optiq_io_extent*> lists;
  std::vector<const void*> data;
  // Simulated I/O nodes check bytes by count only: the arrays may then be one allocation
  // shared by all simulated ranks (memory.hpp), and their contents do not matter.
  std::vector<std::unique_ptr<rt::io::Memory>> simulated;
};

long long declare(const Args& a, OptiqFile& o, bool simulated_io, int rank, Pieces& p) {
  try {
    p.mine = file_patterns(a.workload, a.layout, o.group_size, a.per_rank)[o.index];
  } catch (const std::invalid_argument& e) {
    fail(e.what());
  }
  long long bytes = 0;
  if (!simulated_io) fill(p.mine, rank, a.seed);
  for (std::size_t v = 0; v < p.mine.vars.size(); ++v) {
    p.counts.push_back(int(p.mine.vars[v].size()));
    p.lists.push_back(p.mine.vars[v].data());
    long long n = 0;
    for (const auto& e : p.mine.vars[v]) n += e.bytes * e.count;
    bytes += n;
    if (simulated_io) {
      p.simulated.push_back(std::make_unique<rt::io::Memory>(Bytes(n)));
      p.data.push_back(p.simulated.back()->get());
    } else {
      p.data.push_back(p.mine.data[v].data());
    }
  }
  check(optiq_file_declare(o.f, int(p.counts.size()), p.counts.data(), p.lists.data()), o.ctx, "optiq_file_declare");
  return bytes;
}

// The reference file: the same pieces through MPI-IO into a file of the same group.
MPI_File open_reference(const Args& a, const OptiqFile& o, MPI_Comm group, const std::string& path, MPI_Info& info) {
  if (o.index == 0) MPI_File_delete(path.c_str(), MPI_INFO_NULL);
  MPI_Barrier(group);
  if (a.hints) {
    MPI_Info_create(&info);
    MPI_Info_set(info, "cb_nodes", std::to_string(o.io.aggregators).c_str());
    MPI_Info_set(info, "cb_buffer_size", std::to_string(o.io.buffer_bytes).c_str());
    MPI_Info_set(info, "romio_cb_write", "enable");
  }
  MPI_File fh = MPI_FILE_NULL;
  if (MPI_File_open(group, path.c_str(), MPI_MODE_CREATE | MPI_MODE_RDWR, info, &fh) != MPI_SUCCESS)
    fail("MPI_File_open cannot create " + path);
  return fh;
}

// The two writes alternate, so that both see the same state of the machine and its page cache.
void time_writes(const Args& a, OptiqFile& o, Pieces& p, Forwarder* fwd, MPI_File fh, MPI_Info info, MPI_Comm job,
                 Measured& m) {
  const RankData nothing;
  MpiioWrite w(fwd ? nothing : p.mine);  // both lvalues: the datatypes hold addresses into `mine`
  if (!fwd) MPI_File_set_view(fh, 0, MPI_BYTE, w.file, "native", info);
  for (int i = 0; i < a.warmup + a.iterations; ++i) {
    MPI_Barrier(job);
    double t = MPI_Wtime();
    check(optiq_file_write(o.f, p.data.data()), o.ctx, "optiq_file_write");
    if (fwd) sync(*fwd);
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

// Both files byte for byte (the patterns have no holes), and optiq's read of its own.
void compare_and_read(OptiqFile& o, const Pieces& p, const std::string& reference, MPI_Comm job, Measured& m) {
  int same = 1;
  if (o.index == 0) same = read_whole(o.path + o.suffix) == read_whole(reference) ? 1 : 0;
  std::vector<std::vector<char>> back;
  std::vector<void*> into;
  for (const auto& d : p.mine.data) back.emplace_back(d.size());
  for (auto& b : back) into.push_back(b.data());
  MPI_Barrier(job);
  const double t = MPI_Wtime();
  check(optiq_file_read(o.f, into.data()), o.ctx, "optiq_file_read");
  m.read_seconds = slowest(MPI_Wtime() - t, job);
  if (back != p.mine.data) same = 0;
  MPI_Allreduce(&same, &m.identical, 1, MPI_INT, MPI_MIN, job);
}

void tally(OptiqFile& o, MPI_Comm job, Measured& m) {
  optiq_file_stats(o.f, &o.st);
  m.aggregators = o.st.aggregator > 0 ? 1 : 0;
  m.rounds = o.st.rounds;
  MPI_Allreduce(MPI_IN_PLACE, &m.aggregators, 1, MPI_INT, MPI_SUM, job);
  MPI_Allreduce(MPI_IN_PLACE, &m.rounds, 1, MPI_INT, MPI_MAX, job);
  MPI_Allreduce(&o.st.group, &m.groups, 1, MPI_INT, MPI_MAX, job);
  ++m.groups;
}

}  // namespace

Measured run_job(const Args& a, MPI_Comm job, Forwarder* fwd) {
  int rank;
  MPI_Comm_rank(job, &rank);
  Measured m;
  OptiqFile o;
  open_file(a, job, fwd, o);
  Pieces p;
  const long long bytes = declare(a, o, fwd != nullptr, rank, p);
  MPI_Allreduce(&bytes, &m.total, 1, MPI_LONG_LONG, MPI_SUM, job);

  MPI_Comm group;
  MPI_Comm_split(job, o.st.group, rank, &group);
  const std::string reference = a.dir + "/mpiio.dat" + o.suffix;
  MPI_Info info = MPI_INFO_NULL;
  MPI_File fh = fwd ? MPI_FILE_NULL : open_reference(a, o, group, reference, info);
  time_writes(a, o, p, fwd, fh, info, job, m);
  if (!fwd) MPI_File_close(&fh);
  if (info != MPI_INFO_NULL) MPI_Info_free(&info);
  if (!fwd && o.io.sink != OPTIQ_SINK_NULL) compare_and_read(o, p, reference, job, m);
  else MPI_Allreduce(MPI_IN_PLACE, &m.identical, 1, MPI_INT, MPI_MIN, job);
  tally(o, job, m);
  check(optiq_file_close(&o.f), o.ctx, "optiq_file_close");
  MPI_Comm_free(&group);
  MPI_Barrier(job);
  if (!fwd && !a.keep && o.index == 0) {
    unlink((o.path + o.suffix).c_str());
    unlink(reference.c_str());
  }
  optiq_destroy(&o.ctx);
  return m;
}

}  // namespace optiq::iobench
