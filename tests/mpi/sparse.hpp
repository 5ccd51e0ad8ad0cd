// Shared pieces of the sparse exchange tests: seeded patterns that every rank derives in full
// (so each knows exactly what it must receive), and one checked call of optiq_sparse_exchange.
#pragma once

#include <mpi.h>

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "common.hpp"
#include "exchange/barrier.hpp"  // OPTIQ_SX_SMPI
#include "optiq/exchange.h"
#include "optiq/core/rng.hpp"
#include "tools/common/message_bytes.hpp"

namespace sparsetest {

using mpitest::Checker;

struct Send {
  int dest;
  int bytes;
};
// Every rank's messages, in the order that rank passes them: [rank] -> sends.
using Pattern = std::vector<std::vector<Send>>;

// A protocol with, for NBX, a barrier: every combination the tests cycle through.
struct Variant {
  optiq_sx_protocol protocol;
  optiq_sx_barrier barrier;
  std::string name() const {
    std::string n = optiq_sx_protocol_name(protocol);
    return protocol == OPTIQ_SX_NBX ? n + "/" + optiq_sx_barrier_name(barrier) : n;
  }
};

// Under SimGrid SMPI, NBX with MPI_Ibarrier is left out: SMPI 3.32's MPI_Ibarrier completes
// before every rank has entered, so NBX loses messages there (mpi_sparse_barrier shows it).
inline std::vector<Variant> all_variants() {
  std::vector<Variant> v = {{OPTIQ_SX_PEX, OPTIQ_SX_BARRIER_AUTO},
                            {OPTIQ_SX_PCX, OPTIQ_SX_BARRIER_AUTO},
                            {OPTIQ_SX_RSX, OPTIQ_SX_BARRIER_AUTO},
                            {OPTIQ_SX_NBX, OPTIQ_SX_BARRIER_IBARRIER},
                            {OPTIQ_SX_NBX, OPTIQ_SX_BARRIER_DISSEMINATION},
                            {OPTIQ_SX_AUTO, OPTIQ_SX_BARRIER_AUTO}};
  if (OPTIQ_SX_SMPI) v[3] = {OPTIQ_SX_NBX, OPTIQ_SX_BARRIER_AUTO};  // resolves to dissemination
  return v;
}

// Shapes of random patterns: how many neighbours a rank has and how large its messages are.
struct Shape {
  int kind;       // 0: k uniform in [0, P-1]; 1: k in [0, min(3, P-1)]; 2: k = P-1; 3: nobody sends
  bool self;      // some ranks also send to themselves
  int max_bytes;  // sizes uniform in [0, max_bytes], a fifth of them exactly 0
};

inline Shape random_shape(optiq::Rng& rng) {
  static const int sizes[] = {0, 16, 1000, 70000};  // 70000: past every eager limit
  return {static_cast<int>(rng.below(4)), rng.below(2) == 0, sizes[rng.below(4)]};
}

inline Pattern random_pattern(optiq::Rng& rng, int size, const Shape& shape) {
  Pattern p(size);
  for (int r = 0; r < size; ++r) {
    int k = 0;
    switch (shape.kind) {
      case 0: k = static_cast<int>(rng.below(size)); break;
      case 1: k = static_cast<int>(rng.below(std::min(3, size - 1) + 1)); break;
      case 2: k = size - 1; break;
      default: k = 0;
    }
    // k distinct others in random order (partial Fisher-Yates over the other ranks)
    std::vector<int> others;
    for (int d = 0; d < size; ++d)
      if (d != r) others.push_back(d);
    for (int i = 0; i < k; ++i) std::swap(others[i], others[i + rng.below(others.size() - i)]);
    others.resize(k);
    if (shape.self && rng.below(2)) others.insert(others.begin() + rng.below(others.size() + 1), r);
    for (int d : others) {
      const int bytes = rng.below(5) == 0 ? 0 : static_cast<int>(rng.below(shape.max_bytes + 1));
      p[r].push_back({d, bytes});
    }
  }
  return p;
}

// Message bytes depend on source, destination, call and offset.
inline std::uint64_t salt_of(std::uint64_t call) { return 0x5EED0000ULL + call; }

// Runs one exchange on comm with this rank's row of the pattern and checks everything it
// promises: status, the exact set of sources in ascending order, sizes, every byte, NULL for
// zero bytes, the protocol reported, and that the send buffers were left alone.
inline bool checked_exchange(MPI_Comm comm, const Pattern& pattern, std::uint64_t call, const Variant& v,
                             Checker& ck, const std::string& what) {
  int rank, size;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  const std::uint64_t salt = salt_of(call);
  const std::vector<Send>& mine = pattern[rank];
  std::vector<std::vector<unsigned char>> storage;
  std::vector<const void*> bufs;
  std::vector<int> dests, sizes;
  for (const Send& s : mine) {
    storage.emplace_back(s.bytes);
    optiq::data::fill(storage.back().data(), rank, s.dest, s.bytes, salt);
    dests.push_back(s.dest);
    sizes.push_back(s.bytes);
  }
  for (const auto& b : storage) bufs.push_back(b.empty() ? nullptr : b.data());

  optiq_sx_options o;
  optiq_sx_options_init(&o);
  o.barrier = v.barrier;
  optiq_sx_result r;
  const int status = optiq_sparse_exchange(comm, static_cast<int>(mine.size()), dests.data(), bufs.data(),
                                           sizes.data(), v.protocol, &o, &r);
  bool ok = ck.expect(status == OPTIQ_SUCCESS, "%s: status %d: %s", what.c_str(), status, r.message);
  ok = ok && ck.expect(v.protocol == OPTIQ_SX_AUTO ? r.protocol != OPTIQ_SX_AUTO : r.protocol == v.protocol,
                       "%s: ran protocol %d", what.c_str(), r.protocol);

  std::vector<std::pair<int, int>> expected;  // (source, bytes), ascending source
  for (int s = 0; s < size; ++s)
    for (const Send& m : pattern[s])
      if (m.dest == rank) expected.push_back({s, m.bytes});
  if (ok && ck.expect(r.nrecv == static_cast<int>(expected.size()), "%s: %d messages received, %zu expected",
                      what.c_str(), r.nrecv, expected.size())) {
    for (int i = 0; i < r.nrecv; ++i) {
      const int src = expected[i].first, bytes = expected[i].second;
      if (!ck.expect(r.sources[i] == src && r.sizes[i] == bytes,
                     "%s: message %d is %d bytes from rank %d, expected %d bytes from rank %d", what.c_str(), i,
                     r.sizes[i], r.sources[i], bytes, src)) {
        ok = false;
        break;
      }
      if (bytes == 0) {
        ok &= ck.expect(r.recvbufs[i] == nullptr, "%s: zero-byte message from %d has a buffer", what.c_str(), src);
        continue;
      }
      const auto* got = static_cast<const unsigned char*>(r.recvbufs[i]);
      const std::uint64_t bad = optiq::data::first_wrong(got, src, rank, bytes, salt);
      ok &= ck.expect(bad == static_cast<std::uint64_t>(bytes), "%s: byte %llu of %d from rank %d is wrong",
                      what.c_str(), static_cast<unsigned long long>(bad), bytes, src);
    }
  } else {
    ok = false;
  }
  for (size_t i = 0; i < mine.size(); ++i)
    ok &= ck.expect(optiq::data::first_wrong(storage[i].data(), rank, mine[i].dest, mine[i].bytes, salt) ==
                        static_cast<std::uint64_t>(mine[i].bytes),
                    "%s: send buffer %zu was modified", what.c_str(), i);
  optiq_sx_result_free(&r);
  ok &= ck.expect(r.nrecv == 0 && r.sources == nullptr && r.recvbufs == nullptr, "%s: result not emptied",
                  what.c_str());
  return ok;
}

}  // namespace sparsetest
