// Deterministic message contents: every byte is a function of (source, destination, offset,
// salt), so a receiver can check each byte without being told what was sent. Computed eight
// bytes at a time (one hash per 8-byte word of the message) to keep checks cheap.
#pragma once

#include <cstdint>
#include <cstring>

namespace optiq::data {

inline std::uint64_t word(int src, int dst, std::uint64_t index, std::uint64_t salt) {
  std::uint64_t z = (static_cast<std::uint64_t>(src) << 42) ^ (static_cast<std::uint64_t>(dst) << 21) ^
                    (salt * 0xD1B54A32D192ED03ULL) ^ (index * 0x9E3779B97F4A7C15ULL);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  return z ^ (z >> 31);
}

inline unsigned char byte_at(int src, int dst, std::uint64_t offset, std::uint64_t salt) {
  return static_cast<unsigned char>(word(src, dst, offset / 8, salt) >> (8 * (offset % 8)));
}

// Fills the `bytes` bytes of the message src -> dst at p. With `invert`, every byte is the
// complement of the right one: a poison that no correct delivery leaves in place.
inline void fill(unsigned char* p, int src, int dst, std::uint64_t bytes, std::uint64_t salt, bool invert = false) {
  const std::uint64_t flip = invert ? ~0ULL : 0ULL;
  std::uint64_t off = 0;
  for (; off + 8 <= bytes; off += 8) {
    const std::uint64_t w = word(src, dst, off / 8, salt) ^ flip;
    std::memcpy(p + off, &w, 8);  // little-endian byte order, as byte_at reads it
  }
  for (; off < bytes; ++off) p[off] = static_cast<unsigned char>(byte_at(src, dst, off, salt) ^ flip);
}

// The first offset whose byte is wrong, or `bytes` when all are right.
inline std::uint64_t first_wrong(const unsigned char* p, int src, int dst, std::uint64_t bytes, std::uint64_t salt) {
  std::uint64_t off = 0;
  for (; off + 8 <= bytes; off += 8) {
    std::uint64_t got;
    std::memcpy(&got, p + off, 8);
    if (got != word(src, dst, off / 8, salt)) break;
  }
  for (; off < bytes; ++off)
    if (p[off] != byte_at(src, dst, off, salt)) return off;
  return bytes;
}

}  // namespace optiq::data
