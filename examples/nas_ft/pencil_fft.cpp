#include "pencil_fft.hpp"

#include <algorithm>
#include <cstring>

#include "work_model.hpp"

namespace ft {

namespace {

// Adds the seconds of its scope to a phase's total.
class Timed {
 public:
  explicit Timed(double& total) : total_(total), start_(MPI_Wtime()) {}
  ~Timed() { total_ += MPI_Wtime() - start_; }

 private:
  double& total_;
  double start_;
};

void copy(const cplx* from, std::size_t n, cplx* to) { std::memcpy(to, from, n * sizeof(cplx)); }

// to[c * to_stride + r] = from[r * from_stride + c] for r < rows, c < cols. Small square tiles
// keep both sides within a few cache lines: element by element, one side strides by a whole
// pencil per step (4 KiB at class A).
void transpose_copy(const cplx* from, std::size_t from_stride, int rows, int cols, cplx* to, std::size_t to_stride) {
  constexpr int kTile = 8;
  for (int r0 = 0; r0 < rows; r0 += kTile)
    for (int c0 = 0; c0 < cols; c0 += kTile) {
      const int r1 = std::min(rows, r0 + kTile), c1 = std::min(cols, c0 + kTile);
      for (int c = c0; c < c1; ++c)
        for (int r = r0; r < r1; ++r) to[c * to_stride + r] = from[r * from_stride + c];
    }
}

}  // namespace

Decomposition::Decomposition(int nx_, int ny_, int nz_, int p1_, int p2_, int world_rank)
    : nx(nx_), ny(ny_), nz(nz_), p1(p1_), p2(p2_), r1(world_rank % p1_), r2(world_rank / p1_),
      nx1(nx_ / p1_), ny1(ny_ / p1_), ny2(ny_ / p2_), nz2(nz_ / p2_),
      points(static_cast<std::size_t>(nx_) * ny_ * nz_ / (static_cast<std::size_t>(p1_) * p2_)) {}

bool Decomposition::fits(int nx, int ny, int nz, int p1, int p2) {
  return p1 > 0 && p2 > 0 && nx % p1 == 0 && ny % p1 == 0 && ny % p2 == 0 && nz % p2 == 0;
}

PencilFft::PencilFft(const Decomposition& d, Exchange& row, Exchange& column, int slabs, PhaseTimes& times)
    : d_(d), row_(row), column_(column), slabs_(std::max(1, slabs)), times_(times), y_pencils_(d.points),
      send_(d.points), recv_(d.points) {}

void PencilFft::tick() {
  if (!in_flight_) return;
  Timed t(times_.exchange);
  in_flight_->progress();
}

// One transpose over a team of `peers` ranks: `extent` units (planes) along the slab dimension,
// `block` elements per unit for each peer. Slab k of the send and receive buffers holds its
// units' blocks peer by peer; pre(lo, hi, send) fills slab [lo, hi), post(lo, hi, recv) takes
// it apart. Only one slab is in flight at a time, so an optiq context per team suffices.
template <class Pre, class Post>
void PencilFft::transpose(Exchange& ex, int peers, int extent, std::size_t block, Pre pre, Post post) {
  const int slabs = ex.overlaps() ? std::min(slabs_, extent) : 1;
  auto lo = [&](int k) { return static_cast<int>(static_cast<long long>(extent) * k / slabs); };
  auto offset = [&](int k) { return static_cast<std::size_t>(lo(k)) * block * peers; };
  auto launch = [&](int k) {
    Timed t(times_.exchange);
    const std::size_t count = static_cast<std::size_t>(lo(k + 1) - lo(k)) * block;
    ex.start(send_.data() + offset(k), recv_.data() + offset(k), static_cast<int>(count));
    in_flight_ = &ex;
  };
  auto complete = [&] {
    Timed t(times_.exchange);
    ex.finish();
    in_flight_ = nullptr;
  };

  pre(lo(0), lo(1), send_.data() + offset(0));
  launch(0);
  for (int k = 1; k < slabs; ++k) {
    pre(lo(k), lo(k + 1), send_.data() + offset(k));
    complete();
    launch(k);
    post(lo(k - 1), lo(k), recv_.data() + offset(k - 1));
  }
  complete();
  post(lo(slabs - 1), lo(slabs), recv_.data() + offset(slabs - 1));
}

void PencilFft::forward(cplx* xp, cplx* zp) {
  const Decomposition& d = d_;
  cplx* yp = y_pencils_.data();

  // Row team, x-pencils -> y-pencils, by z-planes: transform x, send x block q to peer q;
  // receive y block p from peer p, transform y.
  const std::size_t b1 = static_cast<std::size_t>(d.ny1) * d.nx1;
  transpose(
      row_, d.p1, d.nz2, b1,
      [&](int lo, int hi, cplx* send) {
        const std::size_t span = (hi - lo) * b1;
        for (int z = lo; z < hi; ++z) {
          cplx* plane = xp + static_cast<std::size_t>(z) * d.ny1 * d.nx;
          {
            Timed t(times_.fft);
            ffts_.run(plane, d.nx, d.ny1, kForward);
          }
          {
            Timed t(times_.pack);
            for (int q = 0; q < d.p1; ++q)
              for (int y = 0; y < d.ny1; ++y)
                copy(plane + static_cast<std::size_t>(y) * d.nx + q * d.nx1, d.nx1,
                     send + q * span + (z - lo) * b1 + y * d.nx1);
            charge_copy((b1 * d.p1) * sizeof(cplx));
          }
          tick();
        }
      },
      [&](int lo, int hi, const cplx* recv) {
        const std::size_t span = (hi - lo) * b1;
        for (int z = lo; z < hi; ++z) {
          cplx* plane = yp + static_cast<std::size_t>(z) * d.nx1 * d.ny;
          {
            Timed t(times_.pack);
            for (int p = 0; p < d.p1; ++p)
              transpose_copy(recv + p * span + (z - lo) * b1, d.nx1, d.ny1, d.nx1, plane + p * d.ny1, d.ny);
            charge_copy((b1 * d.p1) * sizeof(cplx));
          }
          {
            Timed t(times_.fft);
            ffts_.run(plane, d.ny, d.nx1, kForward);
          }
          tick();
        }
      });

  // Column team, y-pencils -> z-pencils, by x-planes: send y block q to peer q; receive z block
  // p from peer p, transform z.
  const std::size_t b2 = static_cast<std::size_t>(d.nz2) * d.ny2;
  const std::size_t z_row = static_cast<std::size_t>(d.nx1) * d.nz;  // from one y to the next in z-pencils
  transpose(
      column_, d.p2, d.nx1, b2,
      [&](int lo, int hi, cplx* send) {
        const std::size_t span = (hi - lo) * b2;
        for (int z = 0; z < d.nz2; ++z) {
          {
            Timed t(times_.pack);
            for (int x = lo; x < hi; ++x) {
              const cplx* line = yp + (static_cast<std::size_t>(z) * d.nx1 + x) * d.ny;
              for (int q = 0; q < d.p2; ++q) copy(line + q * d.ny2, d.ny2, send + q * span + (x - lo) * b2 + z * d.ny2);
            }
            charge_copy((static_cast<std::size_t>(hi - lo) * d.ny) * sizeof(cplx));
          }
          tick();
        }
      },
      [&](int lo, int hi, const cplx* recv) {
        const std::size_t span = (hi - lo) * b2;
        for (int x = lo; x < hi; ++x) {
          {
            Timed t(times_.pack);
            for (int p = 0; p < d.p2; ++p)
              transpose_copy(recv + p * span + (x - lo) * b2, d.ny2, d.nz2, d.ny2,
                             zp + static_cast<std::size_t>(x) * d.nz + p * d.nz2, z_row);
            charge_copy((b2 * d.p2) * sizeof(cplx));
          }
          tick();
        }
        for (int y = 0; y < d.ny2; ++y) {
          {
            Timed t(times_.fft);
            ffts_.run(zp + y * z_row + static_cast<std::size_t>(lo) * d.nz, d.nz, hi - lo, kForward);
          }
          tick();
        }
      });
}

void PencilFft::inverse(cplx* zp, cplx* xp) {
  const Decomposition& d = d_;
  cplx* yp = y_pencils_.data();

  // Column team, z-pencils -> y-pencils, by x-planes: transform z, send z block q to peer q;
  // receive y block p from peer p, transform y.
  const std::size_t b2 = static_cast<std::size_t>(d.nz2) * d.ny2;
  const std::size_t z_row = static_cast<std::size_t>(d.nx1) * d.nz;
  transpose(
      column_, d.p2, d.nx1, b2,
      [&](int lo, int hi, cplx* send) {
        const std::size_t span = (hi - lo) * b2;
        for (int y = 0; y < d.ny2; ++y) {
          {
            Timed t(times_.fft);
            ffts_.run(zp + y * z_row + static_cast<std::size_t>(lo) * d.nz, d.nz, hi - lo, kInverse);
          }
          tick();
        }
        for (int x = lo; x < hi; ++x) {
          {
            Timed t(times_.pack);
            for (int q = 0; q < d.p2; ++q)
              transpose_copy(zp + static_cast<std::size_t>(x) * d.nz + q * d.nz2, z_row, d.ny2, d.nz2,
                             send + q * span + (x - lo) * b2, d.ny2);
            charge_copy((b2 * d.p2) * sizeof(cplx));
          }
          tick();
        }
      },
      [&](int lo, int hi, const cplx* recv) {
        const std::size_t span = (hi - lo) * b2;
        for (int z = 0; z < d.nz2; ++z) {
          cplx* lines = yp + (static_cast<std::size_t>(z) * d.nx1 + lo) * d.ny;
          {
            Timed t(times_.pack);
            for (int x = lo; x < hi; ++x)
              for (int p = 0; p < d.p2; ++p)
                copy(recv + p * span + (x - lo) * b2 + z * d.ny2, d.ny2,
                     lines + static_cast<std::size_t>(x - lo) * d.ny + p * d.ny2);
            charge_copy((static_cast<std::size_t>(hi - lo) * d.ny) * sizeof(cplx));
          }
          {
            Timed t(times_.fft);
            ffts_.run(lines, d.ny, hi - lo, kInverse);
          }
          tick();
        }
      });

  // Row team, y-pencils -> x-pencils, by z-planes: send y block q to peer q; receive x block p
  // from peer p, transform x. zp is free by now, so xp may be the same array.
  const std::size_t b1 = static_cast<std::size_t>(d.ny1) * d.nx1;
  transpose(
      row_, d.p1, d.nz2, b1,
      [&](int lo, int hi, cplx* send) {
        const std::size_t span = (hi - lo) * b1;
        for (int z = lo; z < hi; ++z) {
          const cplx* plane = yp + static_cast<std::size_t>(z) * d.nx1 * d.ny;
          {
            Timed t(times_.pack);
            for (int q = 0; q < d.p1; ++q)
              transpose_copy(plane + q * d.ny1, d.ny, d.nx1, d.ny1, send + q * span + (z - lo) * b1, d.nx1);
            charge_copy((b1 * d.p1) * sizeof(cplx));
          }
          tick();
        }
      },
      [&](int lo, int hi, const cplx* recv) {
        const std::size_t span = (hi - lo) * b1;
        for (int z = lo; z < hi; ++z) {
          cplx* plane = xp + static_cast<std::size_t>(z) * d.ny1 * d.nx;
          {
            Timed t(times_.pack);
            for (int p = 0; p < d.p1; ++p)
              for (int y = 0; y < d.ny1; ++y)
                copy(recv + p * span + (z - lo) * b1 + y * d.nx1, d.nx1,
                     plane + static_cast<std::size_t>(y) * d.nx + p * d.nx1);
            charge_copy((b1 * d.p1) * sizeof(cplx));
          }
          {
            Timed t(times_.fft);
            ffts_.run(plane, d.nx, d.ny1, kInverse);
          }
          tick();
        }
      });
}

}  // namespace ft
