// The two-phase pipelines. Writes: in epoch e every rank puts its pieces into buffer e % 2 of
// their aggregators while each aggregator writes buffer (e - 1) % 2; before the fence that
// opens epoch e the aggregator has finished writing epoch e - 2, the last user of buffer e % 2.
// Reads: the aggregator reads epoch e + 1 into the other buffer while ranks get epoch e.
#include <cstring>
#include <memory>

#include "file.hpp"

namespace optiq::rt::io {

namespace {

char* buffer_of(const Declared& d, int domain, int epoch) {
  return d.base + Bytes(2 * d.layout.slot(domain) + epoch % 2) * d.layout.buffer;
}

std::vector<Span> spans_of(const Declared& d, int epoch) {
  std::vector<Span> out;
  for (std::size_t i = 0; i < d.domains.size(); ++i) {
    const int k = d.domains[i];
    const Bytes start = d.layout.round_start(k, d.layout.active_rounds[epoch]);
    char* buffer = buffer_of(d, k, epoch);
    for (const Interval& iv : d.covered[i][epoch]) out.push_back({buffer + (iv.offset - start), iv.offset, iv.bytes});
  }
  return out;
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
  agree_status(comms_of(f->comm), local.code, local.message);
  return *f->declared;
}

// Every rank learns whether any aggregator's file transfers failed.
void agree_sink(optiq_file* f, const Declared& d, double started) {
  const std::string error = d.sink ? d.sink->error() : "";
  agree_status(comms_of(f->comm), error.empty() ? 0 : OPTIQ_ERR_IO, error);
  f->stats.last_seconds = MPI_Wtime() - started;
}

template <class Copy>
void for_each_part(const Declared& d, Copy&& copy) {
  Bytes at = 0;
  for (const Part& p : d.parts) {
    copy(p, at);
    at += p.bytes;
  }
}

// The pieces of one epoch between the staging buffer and the aggregators' buffers: one-sided
// puts (gets) in a group of several ranks, plain copies in a group of one.
class Mover {
 public:
  Mover(Declared& d, char* staged, bool write) : d_(d), staged_(staged), write_(write) {}
  void fence(int assert_flags) {
    if (d_.win != MPI_WIN_NULL) MPI_Win_fence(assert_flags, d_.win);
  }
  void epoch(int e) {
    if (d_.win == MPI_WIN_NULL) {
      for (; part_ < d_.parts.size() && d_.parts[part_].epoch == e; ++part_) {
        const Part& p = d_.parts[part_];
        char* buffer = buffer_of(d_, p.domain, e);
        if (write_)
          std::memcpy(buffer + p.target, staged_ + at_, p.bytes);
        else
          std::memcpy(staged_ + at_, buffer + p.target, p.bytes);
        at_ += p.bytes;
      }
      return;
    }
    for (; next_ < d_.transfers.size() && d_.transfers[next_].epoch == e; ++next_) {
      const Transfer& t = d_.transfers[next_];
      if (write_)
        MPI_Put(staged_ + t.packed, int(t.bytes), MPI_BYTE, t.target, t.disp, 1, t.type, d_.win);
      else
        MPI_Get(staged_ + t.packed, int(t.bytes), MPI_BYTE, t.target, t.disp, 1, t.type, d_.win);
    }
  }

 private:
  Declared& d_;
  char* staged_;
  bool write_;
  std::size_t next_ = 0, part_ = 0;
  Bytes at_ = 0;
};

}  // namespace

void write(optiq_file* f, const void* const data[]) {
  Declared& d = checked(f, true, data);
  const double started = MPI_Wtime();
  std::unique_ptr<char[]> staged(new char[d.staged_bytes + 1]);
  for_each_part(d, [&](const Part& p, Bytes at) {
    std::memcpy(staged.get() + at, static_cast<const char*>(data[p.var]) + p.src, p.bytes);
  });
  const Bytes moved_before = d.sink ? d.sink->moved() : 0;
  const int epochs = d.layout.epochs();  // of this rank's group; other groups may need more
  Mover move(d, staged.get(), true);
  for (int e = 0; e < d.all_epochs; ++e) {
    if (d.sink) d.sink->wait();
    move.fence(e == 0 ? MPI_MODE_NOPRECEDE : 0);
    if (d.sink && e > 0 && e - 1 < epochs) d.sink->start(spans_of(d, e - 1), true);
    move.epoch(e);
  }
  if (d.all_epochs > 0) {
    if (d.sink) d.sink->wait();
    move.fence(MPI_MODE_NOSUCCEED);
    if (d.sink && epochs == d.all_epochs) d.sink->start(spans_of(d, epochs - 1), true);
    if (d.sink) d.sink->wait();
  }
  f->stats.put_bytes += d.staged_bytes;
  if (d.sink) f->stats.file_bytes += d.sink->moved() - moved_before;
  agree_sink(f, d, started);
}

void read(optiq_file* f, void* const data[]) {
  Declared& d = checked(f, false, data);
  const double started = MPI_Wtime();
  std::unique_ptr<char[]> staged(new char[d.staged_bytes + 1]);
  const Bytes moved_before = d.sink ? d.sink->moved() : 0;
  const int epochs = d.layout.epochs();
  if (d.sink && epochs > 0) d.sink->start(spans_of(d, 0), false);
  Mover move(d, staged.get(), false);
  for (int e = 0; e < d.all_epochs; ++e) {
    if (d.sink) d.sink->wait();
    move.fence(e == 0 ? MPI_MODE_NOPRECEDE : 0);
    if (d.sink && e + 1 < epochs) d.sink->start(spans_of(d, e + 1), false);
    move.epoch(e);
  }
  if (d.all_epochs > 0) move.fence(MPI_MODE_NOSUCCEED);
  for_each_part(d, [&](const Part& p, Bytes at) {
    std::memcpy(static_cast<char*>(data[p.var]) + p.src, staged.get() + at, p.bytes);
  });
  f->stats.put_bytes += d.staged_bytes;
  if (d.sink) f->stats.file_bytes += d.sink->moved() - moved_before;
  agree_sink(f, d, started);
}

}  // namespace optiq::rt::io
