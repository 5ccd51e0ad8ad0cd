// NPB FT's time step in Fourier space: each mode decays as exp(-4 alpha pi^2 |k|^2 t).
#pragma once

#include <vector>

#include "pencil_fft.hpp"

namespace ft {

constexpr double kAlpha = 1.0e-6;

// The decay of mode (i, j, k) over one step. Indices are folded to signed wavenumbers as NPB
// folds them, 0, 1, ..., n/2 - 1, -n/2, ..., -1, so the decay is symmetric in +k and -k.
double step_decay(int i, int j, int k, int nx, int ny, int nz);

// The one-step decay of every mode of this rank's z-pencils.
std::vector<double> step_decays(const Decomposition& d);

// spectrum *= decay, then out = spectrum: after t calls the spectrum holds the initial one
// times exp(-4 alpha pi^2 |k|^2 t), and out a copy the inverse transform may destroy.
void evolve(cplx* spectrum, const double* decay, cplx* out, std::size_t points);

}  // namespace ft
