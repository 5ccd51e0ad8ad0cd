// NPB FT's checksum and what it is compared with.
#pragma once

#include <string>
#include <vector>

#include <mpi.h>

#include "pencil_fft.hpp"

namespace ft {

// A problem class of NPB FT with the checksums NPB publishes for its iterations.
struct NpbClass {
  char name;
  int nx, ny, nz, iterations;
  std::vector<cplx> checksums;  // one per iteration, 1 .. iterations
};

const NpbClass* npb_class(char name);                // nullptr if NPB has no such class here
const NpbClass* npb_class_of(int nx, int ny, int nz);  // the class of a grid, if any

// NPB's tolerance: every iteration's checksum within 1e-12 of the reference, relatively.
constexpr double kTolerance = 1.0e-12;
double relative_error(cplx value, cplx reference);

// Collective over the job: the sum of u(j mod nx, 3j mod ny, 5j mod nz) for j = 1 .. 1024
// over the inverse transform's x-pencils, divided by the number of points.
cplx checksum(const Decomposition& d, const cplx* x_pencils, MPI_Comm world);

// The checksums a run is held to: NPB's published ones when the grid is an NPB class (the
// first `iterations` of them, as each depends only on its own step), else those of a
// single-process 3-D FFT of the same field, computed on rank 0, for grids small enough for
// one process. Collective; `checksums` is empty when there is no reference.
struct Reference {
  std::vector<cplx> checksums;
  std::string source;  // how they were obtained, or why there are none
  bool published = false;
};
Reference reference_checksums(int nx, int ny, int nz, int iterations, MPI_Comm world);

// The single-process reference is computed for grids of at most this many points (three
// arrays of them on rank 0).
constexpr long long kSerialLimit = 1LL << 22;

}  // namespace ft
