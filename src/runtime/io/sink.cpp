#include "runtime/io/sink.hpp"

#include <fcntl.h>
#include <sys/uio.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <climits>
#include <condition_variable>
#include <cstring>
#include <mutex>
#include <thread>

namespace optiq::rt::io {

namespace {

std::string system_error(const std::string& what, const std::string& path) {
  return what + " '" + path + "': " + std::strerror(errno);
}

// pwrite/pread on a thread of its own, so the aggregator's MPI calls go on meanwhile. The
// thread makes no MPI call: any MPI thread level will do.
class PosixSink final : public Sink {
 public:
  PosixSink(std::string path, bool writable) : path_(std::move(path)), writable_(writable) {
    worker_ = std::thread([this] { run(); });
  }
  ~PosixSink() override {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      stop_ = true;
    }
    cv_.notify_all();
    worker_.join();
    if (fd_ >= 0) close(fd_);
  }
  void start(std::vector<Span> spans, bool write) override {
    std::lock_guard<std::mutex> lock(mutex_);
    spans_ = std::move(spans);
    write_ = write;
    busy_ = true;
    cv_.notify_all();
  }
  void wait() override {
    std::unique_lock<std::mutex> lock(mutex_);
    cv_.wait(lock, [this] { return !busy_; });
  }
  // On the caller's thread: handing one transfer to the worker and back costs two wake-ups.
  void run(std::vector<Span> spans, bool write) override {
    wait();
    spans_ = std::move(spans);
    write_ = write;
    transfer();
  }

 private:
  void run() {
    std::unique_lock<std::mutex> lock(mutex_);
    for (;;) {
      cv_.wait(lock, [this] { return stop_ || busy_; });
      if (stop_) return;
      lock.unlock();
      transfer();
      lock.lock();
      busy_ = false;
      cv_.notify_all();
    }
  }
  void transfer() {
    if (!error_.empty()) return;
    if (fd_ < 0) {
      fd_ = open(path_.c_str(), writable_ ? O_RDWR : O_RDONLY);
      if (fd_ < 0) {
        error_ = system_error("cannot open", path_);
        return;
      }
    }
    // Spans that follow each other in the file (an in-place rank's variables, say) go in one
    // system call.
    std::vector<iovec> iov;
    for (std::size_t i = 0; i < spans_.size();) {
      const Bytes at = spans_[i].offset;
      Bytes end = at;
      iov.clear();
      for (; i < spans_.size() && spans_[i].offset == end && iov.size() < IOV_MAX; ++i) {
        iov.push_back({spans_[i].buffer, static_cast<size_t>(spans_[i].bytes)});
        end += spans_[i].bytes;
      }
      if (!move_run(iov, at)) return;
    }
  }
  // Moves one run of buffers to or from file offset `at`, resuming after short transfers.
  bool move_run(std::vector<iovec>& iov, Bytes at) {
    std::size_t k = 0;
    while (k < iov.size()) {
      if (iov[k].iov_len == 0) {
        ++k;
        continue;
      }
      const int count = static_cast<int>(iov.size() - k);
      const ssize_t got = write_ ? pwritev(fd_, &iov[k], count, static_cast<off_t>(at))
                                 : preadv(fd_, &iov[k], count, static_cast<off_t>(at));
      if (got < 0 && errno == EINTR) continue;
      if (got < 0) {
        error_ = system_error(write_ ? "cannot write" : "cannot read", path_);
        return false;
      }
      if (got == 0) {
        error_ = "'" + path_ + "' ends at byte " + std::to_string(at) + ", before the declared bytes to read";
        return false;
      }
      at += Bytes(got);
      moved_ += Bytes(got);
      for (Bytes left = Bytes(got); left > 0 && k < iov.size(); ++k) {
        const Bytes take = std::min<Bytes>(left, iov[k].iov_len);
        iov[k].iov_base = static_cast<char*>(iov[k].iov_base) + take;
        iov[k].iov_len -= take;
        left -= take;
        if (iov[k].iov_len > 0) break;
      }
    }
    return true;
  }

  std::string path_;
  bool writable_;
  int fd_ = -1;
  std::mutex mutex_;
  std::condition_variable cv_;
  std::vector<Span> spans_;
  bool write_ = true;
  bool busy_ = false;
  bool stop_ = false;
  std::thread worker_;
};

// MPI_File_iwrite_at/iread_at on a handle of this aggregator alone (MPI_COMM_SELF): the MPI
// library's own non-blocking file I/O, progressed by the fences around it.
class MpiioSink final : public Sink {
 public:
  MpiioSink(std::string path, bool writable) : path_(std::move(path)), writable_(writable) {}
  ~MpiioSink() override {
    if (file_ != MPI_FILE_NULL) MPI_File_close(&file_);
  }
  void start(std::vector<Span> spans, bool write) override {
    if (!error_.empty()) return;
    if (file_ == MPI_FILE_NULL) {
      const int mode = writable_ ? MPI_MODE_RDWR : MPI_MODE_RDONLY;
      if (MPI_File_open(MPI_COMM_SELF, path_.c_str(), mode, MPI_INFO_NULL, &file_) != MPI_SUCCESS) {
        file_ = MPI_FILE_NULL;
        error_ = "MPI_File_open cannot open '" + path_ + "'";
        return;
      }
    }
    write_ = write;
    for (const Span& s : spans)
      // A buffer's spans stay below 2 GiB, but an in-place rank's may not: MPI counts are ints.
      for (Bytes done = 0; done < s.bytes;) {
        const Bytes n = std::min<Bytes>(s.bytes - done, Bytes(1) << 30);
        requests_.emplace_back();
        const MPI_Offset at = MPI_Offset(s.offset + done);
        const int rc = write ? MPI_File_iwrite_at(file_, at, s.buffer + done, int(n), MPI_BYTE, &requests_.back())
                             : MPI_File_iread_at(file_, at, s.buffer + done, int(n), MPI_BYTE, &requests_.back());
        if (rc != MPI_SUCCESS) {
          requests_.pop_back();
          error_ = std::string(write ? "MPI_File_iwrite_at" : "MPI_File_iread_at") + " failed on '" + path_ + "'";
          return;
        }
        expected_.push_back(n);
        done += n;
      }
  }
  void wait() override {
    for (std::size_t i = 0; i < requests_.size(); ++i) {
      MPI_Status status;
      if (MPI_Wait(&requests_[i], &status) != MPI_SUCCESS) {
        if (error_.empty()) error_ = "a file transfer on '" + path_ + "' failed";
        continue;
      }
      int count = 0;
      MPI_Get_count(&status, MPI_BYTE, &count);
      moved_ += Bytes(count);
      if (Bytes(count) != expected_[i] && error_.empty())
        error_ = write_ ? "a short write to '" + path_ + "'"
                        : "'" + path_ + "' ends before the declared bytes to read";
    }
    requests_.clear();
    expected_.clear();
  }

 private:
  std::string path_;
  bool writable_;
  bool write_ = true;
  MPI_File file_ = MPI_FILE_NULL;
  std::vector<MPI_Request> requests_;
  std::vector<Bytes> expected_;
};

// The application's callbacks.
class CustomSink final : public Sink {
 public:
  CustomSink(const optiq_io_custom_sink& ops, int group) : ops_(ops), group_(group) {}
  void start(std::vector<Span> spans, bool write) override {
    if (!error_.empty()) return;
    std::vector<optiq_io_span> list;
    Bytes bytes = 0;
    for (const Span& s : spans) {
      list.push_back({s.buffer, static_cast<long long>(s.offset), static_cast<long long>(s.bytes)});
      bytes += s.bytes;
    }
    const int rc = ops_.start(ops_.state, group_, write ? 1 : 0, list.data(), static_cast<int>(list.size()));
    if (rc != 0) {
      error_ = "the custom sink's start returned " + std::to_string(rc);
      return;
    }
    pending_ = bytes;
    started_ = true;
  }
  void wait() override {
    if (!started_) return;
    started_ = false;
    const int rc = ops_.wait(ops_.state);
    if (rc != 0) {
      if (error_.empty()) error_ = "the custom sink's wait returned " + std::to_string(rc);
      return;
    }
    moved_ += pending_;
  }

 private:
  optiq_io_custom_sink ops_;
  int group_;
  bool started_ = false;
  Bytes pending_ = 0;
};

class NullSink final : public Sink {
 public:
  void start(std::vector<Span> spans, bool) override {
    for (const Span& s : spans) moved_ += s.bytes;
  }
  void wait() override {}
};

}  // namespace

std::unique_ptr<Sink> make_sink(optiq_io_sink kind, const std::string& path, bool writable,
                                const optiq_io_custom_sink& custom, int group) {
  switch (kind) {
    case OPTIQ_SINK_CUSTOM: return std::make_unique<CustomSink>(custom, group);
    case OPTIQ_SINK_MPIIO: return std::make_unique<MpiioSink>(path, writable);
    case OPTIQ_SINK_NULL: return std::make_unique<NullSink>();
    default: return std::make_unique<PosixSink>(path, writable);
  }
}

}  // namespace optiq::rt::io
