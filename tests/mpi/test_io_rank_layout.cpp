// The layout of a simulated I/O job: compute ranks first, then one rank per I/O node, and a clear
// error when the ranks do not fit.
#include <gtest/gtest.h>

#include "optiq/core/error.hpp"
#include "runtime/api/io_rank_layout.hpp"
#include "runtime/api/shared_network.hpp"

using namespace optiq;

TEST(IoRankLayout, ComputeRanksThenOnePerIoNode) {
  const auto net = rt::shared_network("mira:512+io");
  const long long ios = 4;  // one I/O node per 128-node pset
  const auto layout = rt::io_rank_layout(*net, "mira:512+io", 2, 1000 + ios);
  EXPECT_EQ(layout.compute, 1000);
  ASSERT_EQ(static_cast<long long>(layout.io_nodes.size()), ios);
  for (std::size_t i = 0; i < layout.io_nodes.size(); ++i) {
    EXPECT_EQ(net->kind(layout.io_nodes[i]), VertexKind::Io);
    if (i) EXPECT_LT(layout.io_nodes[i - 1], layout.io_nodes[i]);
  }
}

TEST(IoRankLayout, RanksThatDoNotFitAreAnErrorNamingTheTopology) {
  const auto net = rt::shared_network("mira:512+io");
  EXPECT_NO_THROW(rt::io_rank_layout(*net, "mira:512+io", 2, 1024 + 4));
  for (long long size : {1025LL + 4, 4LL, 0LL}) {
    try {
      rt::io_rank_layout(*net, "mira:512+io", 2, size);
      ADD_FAILURE() << size << " ranks fit";
    } catch (const Error& e) {
      EXPECT_NE(std::string(e.what()).find("mira:512+io"), std::string::npos) << e.what();
    }
  }
  const auto plain = rt::shared_network("torus:4x4");
  EXPECT_THROW(rt::io_rank_layout(*plain, "torus:4x4", 1, 8), Error);
}
