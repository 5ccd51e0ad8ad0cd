// Shared pieces of the MPI tests: every rank runs the same code and draws the same random
// choices from the same seed, so tests work at any rank count.
#pragma once

#include <mpi.h>

#include <cstdarg>
#include <cstdio>
#include <string>
#include <vector>

#include "optiq/optiq.h"
#include "optiq/core/rng.hpp"
#include "tools/common/message_bytes.hpp"

namespace mpitest {

inline int world_rank() {
  int r;
  MPI_Comm_rank(MPI_COMM_WORLD, &r);
  return r;
}
inline int world_size() {
  int s;
  MPI_Comm_size(MPI_COMM_WORLD, &s);
  return s;
}

// Counts failures on this rank; total() sums them over all ranks.
class Checker {
 public:
  bool expect(bool ok, const char* fmt, ...) __attribute__((format(printf, 3, 4))) {
    if (ok) return true;
    ++failures_;
    if (failures_ <= 20) {
      char buf[1024];
      va_list ap;
      va_start(ap, fmt);
      std::vsnprintf(buf, sizeof buf, fmt, ap);
      va_end(ap);
      std::fprintf(stderr, "rank %d: FAIL: %s\n", world_rank(), buf);
    }
    return false;
  }
  int total() const {
    int sum = 0;
    MPI_Allreduce(&failures_, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    return sum;
  }

 private:
  int failures_ = 0;
};

// The same status on every rank? Returns it, or -1 when ranks disagree.
inline int common_status(int status) {
  int lo, hi;
  MPI_Allreduce(&status, &lo, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  MPI_Allreduce(&status, &hi, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  return lo == hi ? lo : -1;
}

struct Machine {
  std::string topology;
  int ranks_per_node;
  bool partial;  // some nodes have no rank
};

// Topologies that fit `size` ranks: fully occupied shapes with 1 and 2 ranks per node, and a
// few larger ones where paths may turn at nodes without a rank.
inline std::vector<Machine> machines_for(int size) {
  std::vector<Machine> out;
  for (int rpn : {1, 2}) {
    if (size % rpn) continue;
    const int n = size / rpn;
    out.push_back({"torus:" + std::to_string(n), rpn, false});
    for (int a = 2; a * a <= n; ++a)
      if (n % a == 0) {
        out.push_back({"torus:" + std::to_string(a) + "x" + std::to_string(n / a), rpn, false});
        out.push_back({"mesh:" + std::to_string(a) + "x" + std::to_string(n / a), rpn, false});
      }
    if ((n & (n - 1)) == 0 && n >= 2 && n <= 32) {  // BG/Q style: five dimensions of size 1 or 2
      std::string dims;
      for (int d = 0, m = n; d < 5; ++d, m /= 2) dims += std::string(d ? "x" : "") + (m >= 2 ? "2" : "1");
      out.push_back({"bgq:" + dims, rpn, false});
      if (n >= 4) {
        std::string t = "torus:2";
        for (int m = n / 2; m > 1; m /= 2) t += "x2";
        out.push_back({t, rpn, false});
      }
    }
    out.push_back({"torus:" + std::to_string(n + 1), rpn, true});
    if (n <= 16) out.push_back({"bgq:2x2x2x2x2", rpn, true});
    if (n <= 9 && n > 4) out.push_back({"torus:3x3", rpn, true});
  }
  return out;
}

// One rank's side of an alltoallv whose whole count matrix every rank derives from a seed.
// Counts are in elements of `elem` bytes; displacements leave random gaps and visit peers in
// a random order, so offsets are never simply prefix sums.
struct Exchange {
  int elem = 1;
  std::vector<int> scounts, sdispls, rcounts, rdispls;
  std::size_t send_elems = 0, recv_elems = 0;
};

struct PatternShape {
  double density = 1.0;  // chance that a pair exchanges anything
  int max_count = 100;   // elements per pair at most (may be 0)
  bool self = true;      // ranks may send to themselves
};

// Rank `rank`'s side of the pattern count[source][destination], with displacements drawn from
// `seed` (they differ between calls of one pattern when the seed does).
inline Exchange exchange_from(const std::vector<std::vector<int>>& count, std::uint64_t seed, int rank, int elem) {
  const int size = static_cast<int>(count.size());
  Exchange x;
  x.elem = elem;
  auto layout = [&](std::uint64_t salt, const std::vector<int>& counts, std::vector<int>* displs,
                    std::size_t* total) {
    optiq::Rng order_rng(seed ^ (salt * 0x9E3779B97F4A7C15ULL) ^ static_cast<std::uint64_t>(rank));
    std::vector<int> order(size);
    for (int i = 0; i < size; ++i) order[i] = i;
    for (int i = size - 1; i > 0; --i) std::swap(order[i], order[order_rng.below(i + 1)]);
    displs->assign(size, 0);
    std::size_t at = order_rng.below(3);
    for (int p : order) {
      (*displs)[p] = static_cast<int>(at);
      at += counts[p] + order_rng.below(3);
    }
    *total = at + 1;
  };
  for (int p = 0; p < size; ++p) {
    x.scounts.push_back(count[rank][p]);
    x.rcounts.push_back(count[p][rank]);
  }
  layout(1, x.scounts, &x.sdispls, &x.send_elems);
  layout(2, x.rcounts, &x.rdispls, &x.recv_elems);
  return x;
}

inline std::vector<std::vector<int>> random_counts(optiq::Rng& rng, int size, const PatternShape& shape) {
  std::vector<std::vector<int>> count(size, std::vector<int>(size, 0));
  for (int s = 0; s < size; ++s)
    for (int d = 0; d < size; ++d) {
      const bool on = rng.unit() < shape.density && (shape.self || s != d);
      const int c = static_cast<int>(rng.below(static_cast<std::uint64_t>(shape.max_count) + 1));
      count[s][d] = on ? c : 0;
    }
  return count;
}

inline Exchange make_exchange(std::uint64_t seed, int rank, int size, int elem, const PatternShape& shape) {
  optiq::Rng rng(seed);
  return exchange_from(random_counts(rng, size, shape), seed, rank, elem);
}

constexpr unsigned char kCanary = 0x5A;

inline void fill_buffers(const Exchange& x, std::vector<unsigned char>& sbuf, std::vector<unsigned char>& rbuf,
                         int rank, std::uint64_t salt) {
  sbuf.assign(x.send_elems * x.elem, 0xC3);
  rbuf.assign(x.recv_elems * x.elem, kCanary);
  for (std::size_t p = 0; p < x.scounts.size(); ++p)
    optiq::data::fill(sbuf.data() + std::size_t(x.sdispls[p]) * x.elem, rank, static_cast<int>(p),
                      std::uint64_t(x.scounts[p]) * x.elem, salt);
  for (std::size_t p = 0; p < x.rcounts.size(); ++p)
    optiq::data::fill(rbuf.data() + std::size_t(x.rdispls[p]) * x.elem, static_cast<int>(p), rank,
                      std::uint64_t(x.rcounts[p]) * x.elem, salt, true);
}

// Every expected byte in place, and the gaps between messages untouched.
inline bool verify_buffers(const Exchange& x, const std::vector<unsigned char>& rbuf, int rank, std::uint64_t salt,
                           std::string* why) {
  std::vector<bool> covered(rbuf.size(), false);
  for (std::size_t p = 0; p < x.rcounts.size(); ++p) {
    const std::size_t at = std::size_t(x.rdispls[p]) * x.elem, n = std::size_t(x.rcounts[p]) * x.elem;
    const std::uint64_t bad = optiq::data::first_wrong(rbuf.data() + at, static_cast<int>(p), rank, n, salt);
    if (bad != n) {
      *why = "byte " + std::to_string(bad) + " of the " + std::to_string(n) + " from rank " + std::to_string(p) +
             " is wrong";
      return false;
    }
    for (std::size_t i = 0; i < n; ++i) covered[at + i] = true;
  }
  for (std::size_t i = 0; i < rbuf.size(); ++i)
    if (!covered[i] && rbuf[i] != kCanary) {
      *why = "byte " + std::to_string(i) + " of the receive buffer, outside every message, was overwritten";
      return false;
    }
  return true;
}

inline MPI_Datatype datatype_of(int elem) {
  switch (elem) {
    case 1: return MPI_BYTE;
    case 4: return MPI_INT;
    default: return MPI_DATATYPE_NULL;  // callers build others with MPI_Type_contiguous
  }
}

}  // namespace mpitest
