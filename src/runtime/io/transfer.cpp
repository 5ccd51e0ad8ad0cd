// The two-phase pipelines. Writes: in epoch e every rank puts its pieces into buffer e % 2 of
// their aggregators while each aggregator writes buffer (e - 1) % 2; before the fence that
// opens epoch e the aggregator has finished writing epoch e - 2, the last user of buffer e % 2.
// Reads: the aggregator reads epoch e + 1 into the other buffer while ranks get epoch e.
#include <algorithm>
#include <cstring>
#include <memory>

#include "runtime/io/file.hpp"
#include "runtime/io/memory.hpp"

namespace optiq::rt::io {

Bytes copy_parts(const Declared& d, const Transfer& t, char* const* data, char* staged, Bytes at, bool pack) {
  for (std::size_t i = t.first; i < t.end; ++i) {
    const Part& p = d.parts[i];
    if (pack)
      std::memcpy(staged + at, data[p.var] + p.src, p.bytes);
    else
      std::memcpy(data[p.var] + p.src, staged + at, p.bytes);
    at += p.bytes;
  }
  return at;
}

namespace {

char* buffer_of(const Declared& d, int domain, int epoch) {
  return d.base + Bytes(2 * d.layout.slot(domain) + epoch % 2) * d.layout.buffer;
}

// What the aggregator writes (or reads) in one epoch, in file order: its buffers' bytes, and in
// between them its own parts straight from (or into) its variables.
std::vector<Span> spans_of(const Declared& d, int epoch, char* const* data) {
  std::vector<Span> out;
  auto own = std::lower_bound(d.own.begin(), d.own.end(), epoch, [](const Part& p, int e) { return p.epoch < e; });
  for (std::size_t i = 0; i < d.domains.size(); ++i) {
    const int k = d.domains[i];
    const Bytes start = d.layout.round_start(k, d.layout.active_rounds[epoch]);
    char* buffer = buffer_of(d, k, epoch);
    for (const Interval& iv : d.covered[i][epoch]) {
      Bytes at = iv.offset;
      for (; own != d.own.end() && own->epoch == epoch && own->domain == k && start + own->target < iv.end(); ++own) {
        const Bytes offset = start + own->target;
        if (offset > at) out.push_back({buffer + (at - start), at, offset - at});
        out.push_back({data[own->var] + own->src, offset, own->bytes});
        at = offset + own->bytes;
      }
      if (iv.end() > at) out.push_back({buffer + (at - start), at, iv.end() - at});
    }
  }
  if (own != d.own.end() && own->epoch == epoch) throw InternalError("an aggregator's own part lies outside its domains");
  return out;
}

// A rank that writes in place (Declared::in_place) moves its pieces between its variables and
// the file: at once when no epoch needs it meanwhile, else while it takes part in the epochs.
void start_in_place(Declared& d, char* const* data, bool write) {
  if (!d.sink || d.in_place.empty()) return;
  std::vector<Span> spans;
  for (const Block& b : d.in_place) spans.push_back({data[b.var] + b.src, b.offset, b.bytes});
  if (d.all_epochs == 0)
    d.sink->run(std::move(spans), write);
  else
    d.sink->start(std::move(spans), write);
}

Declared& checked(optiq_file* f, bool write, const void* const* data) {
  const Verdict local = verdict([&] {
    if (!f->declared) throw Error("no pattern declared: call optiq_file_declare first");
    if (write && f->mode == OPTIQ_IO_RDONLY) throw Error("the file was opened read-only (OPTIQ_IO_RDONLY)");
    if (!write && f->options.sink == OPTIQ_SINK_NULL) throw Error("the null sink keeps nothing to read");
    const auto& sizes = f->declared->var_bytes;
    for (std::size_t v = 0; v < sizes.size(); ++v)
      if (sizes[v] > 0 && (!data || !data[v]))
        throw Error("data[" + std::to_string(v) + "] is NULL but variable " + std::to_string(v) + " declares " +
                    std::to_string(sizes[v]) + " bytes");
  });
  agree_call(f, write ? "write" : "read", local);
  return *f->declared;
}

// Every rank learns whether any aggregator's file transfers failed.
void agree_sink(optiq_file* f, const Declared& d, double started) {
  const std::string error = d.sink ? d.sink->error() : "";
  agree_status(comms_of(f->comm), error.empty() ? 0 : OPTIQ_ERR_IO, error);
  f->stats.last_seconds = MPI_Wtime() - started;
}

// The pieces of one epoch between the ranks and the aggregators' buffers: one-sided puts (gets)
// over the file's communicator, or plain copies when it has a single rank (no window).
class Mover {
 public:
  Mover(Declared& d, char* const* data, char* staged, bool write)
      : d_(d), data_(data), staged_(staged), write_(write) {}
  void fence(int assert_flags) {
    if (d_.win != MPI_WIN_NULL) MPI_Win_fence(assert_flags, d_.win);
  }
  void epoch(int e) {
    for (; next_ < d_.transfers.size() && d_.transfers[next_].epoch == e; ++next_) {
      const Transfer& t = d_.transfers[next_];
      if (d_.win == MPI_WIN_NULL) {
        copy_locally(t, e);
        continue;
      }
      const Part& first = d_.parts[t.first];
      char* origin = t.direct ? data_[first.var] + first.src : staged_ + t.packed;
      const int count = t.type == MPI_DATATYPE_NULL ? int(t.bytes) : 1;
      const MPI_Datatype type = t.type == MPI_DATATYPE_NULL ? MPI_BYTE : t.type;
      if (write_)
        MPI_Put(origin, int(t.bytes), MPI_BYTE, t.target, t.disp, count, type, d_.win);
      else
        MPI_Get(origin, int(t.bytes), MPI_BYTE, t.target, t.disp, count, type, d_.win);
    }
  }

 private:
  void copy_locally(const Transfer& t, int e) {
    for (std::size_t i = t.first; i < t.end; ++i) {
      const Part& p = d_.parts[i];
      char* buffer = buffer_of(d_, p.domain, e) + p.target;
      char* mine = data_[p.var] + p.src;
      std::memcpy(write_ ? buffer : mine, write_ ? mine : buffer, p.bytes);
    }
  }

  Declared& d_;
  char* const* data_;
  char* staged_;
  bool write_;
  std::size_t next_ = 0;
};

// Between the application's variables and the staging buffer, for the transfers that need it.
void stage(const Declared& d, char* const* data, char* staged, bool pack) {
  if (d.win == MPI_WIN_NULL) return;
  for (const Transfer& t : d.transfers)
    if (!t.direct) copy_parts(d, t, data, staged, t.packed, pack);
}

// The bytes a write or read stages: all the declared bytes packed when rounds are forwarded
// (unless written in place), else what the puts stage.
Bytes staged_bytes(const Declared& d) {
  if (d.forwarded.empty() || !d.in_place.empty()) return d.staged_bytes;
  Bytes declared = 0;
  for (Bytes b : d.var_bytes) declared += b;
  return declared;
}

}  // namespace

void write(optiq_file* f, const void* const data[]) {
  Declared& d = checked(f, true, data);
  const double started = MPI_Wtime();
  if (d.sink) d.sink->begin_operation();
  const bool forwarded = !d.forwarded.empty();
  Memory staged(staged_bytes(d));
  Memory incoming(forwarded ? d.incoming_bytes : 0);
  // Puts only read from the variables: the const goes for the length of this call.
  char* const* vars = const_cast<char* const*>(reinterpret_cast<const char* const*>(data));
  if (forwarded)
    stage_forwarded(d, vars, staged.get(), true);
  else
    stage(d, vars, staged.get(), true);
  const Bytes moved_before = d.sink ? d.sink->moved() : 0;
  start_in_place(d, vars, true);
  // The sink of the rounds, if this rank aggregates (an in-place rank's stays busy throughout).
  Sink* rounds = d.in_place.empty() ? d.sink.get() : nullptr;
  const int epochs = d.layout.epochs();  // of this rank's group; other groups may need more
  Mover move(d, vars, staged.get(), true);
  // Epoch e's bytes reach buffer e % 2 by the fence that closes the epoch (or within its
  // exchange, when forwarded), while the aggregator writes epoch e - 1 from the other buffer.
  for (int e = 0; e < d.all_epochs; ++e) {
    if (rounds) rounds->wait();
    if (!forwarded) move.fence(e == 0 ? MPI_MODE_NOPRECEDE : 0);
    if (rounds && e > 0 && e - 1 < epochs) {
      rounds->start(spans_of(d, e - 1, vars), true);
      if (!f->options.overlap) rounds->wait();
    }
    if (forwarded)
      forward_epoch(f, d, e, staged.get(), incoming.get(), true);
    else
      move.epoch(e);
  }
  if (d.all_epochs > 0) {
    if (rounds) rounds->wait();
    if (!forwarded) move.fence(MPI_MODE_NOSUCCEED);
    if (rounds && epochs == d.all_epochs) rounds->start(spans_of(d, epochs - 1, vars), true);
  }
  if (d.sink) d.sink->wait();
  for (Bytes b : d.var_bytes) f->stats.put_bytes += b;
  f->stats.in_place_bytes += d.in_place_bytes;
  if (d.sink) f->stats.file_bytes += d.sink->moved() - moved_before;
  agree_sink(f, d, started);
}

void read(optiq_file* f, void* const data[]) {
  Declared& d = checked(f, false, data);
  const double started = MPI_Wtime();
  if (d.sink) d.sink->begin_operation();
  const bool forwarded = !d.forwarded.empty();
  Memory staged(staged_bytes(d));
  Memory incoming(forwarded ? d.incoming_bytes : 0);
  const Bytes moved_before = d.sink ? d.sink->moved() : 0;
  const int epochs = d.layout.epochs();
  char* const* vars = reinterpret_cast<char* const*>(data);
  start_in_place(d, vars, false);
  Sink* rounds = d.in_place.empty() ? d.sink.get() : nullptr;
  if (rounds && epochs > 0) rounds->start(spans_of(d, 0, vars), false);
  Mover move(d, vars, staged.get(), false);
  for (int e = 0; e < d.all_epochs; ++e) {
    if (rounds) rounds->wait();
    if (!forwarded) move.fence(e == 0 ? MPI_MODE_NOPRECEDE : 0);
    if (rounds && e + 1 < epochs) {
      rounds->start(spans_of(d, e + 1, vars), false);
      if (!f->options.overlap) rounds->wait();
    }
    if (forwarded)
      forward_epoch(f, d, e, staged.get(), incoming.get(), false);
    else
      move.epoch(e);
  }
  if (d.all_epochs > 0 && !forwarded) move.fence(MPI_MODE_NOSUCCEED);
  if (d.sink && !d.in_place.empty()) d.sink->wait();
  if (forwarded)
    stage_forwarded(d, vars, staged.get(), false);
  else
    stage(d, vars, staged.get(), false);
  for (Bytes b : d.var_bytes) f->stats.put_bytes += b;
  f->stats.in_place_bytes += d.in_place_bytes;
  if (d.sink) f->stats.file_bytes += d.sink->moved() - moved_before;
  agree_sink(f, d, started);
}

}  // namespace optiq::rt::io
