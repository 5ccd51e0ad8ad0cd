// The local 1-D transforms: batches of contiguous lines, through FFTW.
#pragma once

#include <map>
#include <tuple>

#include <fftw3.h>

#include "random_field.hpp"

namespace ft {

// NPB's forward transform uses exp(+2 pi i jk/n) and its inverse exp(-2 pi i jk/n), neither
// normalised (the checksum divides by the number of points instead). FFTW's sign argument is
// that exponent's sign, so these are the values handed to it.
enum Direction { kForward = FFTW_BACKWARD, kInverse = FFTW_FORWARD };

// Every layout of the decomposition keeps the dimension being transformed contiguous, so one
// kind of batch serves all three dimensions: `count` lines of n points, back to back.
class LineFfts {
 public:
  LineFfts() = default;
  LineFfts(const LineFfts&) = delete;
  LineFfts& operator=(const LineFfts&) = delete;
  ~LineFfts();

  // Transforms in place. Plans are made once per shape (slabs of unequal sizes need a few)
  // and are unaligned, so a batch may start anywhere in an array.
  void run(cplx* lines, int n, int count, Direction direction);

 private:
  std::map<std::tuple<int, int, int>, fftw_plan> plans_;
};

}  // namespace ft
