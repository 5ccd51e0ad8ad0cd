// One rank's side of an exchange after its arguments were checked.
#pragma once

#include <string>
#include <vector>

namespace optiq::sx {

struct Message {
  int peer;
  int bytes;
  const void* data;
};

struct Outgoing {
  std::vector<Message> remote;  // to other ranks, in the caller's order
  bool has_self = false;        // a message to this rank itself (copied, never sent)
  Message self{};
  // Set when the arguments were refused. The rank then still takes part in the exchange (so no
  // other rank waits for it), sending a notice to every other rank instead of its messages.
  std::string error;
  bool bad() const { return !error.empty(); }
};

// Checks the arguments of optiq_sparse_exchange on rank `rank` of `size`. Never throws; a
// refusal leaves `error` set (prefixed with the rank) and `remote` empty.
Outgoing check_outgoing(int rank, int size, int nsend, const int* dests, const void* const* sendbufs,
                        const int* sendsizes);

}  // namespace optiq::sx
