// Checked arithmetic on byte counts. The core counts bytes in unsigned 64 bits, but the
// runtime hands them to applications and MPI as signed 64-bit values (long long, MPI_Aint) and
// Python keeps them in int64 arrays. So every byte count, and every sum of byte counts a plan
// or pattern implies, must stay at or below kMaxBytes: a wrapped sum would become a short
// buffer or a negative count further down.
#pragma once

#include <cstdint>
#include <limits>
#include <string>

#include "optiq/core/error.hpp"
#include "optiq/core/types.hpp"

namespace optiq {

constexpr Bytes kMaxBytes = static_cast<Bytes>(std::numeric_limits<std::int64_t>::max());

namespace detail {
[[noreturn]] inline void bytes_overflow(Bytes a, Bytes b, const char* op, const std::string& what) {
  throw Error(what + ": " + std::to_string(a) + op + std::to_string(b) + " bytes is more than optiq handles (" +
              std::to_string(kMaxBytes) + ")");
}
}  // namespace detail

// a + b, or optiq::Error naming `what` when the sum (or either term) exceeds kMaxBytes.
inline Bytes checked_add(Bytes a, Bytes b, const std::string& what) {
  if (a > kMaxBytes || b > kMaxBytes - a) detail::bytes_overflow(a, b, " + ", what);
  return a + b;
}

// a * b, or optiq::Error naming `what` when the product exceeds kMaxBytes.
inline Bytes checked_mul(Bytes a, Bytes b, const std::string& what) {
  if (a != 0 && b > kMaxBytes / a) detail::bytes_overflow(a, b, " * ", what);
  return a * b;
}

}  // namespace optiq
