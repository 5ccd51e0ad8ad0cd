// Entries of the control messages both transports exchange.
#pragma once

#include <cstdint>

namespace optiq::rt {

struct CreditEntry {  // "slot `slot` of class `cls` at the sender is yours to fill"
  std::int32_t cls;
  std::int32_t slot;
};

struct AvailEntry {  // "a chunk of flow `tag` is ready at this address of my window: fetch it" (rma)
  std::int32_t tag;
  std::int32_t slot;  // >= 0: into that forwarding slot of yours; -1: into your receive buffer
  std::uint64_t index;
  std::uint64_t len;
  std::int64_t address;
  std::uint64_t id;  // names the announce in the release that answers it
};

struct ReleaseEntry {  // "I have fetched the chunk of announce `id`: its memory is yours again" (rma)
  std::uint64_t id;
};

}  // namespace optiq::rt
