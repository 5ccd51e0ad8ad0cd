// The C entry points of optiq/io.h: argument checks, agreement, and the file's groups.
#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include "runtime/api/warn_once.hpp"
#include "runtime/io/file.hpp"
#include "optiq/core/aggregation.hpp"
#include "optiq/core/options.hpp"

using optiq::rt::Comms;
using optiq::rt::Failure;
using optiq::rt::agree_status;
using optiq::rt::guarded;

namespace optiq::rt::io {

namespace {

void check_options(const optiq_io_options& o) {
  if (o.files != OPTIQ_FILES_SHARED && o.files != OPTIQ_FILES_GROUP)
    throw Error("options.files must be OPTIQ_FILES_SHARED or OPTIQ_FILES_GROUP");
  if (o.group_nodes < 1) throw Error("options.group_nodes must be >= 1, got " + std::to_string(o.group_nodes));
  if (o.aggregators < 1) throw Error("options.aggregators must be >= 1, got " + std::to_string(o.aggregators));
  if (o.buffer_bytes == 0 || o.buffer_bytes >= (size_t(1) << 31))
    throw Error("options.buffer_bytes must be between 1 and 2 GiB - 1, got " + std::to_string(o.buffer_bytes));
  if (o.sink != OPTIQ_SINK_PWRITE && o.sink != OPTIQ_SINK_MPIIO && o.sink != OPTIQ_SINK_NULL &&
      o.sink != OPTIQ_SINK_CUSTOM)
    throw Error("options.sink must be OPTIQ_SINK_PWRITE, OPTIQ_SINK_MPIIO, OPTIQ_SINK_NULL or OPTIQ_SINK_CUSTOM");
  if (o.sink == OPTIQ_SINK_CUSTOM && (!o.custom || !o.custom->start || !o.custom->wait))
    throw Error("OPTIQ_SINK_CUSTOM needs options.custom with both start and wait");
  if (o.placement) {
    const std::string p = o.placement;
    const auto names = placement_names();
    if (p != "spread" && std::find(names.begin(), names.end(), p) == names.end()) {
      std::string all = "spread";
      for (const auto& n : names) all += ", " + n;
      throw Error("unknown placement '" + p + "' (one of: " + all + ")");
    }
  }
}

bool has_io_nodes(const Network& net) {
  for (NodeId v = 0; v < net.num_vertices(); ++v)
    if (net.kind(v) == VertexKind::Io) return true;
  return false;
}

// The group key of this rank (equal keys share a file) and its group's I/O node.
std::pair<long long, NodeId> group_key(const optiq_context* ctx, const optiq_io_options& o, int rank) {
  const Network& net = *ctx->topo;
  const NodeId node = ctx->placement->node_of(rank);
  const auto& eps = net.endpoints();
  const long long index = std::lower_bound(eps.begin(), eps.end(), node) - eps.begin();
  if (!has_io_nodes(net)) return {o.files == OPTIQ_FILES_SHARED ? 0 : index / o.group_nodes, -1};
  // Each rank asks about its own node only: every simulated rank asking about all 4,096 nodes of
  // mira:4096+io took a quarter of an hour of wall clock under SMPI.
  if (o.files == OPTIQ_FILES_GROUP) {
    const NodeId io = io_node_of_endpoint(net, *ctx->routing, node);
    return {io, io};
  }
  // A shared file has one I/O node when every endpoint reaches the same one; on BG/Q the second
  // pset's first node already tells otherwise.
  const NodeId first = io_node_of_endpoint(net, *ctx->routing, eps.front());
  for (NodeId e : eps)
    if (io_node_of_endpoint(net, *ctx->routing, e) != first) return {0, -1};
  return {0, first};
}

void create_or_check(const std::string& path, optiq_io_mode mode) {
  const int flags = mode == OPTIQ_IO_CREATE ? O_CREAT | O_TRUNC | O_RDWR : mode == OPTIQ_IO_RDWR ? O_RDWR : O_RDONLY;
  const int fd = open(path.c_str(), flags, 0644);
  if (fd < 0) throw Failure(OPTIQ_ERR_IO, "cannot open '" + path + "': " + std::strerror(errno));
  close(fd);
}

void free_file(optiq_file* f) {
  f->declared.reset();
  if (f->group != MPI_COMM_NULL) MPI_Comm_free(&f->group);
  if (f->comm != MPI_COMM_NULL) MPI_Comm_free(&f->comm);
  delete f;
}

void open_file(optiq_context* ctx, const char* path, optiq_io_mode mode, const optiq_io_options* options,
               optiq_file_t* out) {
  std::unique_ptr<optiq_file, void (*)(optiq_file*)> f(new optiq_file, free_file);
  f->ctx = ctx;
  const Verdict local = verdict([&] {
    if (!path || !*path) throw Error("path is NULL or empty");
    if (!out) throw Error("the file handle pointer is NULL");
    if (mode != OPTIQ_IO_CREATE && mode != OPTIQ_IO_RDWR && mode != OPTIQ_IO_RDONLY)
      throw Error("mode must be OPTIQ_IO_CREATE, OPTIQ_IO_RDWR or OPTIQ_IO_RDONLY");
    if (options) {
      f->options = *options;
    } else {
      optiq_io_options_init(&f->options);
    }
    check_options(f->options);
    if (f->options.placement) f->placement = f->options.placement;
    f->options.placement = nullptr;
    if (f->options.sink == OPTIQ_SINK_CUSTOM) f->custom = *f->options.custom;
    f->options.custom = nullptr;
    f->mode = mode;
  });
  agree_status(ctx->comms, local.code, local.message);
  // Path, mode and options must match on every rank (docs/errors.md): one file, one layout.
  std::vector<std::string> texts{path, std::to_string(mode), f->placement};
  for (const OptionRecord& r : option_records("io")) texts.push_back(get_option(f->options, r.name));
  agree_same(ctx->comms, fingerprint(texts), "a path, mode or I/O options");

  MPI_Comm_dup(ctx->comms.ctrl, &f->comm);
  const Comms all = comms_of(f->comm);
  long long key = 0;
  const Verdict keyed = verdict([&] { std::tie(key, f->group_io) = group_key(ctx, f->options, all.rank); });
  f->io_nodes = has_io_nodes(*ctx->topo);
  agree_status(all, keyed.code, keyed.message);
  std::vector<long long> keys(all.size);
  MPI_Allgather(&key, 1, MPI_LONG_LONG, keys.data(), 1, MPI_LONG_LONG, f->comm);
  std::sort(keys.begin(), keys.end());
  keys.erase(std::unique(keys.begin(), keys.end()), keys.end());
  f->group_index = static_cast<int>(std::lower_bound(keys.begin(), keys.end(), key) - keys.begin());
  MPI_Comm_split(f->comm, f->group_index, all.rank, &f->group);
  MPI_Comm_rank(f->group, &f->group_rank);
  MPI_Comm_size(f->group, &f->group_size);
  f->path = f->options.files == OPTIQ_FILES_SHARED ? path : std::string(path) + "." + std::to_string(f->group_index);
  // Every buffer's worth is a round of one-sided puts and a file transfer: 1-byte buffers moved
  // about 3,000 rounds a second.
  constexpr Bytes kSmallBuffer = 4096;
  if (all.rank == 0 && f->options.buffer_bytes < kSmallBuffer)
    warn_once("io-buffer", "aggregation buffers of " + std::to_string(f->options.buffer_bytes) +
                               " bytes take one round each (about 3,000 rounds a second at 1 byte); use at least "
                               "4 KiB (default " + format_bytes(static_cast<Bytes>(option_default("io", "buffer"))) + ")");
  f->stats.group = f->group_index;

  // The null and custom sinks never reach the file system: the path is only a name then.
  const bool files = f->options.sink == OPTIQ_SINK_PWRITE || f->options.sink == OPTIQ_SINK_MPIIO;
  const Verdict made = verdict([&] {
    if (files && f->group_rank == 0) create_or_check(f->path, mode);
  });
  agree_status(all, made.code, made.message);
  *out = f.release();
}

}  // namespace

int usable(optiq_file* file) {
  if (!file) return OPTIQ_ERR_ARG;
  return optiq::rt::usable(file->ctx);
}

Declared::~Declared() {
  for (Transfer& t : transfers)
    if (t.type != MPI_DATATYPE_NULL) MPI_Type_free(&t.type);
  sink.reset();
  if (win != MPI_WIN_NULL) {
    if (base) MPI_Win_detach(win, base);
    MPI_Win_free(&win);
  }
}

}  // namespace optiq::rt::io

extern "C" {

int optiq_file_open(optiq_t ctx, const char* path, optiq_io_mode mode, const optiq_io_options* options,
                    optiq_file_t* file) {
  if (file) *file = nullptr;
  if (const int u = optiq::rt::usable(ctx)) return u;
  return guarded(ctx, [&] { optiq::rt::io::open_file(ctx, path, mode, options, file); });
}

int optiq_file_declare(optiq_file_t file, int nvars, const int counts[], const optiq_io_extent* const extents[]) {
  if (const int u = optiq::rt::io::usable(file)) return u;
  return guarded(file->ctx, [&] {
    std::vector<std::vector<optiq_io_extent>> vars;
    const optiq::rt::Verdict local = optiq::rt::verdict([&] {
      if (nvars < 0) throw optiq::Error("nvars must be >= 0, got " + std::to_string(nvars));
      if (nvars > 0 && (!counts || !extents)) throw optiq::Error("counts or extents is NULL");
      for (int v = 0; v < nvars; ++v) {
        if (counts[v] < 0) throw optiq::Error("counts[" + std::to_string(v) + "] is negative");
        if (counts[v] > 0 && !extents[v]) throw optiq::Error("extents[" + std::to_string(v) + "] is NULL");
        vars.emplace_back(extents[v], extents[v] + counts[v]);
      }
    });
    optiq::rt::io::agree_call(file, "declare", local);
    file->declared.reset();  // the old window and buffers go before the new ones come
    file->declared = optiq::rt::io::declare(file, vars);
  });
}

int optiq_file_write(optiq_file_t file, const void* const data[]) {
  if (const int u = optiq::rt::io::usable(file)) return u;
  return guarded(file->ctx, [&] { optiq::rt::io::write(file, data); });
}

int optiq_file_read(optiq_file_t file, void* const data[]) {
  if (const int u = optiq::rt::io::usable(file)) return u;
  return guarded(file->ctx, [&] { optiq::rt::io::read(file, data); });
}

int optiq_file_stats(optiq_file_t file, optiq_io_stats* stats) {
  if (!file || !stats) return OPTIQ_ERR_ARG;
  *stats = file->stats;
  return OPTIQ_SUCCESS;
}

int optiq_file_close(optiq_file_t* file) {
  if (!file || !*file) return OPTIQ_ERR_ARG;
  optiq_file* f = *file;
  if (const int u = optiq::rt::usable(f->ctx)) return u;
  // Only once every rank is closing does any free its window (collective): a rank still in
  // another call keeps the file, and so do the others, with the same status.
  const int agreed = guarded(f->ctx, [&] { optiq::rt::io::agree_call(f, "close", optiq::rt::Verdict{}); });
  if (agreed != OPTIQ_SUCCESS) return agreed;
  optiq::rt::io::free_file(f);
  *file = nullptr;
  return OPTIQ_SUCCESS;
}

}  // extern "C"
