// Where an aggregator's buffers go: one transfer in flight at a time, started after the round's
// epoch closes and waited for before the buffer is reused. A failure is kept, not thrown: the
// aggregator must still take part in every remaining epoch, and the ranks agree on it at the end.
#pragma once

#include <mpi.h>

#include <memory>
#include <string>
#include <vector>

#include "runtime/io/layout.hpp"
#include "optiq/io.h"

namespace optiq::rt::io {

// One contiguous transfer between a buffer and the file.
struct Span {
  char* buffer = nullptr;
  Bytes offset = 0;  // in the file
  Bytes bytes = 0;
};

class Sink {
 public:
  virtual ~Sink() = default;
  // Starts writing (or reading) the spans; the previous transfer must have been waited for.
  virtual void start(std::vector<Span> spans, bool write) = 0;
  virtual void wait() = 0;
  // start, then wait: for a transfer with nothing to overlap (a sink may then skip its thread).
  virtual void run(std::vector<Span> spans, bool write) {
    start(std::move(spans), write);
    wait();
  }
  // The first failure of this write or read, "" if none.
  const std::string& error() const { return error_; }
  // A new write or read: the last one's failure does not carry over (it was reported then), so
  // the next call works or fails for a reason of its own; a file that failed to open is tried again.
  void begin_operation() { error_.clear(); }
  Bytes moved() const { return moved_; }

 protected:
  std::string error_;
  Bytes moved_ = 0;
};

// `path` is opened on first use, read-only when `writable` is false; `custom` and `group` serve
// OPTIQ_SINK_CUSTOM.
std::unique_ptr<Sink> make_sink(optiq_io_sink kind, const std::string& path, bool writable,
                                const optiq_io_custom_sink& custom, int group);

}  // namespace optiq::rt::io
