// What one rank receives during an exchange: messages (buffers it owns until they are handed
// to the caller's result) and notices from ranks whose arguments were bad.
#pragma once

#include <mpi.h>

#include <vector>

#include "exchange/outgoing.hpp"
#include "optiq/exchange.h"

namespace optiq::sx {

struct Received {
  int source;
  int bytes;
  void* data;  // malloc'd, NULL for zero bytes
};

class Inbox {
 public:
  Inbox() = default;
  Inbox(const Inbox&) = delete;
  Inbox& operator=(const Inbox&) = delete;
  ~Inbox();

  // Receives the message `status` describes (found by a probe on comm): data or a notice.
  void receive_probed(MPI_Comm comm, const MPI_Status& status);
  // A buffer of `bytes` for a message from `source` whose size is known beforehand (PEX).
  void* expect(int source, int bytes);
  void copy_self(int rank, const Message& m);
  void note_failure(int rank) { failed_.push_back(rank); }

  bool any_failed() const { return !failed_.empty(); }
  // The message ranks report when others' arguments were bad ("rank 3 passed bad arguments ...").
  std::string failure_message() const;
  // Moves the messages into *result, sorted by source; frees them if result is NULL.
  void hand_over(optiq_sx_result* result);
  void discard();

 private:
  std::vector<Received> messages_;
  std::vector<int> failed_;
};

// Stops the job with a message: for failures after which peers would wait forever or bytes
// would be wrong (out of memory, a message no protocol step can explain).
[[noreturn]] void fatal(const char* what);

}  // namespace optiq::sx
