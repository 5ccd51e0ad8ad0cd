// The arithmetic of two-phase I/O, without MPI: a rank's declared extents as blocks, the file
// domains and rounds of a group, which part of which block goes to which aggregator buffer in
// which epoch, and what each aggregator writes per epoch. The root of a group plans; every rank
// then splits its own blocks with the plan's few numbers.
#pragma once

#include <string>
#include <vector>

#include "optiq/io.h"
#include "optiq/core/types.hpp"

namespace optiq::rt::io {

// A flattened piece of the file: [offset, offset + bytes).
struct Interval {
  Bytes offset = 0;
  Bytes bytes = 0;
  Bytes end() const { return offset + bytes; }
};

// One block of a rank's data: bytes at `src` of variable `var`'s buffer, for file `offset`.
struct Block {
  int var = 0;
  Bytes src = 0;
  Bytes offset = 0;
  Bytes bytes = 0;
};

// A rank's declaration, flattened in data order (zero-byte blocks dropped). Throws
// optiq::Error for negative values, a stride shorter than its block, or offsets past 2^62.
std::vector<Block> flatten(const std::vector<std::vector<optiq_io_extent>>& vars, std::vector<Bytes>* var_bytes);

// The group's plan, the same on every rank of it.
struct GroupLayout {
  Bytes lo = 0;      // first byte of the file written
  Bytes span = 0;    // bytes per domain (the last may be shorter)
  Bytes buffer = 0;  // bytes per aggregator buffer
  int domains = 0;
  int rounds_per_domain = 0;
  std::vector<int> aggregator;     // per domain: its rank in the group, -1 when it holds no data
  std::vector<int> active_rounds;  // the rounds with data somewhere, ascending: epoch e runs round active_rounds[e]

  int epochs() const { return static_cast<int>(active_rounds.size()); }
  // Which of its aggregator's buffer pairs domain k uses: placements may give one node several
  // domains (romio-bgq does when the sets are small), each then with two buffers of its own.
  int slot(int k) const;
  // First file byte of round `round` of domain k (the buffer's byte 0).
  Bytes round_start(int k, int round) const { return lo + Bytes(k) * span + Bytes(round) * buffer; }
  Bytes round_end(int k, int round) const;
};

// A domain that fits in fewer than this many buffers is still cut into this many rounds (of at
// least kMinRoundBytes), so that its writes overlap its aggregation: with one round, nothing
// overlaps (a 16-rank HACC SoA write here runs 13% faster in 4 rounds than in 1).
constexpr Bytes kPipelineRounds = 4;
constexpr Bytes kMinRoundBytes = Bytes(256) << 10;

// Domains and rounds for a file whose written bytes lie in [lo, hi) (hi > lo): `aggregators`
// domains of equal span as in ROMIO and optiq::file_domains, rounds of at most `buffer` bytes
// (fewer when the domain is small, see kPipelineRounds) and never more than a domain.
// Aggregators and active rounds are left to the caller.
GroupLayout shape(Bytes lo, Bytes hi, int aggregators, Bytes buffer);

// The domain and round a file byte falls in.
std::pair<int, int> locate(const GroupLayout& layout, Bytes offset);

// A piece of a block bound for one aggregator's buffer in one epoch: `bytes` at `src` of
// variable `var` to byte `target` of that round's buffer.
struct Part {
  int epoch = 0;
  int domain = 0;
  Bytes target = 0;
  int var = 0;
  Bytes src = 0;
  Bytes bytes = 0;
};
// A rank's parts, ordered by epoch, then domain, then place in the buffer. Throws optiq::Error if a
// block falls in a round the layout marks inactive (a plan that does not match the blocks).
std::vector<Part> split(const std::vector<Block>& blocks, const GroupLayout& layout);

// The root's checks and plan. ranks[i] is the i-th group rank's flattened file intervals.
// Throws optiq::Error naming both ranks when two intervals overlap.
void check_disjoint(const std::vector<std::vector<Interval>>& ranks);
// Marks the active rounds of `layout` and returns, per domain and epoch, the merged intervals
// the aggregator writes (ascending, touching ones joined).
std::vector<std::vector<std::vector<Interval>>> covered(const std::vector<std::vector<Interval>>& ranks,
                                                         GroupLayout* layout);

}  // namespace optiq::rt::io
