#include <gtest/gtest.h>

#include <algorithm>
#include <set>

#include "optiq/core/bytes.hpp"
#include "optiq/core/error.hpp"
#include "optiq/core/pattern.hpp"

using namespace optiq;

TEST(Bytes, ParsesUnits) {
  EXPECT_EQ(parse_bytes("8MiB"), 8u << 20);
  EXPECT_EQ(parse_bytes("64KiB"), 64u << 10);
  EXPECT_EQ(parse_bytes("1000000"), 1000000u);
  EXPECT_EQ(parse_bytes("1.5KiB"), 1536u);
  EXPECT_EQ(parse_bytes("2MB"), 2000000u);
  EXPECT_EQ(parse_bytes("0"), 0u);
  EXPECT_EQ(parse_bytes("9223372036854775807"), kMaxBytes);
  EXPECT_EQ(parse_bytes("8388607TiB"), 8388607ull << 40);
  EXPECT_EQ(format_bytes(8u << 20), "8MiB");
  EXPECT_EQ(format_bytes(1000), "1000");
  for (const char* bad : {"", "-5", "abc", "8XB", "1.2.3", "0.5", "99999999999999999999", "20000000TiB", "MiB",
                          "9223372036854775808", "18446744073709551615", "8388608TiB", "9223372036854775808.0"})
    EXPECT_THROW(parse_bytes(bad), Error) << bad;
}

// Byte counts and their sums stay within signed 64 bits, or are refused by name.
TEST(Bytes, CheckedArithmeticStopsAtTheLargestCount) {
  EXPECT_EQ(checked_add(kMaxBytes - 1, 1, "x"), kMaxBytes);
  EXPECT_EQ(checked_mul(1ull << 31, 1ull << 31, "x"), 1ull << 62);
  EXPECT_EQ(checked_mul(0, UINT64_MAX, "x"), 0u);
  for (auto [a, b] : std::vector<std::pair<Bytes, Bytes>>{{kMaxBytes, 1}, {1, kMaxBytes}, {kMaxBytes + 1, 0},
                                                          {UINT64_MAX, 1}, {1ull << 63, 1ull << 63}}) {
    try {
      checked_add(a, b, "the sum");
      ADD_FAILURE() << a << " + " << b;
    } catch (const Error& e) {
      EXPECT_EQ(std::string(e.what()).rfind("the sum: ", 0), 0u) << e.what();
    }
  }
  EXPECT_THROW(checked_mul(1ull << 32, 1ull << 31, "x"), Error);
  EXPECT_THROW(checked_mul(3, 3074457345618258603ull, "x"), Error);
  EXPECT_EQ(total_bytes({{0, 1, kMaxBytes - 5}, {1, 0, 5}}), kMaxBytes);
  // Five jobs of 2^62 bytes wrap around 64 bits to 2^62: the wrapped total must not pass.
  EXPECT_THROW(total_bytes(std::vector<Job>(5, Job{0, 1, 1ull << 62})), Error);
}

TEST(Pattern, MToNFanOutAndFanIn) {
  const auto out = m_to_n(2, 10, 8, 100);
  ASSERT_EQ(out.size(), 8u);
  EXPECT_EQ(out[0], Pair(10, 100));
  EXPECT_EQ(out[3], Pair(10, 103));
  EXPECT_EQ(out[4], Pair(11, 104));
  const auto in = m_to_n(6, 0, 2, 50);
  ASSERT_EQ(in.size(), 6u);
  EXPECT_EQ(in[2], Pair(2, 50));
  EXPECT_EQ(in[3], Pair(3, 51));
  EXPECT_THROW(m_to_n(3, 0, 8, 0), Error);
  EXPECT_THROW(m_to_n(0, 0, 8, 0), Error);
}

TEST(Pattern, ThesisOneToEightCases) {
  PatternOptions o;
  o.num_nodes = 1024;
  const auto disjoint = named_pattern("disjoint", o);
  ASSERT_EQ(disjoint.size(), 512u);
  EXPECT_EQ(disjoint.front(), Pair(0, 512));
  EXPECT_EQ(disjoint.back(), Pair(63, 1023));
  const auto overlap = named_pattern("overlap", o);
  EXPECT_EQ(overlap.front(), Pair(0, 32));
  EXPECT_EQ(overlap.back(), Pair(63, 543));
  const auto subset = named_pattern("subset", o);
  EXPECT_EQ(subset.front(), Pair(128, 0));
  EXPECT_EQ(subset.back(), Pair(191, 511));
  o.start_dst = 448;  // a sweep variant
  EXPECT_EQ(named_pattern("overlap", o).front(), Pair(0, 448));
}

TEST(Pattern, RandomIsASeededShuffleOfTheDestinations) {
  PatternOptions o;
  o.num_nodes = 1024;
  o.seed = 7;
  const auto base = named_pattern("disjoint", o);
  const auto a = named_pattern("random", o);
  const auto b = named_pattern("random", o);
  EXPECT_EQ(a, b);
  std::multiset<NodeId> dst_base, dst_a;
  for (std::size_t i = 0; i < a.size(); ++i) {
    EXPECT_EQ(a[i].first, base[i].first);
    dst_base.insert(base[i].second);
    dst_a.insert(a[i].second);
  }
  EXPECT_EQ(dst_base, dst_a);
  EXPECT_NE(a, base);
  o.seed = 8;
  EXPECT_NE(named_pattern("random", o), a);
}

TEST(Pattern, RandomShuffleIsUniform) {
  // Every destination lands at position 0 about equally often over many seeds.
  PatternOptions o;
  o.num_nodes = 16;  // 1 source, 8 destinations
  std::vector<int> hits(16, 0);
  const int trials = 8000;
  for (int s = 0; s < trials; ++s) {
    o.seed = s;
    ++hits[named_pattern("random", o)[0].second];
  }
  for (int d = 8; d < 16; ++d) EXPECT_NEAR(hits[d], trials / 8, trials / 8 * 0.15) << d;
}

TEST(Pattern, BadPatternsAreErrors) {
  PatternOptions o;
  o.num_nodes = 8;
  EXPECT_THROW(named_pattern("disjoint", o), Error);  // P/16 == 0 sources
  o.num_nodes = 64;
  EXPECT_THROW(named_pattern("spiral", o), Error);
  o.start_dst = 60;
  EXPECT_THROW(named_pattern("disjoint", o), Error);  // does not fit
}

TEST(Sizes, FixedUniformParetoAreSeededAndBounded) {
  std::vector<Pair> pairs(500, Pair(0, 1));
  for (const Job& j : assign_sizes(pairs, "64KiB", 1)) EXPECT_EQ(j.bytes, 65536u);
  const auto u1 = assign_sizes(pairs, "uniform:64KiB:8MiB", 3);
  const auto u2 = assign_sizes(pairs, "uniform:64KiB:8MiB", 3);
  std::set<Bytes> distinct;
  for (std::size_t i = 0; i < u1.size(); ++i) {
    EXPECT_EQ(u1[i].bytes, u2[i].bytes);
    EXPECT_GE(u1[i].bytes, 65536u);
    EXPECT_LE(u1[i].bytes, 8u << 20);
    distinct.insert(u1[i].bytes);
  }
  EXPECT_GT(distinct.size(), 400u);
  const auto p = assign_sizes(pairs, "pareto:1.5:64KiB:8MiB", 3);
  Bytes smallest = UINT64_MAX, largest = 0;
  for (const Job& j : p) smallest = std::min(smallest, j.bytes), largest = std::max(largest, j.bytes);
  EXPECT_GE(smallest, 65536u);
  EXPECT_LE(largest, 8u << 20);
  EXPECT_LT(smallest * 2, largest);
  for (const char* bad : {"uniform:8MiB:64KiB", "pareto:0:1KiB", "pareto:x:1KiB", "normal:1:2", "uniform:1"})
    EXPECT_THROW(assign_sizes(pairs, bad, 0), Error) << bad;
}

TEST(Requests, ParsesLinesAndComments) {
  const auto jobs = parse_requests("# header\n0 5 8MiB\n\n3 2 100 # trailing\n", 8, "r.txt");
  ASSERT_EQ(jobs.size(), 2u);
  EXPECT_EQ(jobs[0].dst, 5);
  EXPECT_EQ(jobs[0].bytes, 8u << 20);
  EXPECT_EQ(jobs[1].src, 3);
  EXPECT_EQ(jobs[1].bytes, 100u);
}

// The fourth column is the job's traffic class; without it, 0 (the most urgent).
TEST(Requests, PriorityIsTheOptionalFourthColumn) {
  const auto jobs = parse_requests("0 1 10 3\n1 2 10\n2 3 10 15 # bulk\n", 8, "r.txt");
  ASSERT_EQ(jobs.size(), 3u);
  EXPECT_EQ(jobs[0].priority, 3);
  EXPECT_EQ(jobs[1].priority, 0);
  EXPECT_EQ(jobs[2].priority, kMaxPriority);
}

TEST(Requests, ErrorsNameFileLineAndValue) {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"0 9 10\n", "r.txt:1: node 9"}, {"0 1\n", "r.txt:1: expected"}, {"0 1 -3\n", "'-3'"},
      {"x 1 3\n", "bad node 'x'"},     {"# nothing\n", "no requests"},  {"0 1 2 3 4\n", "expected"},
      {"0 1 2 16\n", "r.txt:1: bad priority '16'"}, {"0 1 2 -1\n", "bad priority '-1'"},
      {"0 1 2 007\n", "bad priority '007'"}};
  for (const auto& [text, needle] : cases) {
    try {
      parse_requests(text, 8, "r.txt");
      FAIL() << text;
    } catch (const Error& e) {
      EXPECT_NE(std::string(e.what()).find(needle), std::string::npos) << e.what();
    }
  }
  EXPECT_THROW(read_requests("/nonexistent/requests.txt", 8), Error);
}

// The count of requests is bounded (kMaxFileJobs): the limit's line is named, and a file at the
// limit is read whole.
TEST(Requests, MoreJobsThanTheLimitAreRefusedAtTheirLine) {
  const std::string three = "0 1 1\n1 2 1\n# a comment\n2 3 1\n";
  EXPECT_EQ(parse_requests(three, 8, "r.txt", 3).size(), 3u);
  try {
    parse_requests(three + "3 4 1\n", 8, "r.txt", 3);
    FAIL() << "a fourth request passed a limit of three";
  } catch (const Error& e) {
    EXPECT_EQ(std::string(e.what()), "r.txt:5: more than 3 requests (the limit of a request file)");
  }
  EXPECT_GE(kMaxFileJobs, std::size_t(4096) * 4096);  // an all-to-all of 4,096 nodes fits
}
