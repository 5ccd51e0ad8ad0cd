// The distributed 3-D FFT on a P1 x P2 pencil grid, with its two transposes.
#pragma once

#include <cstddef>
#include <vector>

#include <mpi.h>

#include "exchange.hpp"
#include "local_fft.hpp"

namespace ft {

// World rank r sits at (r1, r2) = (r mod P1, r / P1) of the process grid. Its row team is the
// P1 ranks with its r2, its column team the P2 ranks with its r1. The field lives in three
// layouts, each with the dimension being transformed contiguous:
//   x-pencils  [nz/P2][ny/P1][nx]   z block r2, y block r1   (the field as NPB draws it)
//   y-pencils  [nz/P2][nx/P1][ny]   z block r2, x block r1
//   z-pencils  [ny/P2][nx/P1][nz]   y block r2, x block r1   (the spectrum, where evolve runs)
// x- and y-pencils differ by a transpose within the row team, y- and z-pencils by one within
// the column team; so P1 must divide nx and ny, and P2 must divide ny and nz.
struct Decomposition {
  int nx = 0, ny = 0, nz = 0;
  int p1 = 1, p2 = 1;
  int r1 = 0, r2 = 0;
  int nx1 = 0, ny1 = 0, ny2 = 0, nz2 = 0;  // local block sizes: nx/P1, ny/P1, ny/P2, nz/P2
  std::size_t points = 0;                 // per rank, in every layout

  Decomposition(int nx, int ny, int nz, int p1, int p2, int world_rank);
  static bool fits(int nx, int ny, int nz, int p1, int p2);
};

// Seconds spent in each kind of work, on this rank.
struct PhaseTimes {
  double fft = 0;       // local 1-D transforms
  double pack = 0;      // copies into and out of the exchange buffers
  double exchange = 0;  // inside the exchange calls: start, progress (test) and finish (wait)
  double evolve = 0;
  double checksum = 0;
  double total = 0;
};

// A transpose is cut into `slabs` along the dimension it does not move (z-planes in the row
// team, x-planes in the column team) when its exchange overlaps: while slab k is in flight the
// rank transforms and packs slab k + 1 and unpacks and transforms slab k - 1. Blocking
// exchanges move the whole transpose in one call.
class PencilFft {
 public:
  PencilFft(const Decomposition& d, Exchange& row, Exchange& column, int slabs, PhaseTimes& times);
  // x-pencils (overwritten) -> z-pencils.
  void forward(cplx* x_pencils, cplx* z_pencils);
  // z-pencils (overwritten) -> x-pencils; the two may be the same array.
  void inverse(cplx* z_pencils, cplx* x_pencils);

 private:
  template <class Pre, class Post>
  void transpose(Exchange& ex, int peers, int extent, std::size_t block, Pre pre, Post post);
  void tick();

  const Decomposition& d_;
  Exchange& row_;
  Exchange& column_;
  int slabs_;
  PhaseTimes& times_;
  LineFfts ffts_;
  std::vector<cplx> y_pencils_, send_, recv_;
  Exchange* in_flight_ = nullptr;
};

}  // namespace ft
