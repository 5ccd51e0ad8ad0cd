// NPB FT's initial field: complex values drawn from NPB's linear congruential generator.
#pragma once

#include <complex>
#include <cstdint>

namespace ft {

using cplx = std::complex<double>;

// The generator is x_{k+1} = a * x_k mod 2^46 and each draw is x_k / 2^46. Integer arithmetic
// reproduces NPB's double-precision randlc/vranlc bit for bit, since both are exact.
constexpr std::uint64_t kRandomMultiplier = 1220703125;  // 5^13
constexpr std::uint64_t kRandomSeed = 314159265;

std::uint64_t lcg_multiply(std::uint64_t a, std::uint64_t x);
std::uint64_t lcg_power(std::uint64_t a, std::uint64_t exponent);

// Fills the block y in [y0, y0 + ny_local), z in [z0, z0 + nz_local) of a field of nx x ny
// points per z-plane, stored out[z - z0][y - y0][x]. NPB draws the whole field in Fortran order (x fastest), two
// draws per point (real, then imaginary), so each x-line starts after a known number of draws
// and every rank can jump straight to its own lines.
void fill_initial_field(cplx* out, int nx, int ny, int y0, int ny_local, int z0, int nz_local);

}  // namespace ft
