// Contexts share one parsed network per process (what keeps 4,096 simulated ranks in memory):
// the same spec gives the same object while it lives, an edited graph file gives another.
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <string>

#include "optiq/core/error.hpp"
#include "runtime/api/shared_network.hpp"

using namespace optiq;

namespace {

// A line of `hosts` endpoints, one link each way between neighbours.
void write_line(const std::string& path, int hosts) {
  std::ofstream out(path);
  out << R"({"directed": false, "nodes": [)";
  for (int i = 0; i < hosts; ++i) out << (i ? "," : "") << R"({"id": )" << i << "}";
  out << R"(], "links": [)";
  for (int i = 0; i + 1 < hosts; ++i)
    out << (i ? "," : "") << R"({"source": )" << i << R"(, "target": )" << i + 1 << R"(, "capacity": 1e9})";
  out << "]}";
}

}  // namespace

TEST(SharedNetwork, OneObjectPerSpecWhileItLives) {
  auto a = rt::shared_network("torus:4x4");
  auto b = rt::shared_network("torus:4x4");
  EXPECT_EQ(a.get(), b.get());
  EXPECT_EQ(a->digest(), parse_network("torus:4x4").digest());
  auto c = rt::shared_network("torus:4x2");
  EXPECT_NE(a.get(), c.get());
  EXPECT_EQ(c->num_vertices(), 8);

  std::weak_ptr<const Network> gone = a;
  a.reset();
  b.reset();
  EXPECT_TRUE(gone.expired()) << "the cache must not keep a network no context uses";
  EXPECT_EQ(rt::shared_network("torus:4x4")->num_vertices(), 16);
}

TEST(SharedNetwork, AnEditedGraphFileIsAnotherNetwork) {
  const std::string path = ::testing::TempDir() + "optiq_shared_network_line.json";
  write_line(path, 3);
  auto three = rt::shared_network("graph:" + path);
  EXPECT_EQ(three->num_vertices(), 3);
  EXPECT_EQ(three->spec(), "graph:" + path);
  EXPECT_EQ(rt::shared_network("graph:" + path).get(), three.get());

  write_line(path, 5);
  auto five = rt::shared_network("graph:" + path);
  EXPECT_EQ(five->num_vertices(), 5);
  EXPECT_EQ(three->num_vertices(), 3) << "a live network never changes";
  EXPECT_EQ(five->digest(), parse_network("graph:" + path).digest());
  std::remove(path.c_str());
}

TEST(SharedNetwork, BadSpecsThrowAsParsingDoes) {
  EXPECT_THROW(rt::shared_network("nosuch:4"), Error);
  EXPECT_THROW(rt::shared_network("graph:"), Error);
  EXPECT_THROW(rt::shared_network("graph:/nonexistent/optiq.json"), Error);
  EXPECT_THROW(rt::shared_network("mira:1000"), Error);
}
