// Entries of the control messages both transports exchange.
#pragma once

#include <cstdint>

namespace optiq::rt {

struct CreditEntry {  // "slot `slot` of class `cls` at the sender is yours to fill"
  std::int32_t cls;
  std::int32_t slot;
};

struct NotifyEntry {  // "a chunk of flow `tag` is complete in your memory" (rma)
  std::int32_t tag;
  std::int32_t slot;  // -1: in the receive buffer
  std::uint64_t index;
  std::uint64_t len;
};

struct AddressEntry {  // "put flow `tag`'s bytes at this address of my window" (rma)
  std::int64_t tag;
  std::int64_t address;
};

}  // namespace optiq::rt
