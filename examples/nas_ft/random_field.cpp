#include "random_field.hpp"

namespace ft {

namespace {
constexpr std::uint64_t kMask46 = (std::uint64_t{1} << 46) - 1;
constexpr std::uint64_t kMask23 = (std::uint64_t{1} << 23) - 1;
constexpr double kScale = 1.0 / static_cast<double>(std::uint64_t{1} << 46);
}  // namespace

std::uint64_t lcg_multiply(std::uint64_t a, std::uint64_t x) {
  // Split both factors at bit 23 so that every partial product fits in 64 bits; the high x high
  // product is a multiple of 2^46 and drops out.
  const std::uint64_t a_hi = a >> 23, a_lo = a & kMask23;
  const std::uint64_t x_hi = x >> 23, x_lo = x & kMask23;
  const std::uint64_t cross = (a_hi * x_lo + a_lo * x_hi) & kMask23;
  return ((cross << 23) + a_lo * x_lo) & kMask46;
}

std::uint64_t lcg_power(std::uint64_t a, std::uint64_t exponent) {
  std::uint64_t result = 1, square = a & kMask46;
  for (; exponent; exponent >>= 1) {
    if (exponent & 1) result = lcg_multiply(result, square);
    square = lcg_multiply(square, square);
  }
  return result;
}

void fill_initial_field(cplx* out, int nx, int ny, int y0, int ny_local, int z0, int nz_local) {
  for (int z = 0; z < nz_local; ++z)
    for (int y = 0; y < ny_local; ++y) {
      const std::uint64_t line = static_cast<std::uint64_t>(z0 + z) * ny + (y0 + y);
      std::uint64_t state = lcg_multiply(lcg_power(kRandomMultiplier, 2 * nx * line), kRandomSeed);
      cplx* row = out + (static_cast<std::size_t>(z) * ny_local + y) * nx;
      for (int x = 0; x < nx; ++x) {
        state = lcg_multiply(kRandomMultiplier, state);
        const double re = static_cast<double>(state) * kScale;
        state = lcg_multiply(kRandomMultiplier, state);
        row[x] = cplx(re, static_cast<double>(state) * kScale);
      }
    }
}

}  // namespace ft
