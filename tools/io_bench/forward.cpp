#include "tools/io_bench/forward.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <map>
#include <memory>

#ifdef OPTIQ_SMPI
#include <simgrid/disk.h>
#include <simgrid/host.h>
#endif

#include "tools/io_bench/args.hpp"
#include "runtime/io/memory.hpp"

namespace optiq::iobench {

namespace {

// kData carries bytes; kSync and kDone carry how many data messages their sender has sent
// this server so far; kSynced answers a sync.
constexpr int kData = 1;
constexpr int kDone = 2;
constexpr int kSync = 3;
constexpr int kSynced = 4;
constexpr int kServerSlots = 64;

int start(void* state, int, int write, const optiq_io_span* spans, int count) {
  auto* f = static_cast<Forwarder*>(state);
  if (!write) return 1;  // the simulated I/O nodes keep nothing to read
  for (int i = 0; i < count; ++i) {
    f->pending.emplace_back();
    // A span lies in one buffer, below 2 GiB.
    MPI_Isend(spans[i].buffer, int(spans[i].bytes), MPI_BYTE, f->server, kData, f->comm, &f->pending.back());
    ++f->sent;
  }
  return 0;
}

int wait(void* state) {
  auto* f = static_cast<Forwarder*>(state);
  const int rc = MPI_Waitall(int(f->pending.size()), f->pending.data(), MPI_STATUSES_IGNORE);
  f->pending.clear();
  return rc == MPI_SUCCESS ? 0 : 1;
}

// The disk behind an I/O rank, written in the order messages complete. Under SMPI it is the
// platform's disk on the rank's host, written through SimGrid's disk API, which charges the
// disk's write bandwidth in simulated time (SMPI 3.32's MPI-IO crashes in MPI_File_open, even
// on SimGrid's own example platform); elsewhere a file written with pwrite.
class Disk {
 public:
  explicit Disk(const std::string& path) : path_(path) {
    if (path.empty()) return;
#ifdef OPTIQ_SMPI
    unsigned count = 0;
    sg_disk_t* disks = nullptr;
    sg_host_get_disks(sg_host_self(), &count, &disks);
    if (count > 0) disk_ = disks[0];
    std::free(disks);
    if (disk_ == nullptr) fail_alone("--disk: the I/O node's host has no disk in the platform");
#else
    fd_ = ::open(path.c_str(), O_CREAT | O_TRUNC | O_WRONLY, 0644);
    if (fd_ < 0) fail_alone("an I/O rank cannot create " + path + ": " + std::strerror(errno));
#endif
  }
  ~Disk() {
#ifndef OPTIQ_SMPI
    if (fd_ < 0) return;
    ::close(fd_);
    ::unlink(path_.c_str());
#endif
  }
  Disk(const Disk&) = delete;
  Disk& operator=(const Disk&) = delete;

  long long store(const char* data, int bytes) {
    if (path_.empty()) return 0;
#ifdef OPTIQ_SMPI
    (void)data;
    if (sg_disk_write(disk_, sg_size_t(bytes)) != sg_size_t(bytes)) fail_alone("an I/O node's simulated disk is full");
#else
    for (int done = 0; done < bytes;) {
      const ssize_t n = ::pwrite(fd_, data + done, std::size_t(bytes - done), off_t(end_ + done));
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) fail_alone("an I/O rank cannot write " + path_ + ": " + std::strerror(errno));
      done += int(n);
    }
#endif
    end_ += bytes;
    return bytes;
  }

 private:
  std::string path_;
  long long end_ = 0;
#ifdef OPTIQ_SMPI
  sg_disk_t disk_ = nullptr;
#else
  int fd_ = -1;
#endif
};

}  // namespace

optiq_io_custom_sink forwarding_sink(Forwarder* f) { return {f, start, wait}; }

void sync(Forwarder& f) {
  if (f.sent == 0) return;
  MPI_Send(&f.sent, 1, MPI_LONG_LONG, f.server, kSync, f.comm);
  MPI_Recv(nullptr, 0, MPI_BYTE, f.server, kSynced, f.comm, MPI_STATUS_IGNORE);
}

void finish(Forwarder& f, int compute, int servers) {
  // Non-overtaking: each server sees this rank's data messages before its done.
  for (int s = 0; s < servers; ++s) {
    const long long sent = compute + s == f.server ? f.sent : 0;
    MPI_Send(&sent, 1, MPI_LONG_LONG, compute + s, kDone, f.comm);
  }
}

Served serve(MPI_Comm comm, int compute, long long largest, const std::string& disk_file) {
  // Receives from any rank, many at once, as an I/O node's forwarding daemon serves many
  // clients: with one, the aggregators' large messages would cross the I/O links one after
  // another. A message is stored as soon as it has arrived, while the other receives go on, so
  // the links and the disk overlap as far as the posted receives allow. Data lands in scratch
  // memory (shared by all simulated ranks under OPTIQ_SMPI_SHARED_IO, where contents are not
  // kept); the counts of syncs and dones in memory of this rank's own.
  std::vector<std::unique_ptr<rt::io::Memory>> scratch;
  for (int i = 0; i < kServerSlots; ++i) scratch.push_back(std::make_unique<rt::io::Memory>(optiq::Bytes(largest)));
  const int tags[] = {kSync, kDone};
  long long counts[2] = {0, 0};
  std::vector<MPI_Request> requests(kServerSlots + 2, MPI_REQUEST_NULL);
  const auto post = [&](int i) {
    if (i < kServerSlots)
      MPI_Irecv(scratch[std::size_t(i)]->get(), int(largest), MPI_BYTE, MPI_ANY_SOURCE, kData, comm,
                &requests[std::size_t(i)]);
    else
      MPI_Irecv(&counts[i - kServerSlots], 1, MPI_LONG_LONG, MPI_ANY_SOURCE, tags[i - kServerSlots], comm,
                &requests[std::size_t(i)]);
  };
  for (int i = 0; i < kServerSlots + 2; ++i) post(i);

  Disk disk(disk_file);
  Served out;
  std::map<int, long long> stored_from, sync_at;  // by compute rank: messages stored; a sync's count
  long long stored = 0, expected = 0;
  const auto answer = [&](int src) {
    auto it = sync_at.find(src);
    if (it == sync_at.end() || stored_from[src] < it->second) return;
    sync_at.erase(it);
    MPI_Send(nullptr, 0, MPI_BYTE, src, kSynced, comm);
  };
  for (int done = 0; done < compute || stored < expected;) {
    int i = 0;
    MPI_Status st;
    MPI_Waitany(int(requests.size()), requests.data(), &i, &st);
    const int src = st.MPI_SOURCE;
    if (i < kServerSlots) {
      int bytes = 0;
      MPI_Get_count(&st, MPI_BYTE, &bytes);
      out.received += bytes;
      out.stored += disk.store(scratch[std::size_t(i)]->get(), bytes);
      ++stored_from[src];
      ++stored;
      answer(src);
    } else if (tags[i - kServerSlots] == kSync) {
      sync_at[src] = counts[0];
      answer(src);
    } else {
      expected += counts[1];
      ++done;
    }
    post(i);
  }
  // Every receive still posted is matched by a message from this rank to itself.
  int self = 0;
  MPI_Comm_rank(comm, &self);
  const long long zero = 0;
  for (int i = 0; i < kServerSlots + 2; ++i) {
    const int tag = i < kServerSlots ? kData : tags[i - kServerSlots];
    MPI_Send(&zero, i < kServerSlots ? 0 : 1, MPI_LONG_LONG, self, tag, comm);
  }
  MPI_Waitall(int(requests.size()), requests.data(), MPI_STATUSES_IGNORE);
  return out;
}

}  // namespace optiq::iobench
