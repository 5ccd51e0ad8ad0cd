#include "evolve.hpp"

#include <cmath>

namespace ft {

namespace {
int folded(int i, int n) { return (i + n / 2) % n - n / 2; }
}  // namespace

double step_decay(int i, int j, int k, int nx, int ny, int nz) {
  const double pi = std::acos(-1.0);
  const int a = folded(i, nx), b = folded(j, ny), c = folded(k, nz);
  return std::exp(-4.0 * kAlpha * pi * pi * static_cast<double>(a * a + b * b + c * c));
}

std::vector<double> step_decays(const Decomposition& d) {
  std::vector<double> decay(d.points);
  std::size_t at = 0;
  for (int y = 0; y < d.ny2; ++y)
    for (int x = 0; x < d.nx1; ++x)
      for (int z = 0; z < d.nz; ++z)
        decay[at++] = step_decay(d.r1 * d.nx1 + x, d.r2 * d.ny2 + y, z, d.nx, d.ny, d.nz);
  return decay;
}

void evolve(cplx* spectrum, const double* decay, cplx* out, std::size_t points) {
  for (std::size_t i = 0; i < points; ++i) {
    spectrum[i] *= decay[i];
    out[i] = spectrum[i];
  }
}

}  // namespace ft
