// The arithmetic of two-phase I/O (src/runtime/io/layout.cpp) against brute force on random
// small files: every declared byte reaches exactly one buffer position of one round, that
// position maps back to its file offset, and each aggregator writes exactly the declared bytes.
#include <gtest/gtest.h>

#include <map>
#include <set>

#include "optiq/core/error.hpp"
#include "optiq/core/rng.hpp"
#include "runtime/io/layout.hpp"

using namespace optiq;
using namespace optiq::rt::io;

namespace {

// Random disjoint blocks over [0, length): some bytes left as holes, dealt to `ranks` ranks.
std::vector<std::vector<Block>> random_blocks(Rng& rng, int ranks, Bytes length) {
  std::vector<std::vector<Block>> out(ranks);
  std::vector<Bytes> src(ranks, 0);
  for (Bytes at = 0; at < length;) {
    const Bytes piece = std::min<Bytes>(length - at, 1 + rng.below(40));
    if (rng.unit() < 0.8) {
      const int r = int(rng.below(std::uint64_t(ranks)));
      out[r].push_back({0, src[r], at, piece});
      src[r] += piece;
    }
    at += piece;
  }
  return out;
}

std::vector<Interval> intervals(const std::vector<Block>& blocks) {
  std::vector<Interval> out;
  for (const Block& b : blocks) out.push_back({b.offset, b.bytes});
  return out;
}

}  // namespace

TEST(IoLayout, EveryDeclaredByteHasOneBufferPlaceThatMapsBack) {
  Rng rng(7);
  for (int trial = 0; trial < 300; ++trial) {
    const int ranks = 1 + int(rng.below(6));
    const auto blocks = random_blocks(rng, ranks, 1 + rng.below(600));
    std::vector<std::vector<Interval>> all;
    Bytes lo = ~Bytes(0), hi = 0;
    for (const auto& b : blocks) {
      all.push_back(intervals(b));
      for (const Block& x : b) lo = std::min(lo, x.offset), hi = std::max(hi, x.offset + x.bytes);
    }
    if (hi == 0) continue;
    GroupLayout g = shape(lo, hi, 1 + int(rng.below(5)), 1 + rng.below(64));
    const auto cover = covered(all, &g);
    for (int k = 0; k < g.domains; ++k) g.aggregator[k] = k % ranks;

    // What the aggregators write, byte by byte, and where their buffers hold it.
    std::map<Bytes, std::pair<int, Bytes>> written;  // file byte -> (epoch, buffer position of domain)
    for (int k = 0; k < g.domains; ++k)
      for (int e = 0; e < g.epochs(); ++e)
        for (const Interval& iv : cover[k][e]) {
          const Bytes start = g.round_start(k, g.active_rounds[e]);
          ASSERT_GE(iv.offset, start);
          ASSERT_LE(iv.end(), g.round_end(k, g.active_rounds[e]));
          for (Bytes b = iv.offset; b < iv.end(); ++b)
            ASSERT_TRUE(written.emplace(b, std::make_pair(e, b - start)).second) << "byte " << b << " written twice";
        }

    // Every rank's parts put every one of its bytes at that place, once.
    std::set<Bytes> put;
    Bytes declared = 0;
    for (int r = 0; r < ranks; ++r) {
      const auto parts = split(blocks[r], g);
      for (std::size_t i = 1; i < parts.size(); ++i) {
        const Part& a = parts[i - 1];
        const Part& b = parts[i];
        ASSERT_TRUE(a.epoch < b.epoch || (a.epoch == b.epoch && (a.domain < b.domain ||
                                                                   (a.domain == b.domain && a.target < b.target))));
      }
      for (const Part& p : parts) {
        ASSERT_LE(p.target + p.bytes, g.buffer);
        const Block* from = nullptr;
        for (const Block& x : blocks[r])
          if (p.src >= x.src && p.src + p.bytes <= x.src + x.bytes) from = &x;
        ASSERT_NE(from, nullptr) << "a part straddles two blocks";
        for (Bytes i = 0; i < p.bytes; ++i) {
          const Bytes file = from->offset + (p.src - from->src) + i;
          const auto it = written.find(file);
          ASSERT_NE(it, written.end()) << "byte " << file << " is put but never written";
          EXPECT_EQ(it->second, std::make_pair(p.epoch, p.target + i));
          ASSERT_TRUE(put.insert(file).second);
        }
      }
      for (const Block& x : blocks[r]) declared += x.bytes;
    }
    EXPECT_EQ(put.size(), written.size());
    EXPECT_EQ(Bytes(put.size()), declared);
  }
}

TEST(IoLayout, RoundsAreBoundedByTheBufferAndPipelineSmallDomains) {
  const GroupLayout big = shape(0, Bytes(64) << 20, 16, Bytes(16) << 20);  // 4 MiB domains
  EXPECT_EQ(big.span, Bytes(4) << 20);
  EXPECT_EQ(big.buffer, Bytes(1) << 20);  // four rounds, not one
  const GroupLayout tiny = shape(0, 1000, 2, Bytes(16) << 20);
  EXPECT_EQ(tiny.buffer, tiny.span);  // below kMinRoundBytes: one round
  const GroupLayout fixed = shape(100, 1100, 3, 64);
  EXPECT_EQ(fixed.buffer, 64u);
  EXPECT_EQ(fixed.domains, 3);
  EXPECT_EQ(fixed.rounds_per_domain, int((fixed.span + 63) / 64));
}

TEST(IoLayout, OverlapsAreFoundAndNamed) {
  Rng rng(11);
  for (int trial = 0; trial < 300; ++trial) {
    const int ranks = 1 + int(rng.below(4));
    std::vector<std::vector<Interval>> all(ranks);
    std::map<Bytes, int> owner;
    bool overlap = false;
    for (int i = 0; i < 6; ++i) {
      const int r = int(rng.below(std::uint64_t(ranks)));
      const Interval iv{rng.below(100), 1 + rng.below(10)};
      all[r].push_back(iv);
      for (Bytes b = iv.offset; b < iv.end(); ++b) overlap |= !owner.emplace(b, r).second;
    }
    if (overlap)
      EXPECT_THROW(check_disjoint(all), Error);
    else
      EXPECT_NO_THROW(check_disjoint(all));
  }
}

TEST(IoLayout, StridedExtentsFlattenInDataOrder) {
  std::vector<Bytes> sizes;
  const auto blocks = flatten({{{10, 4, 3, 38}}, {}, {{0, 2, 1, 0}, {100, 0, 5, 1}}}, &sizes);
  ASSERT_EQ(blocks.size(), 4u);
  EXPECT_EQ(blocks[2].offset, 86u);
  EXPECT_EQ(blocks[2].src, 8u);
  EXPECT_EQ(blocks[3].var, 2);
  EXPECT_EQ(sizes, (std::vector<Bytes>{12, 0, 2}));
  EXPECT_THROW(flatten({{{-1, 4, 1, 0}}}, &sizes), Error);
  EXPECT_THROW(flatten({{{0, 8, 2, 4}}}, &sizes), Error);
  EXPECT_THROW(flatten({{{0, 8, 1LL << 62, 8}}}, &sizes), Error);
}

TEST(IoLayout, SlotsNumberEachAggregatorsDomains) {
  GroupLayout g;
  g.aggregator = {3, 1, 3, -1, 3, 1};
  EXPECT_EQ(g.slot(0), 0);
  EXPECT_EQ(g.slot(2), 1);
  EXPECT_EQ(g.slot(4), 2);
  EXPECT_EQ(g.slot(5), 1);
}
