#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "optiq/core/network.hpp"
#include "optiq/core/rng.hpp"
#include "optiq/core/routing.hpp"
#include "planner/torus_detours.hpp"

using namespace optiq;

namespace {

struct Candidate {
  double cost;
  bool simple;
};

double cost_of(const LinkPath& p, const std::vector<double>& w) {
  double c = 0;
  for (LinkId l : p) c += w[l];
  return c;
}

bool is_simple_path(const Network& net, const LinkPath& p, NodeId src, NodeId dst) {
  if (p.empty() || net.link_src(p.front()) != src || net.link_dst(p.back()) != dst) return false;
  std::vector<NodeId> nodes{src};
  for (std::size_t i = 0; i < p.size(); ++i) {
    if (i > 0 && net.link_src(p[i]) != net.link_dst(p[i - 1])) return false;
    nodes.push_back(net.link_dst(p[i]));
  }
  std::sort(nodes.begin(), nodes.end());
  return std::adjacent_find(nodes.begin(), nodes.end()) == nodes.end();
}

// Every detour of `path` built link by link from its definition: step aside at node i along
// (dim, dir), follow links i..j-1 displaced, step back at node j.
std::vector<Candidate> all_detours(const Network& net, const LinkPath& path, const std::vector<double>& w) {
  const TorusShape& t = *net.torus();
  std::vector<NodeId> nodes{net.link_src(path[0])};
  for (LinkId l : path) nodes.push_back(net.link_dst(l));
  std::vector<Candidate> out;
  for (int dim = 0; dim < t.dims(); ++dim)
    for (int dir : {+1, -1})
      for (std::size_t i = 0; i < nodes.size(); ++i)
        for (std::size_t j = i + 1; j < nodes.size(); ++j) {
          LinkPath d(path.begin(), path.begin() + static_cast<long>(i));
          bool ok = t.link(nodes[i], dim, dir) >= 0;
          if (ok) d.push_back(t.link(nodes[i], dim, dir));
          for (std::size_t k = i; ok && k < j; ++k) {
            const NodeId m = t.step(nodes[k], dim, dir);
            const LinkId l = m < 0 ? -1 : t.link(m, t.link_dim(path[k]), t.link_direction(path[k]));
            ok = l >= 0;
            if (ok) d.push_back(l);
          }
          const NodeId mj = t.step(nodes[j], dim, dir);
          ok = ok && mj >= 0 && t.link(mj, dim, -dir) >= 0;
          if (!ok) continue;
          d.push_back(t.link(mj, dim, -dir));
          d.insert(d.end(), path.begin() + static_cast<long>(j), path.end());
          out.push_back({cost_of(d, w), is_simple_path(net, d, nodes.front(), nodes.back())});
        }
  return out;
}

// Against the enumeration: a detour found is simple, joins the same ends and costs the least
// of all detours; none is found only when no detour gains enough, or the cheapest crosses itself.
void check_against_enumeration(const std::string& spec, std::uint64_t seed) {
  const Network net = parse_network(spec);
  ASSERT_TRUE(detail::TorusDetours::applies(net)) << spec;
  const auto routing = make_routing("dor", net);
  const detail::TorusDetours detours(net);
  detail::TorusDetours::Scratch scratch;
  Rng rng(seed);
  int found = 0;
  for (int trial = 0; trial < 300; ++trial) {
    std::vector<double> w(net.num_links());
    for (double& x : w) x = rng.below(4) == 0 ? 0.0 : rng.unit();  // some links free, as in mcf
    const NodeId src = static_cast<NodeId>(rng.below(net.num_vertices()));
    const NodeId dst = static_cast<NodeId>(rng.below(net.num_vertices()));
    if (src == dst) continue;
    const LinkPath path = routing->route(src, dst);
    const double gain = rng.below(2) == 0 ? 0.0 : 0.05 * cost_of(path, w);
    LinkPath out;
    const bool got = detours.cheaper(path, w, gain, scratch, out);
    const auto all = all_detours(net, path, w);
    double best = INFINITY;
    for (const auto& c : all) best = std::min(best, c.cost);
    if (got) {
      ++found;
      EXPECT_TRUE(is_simple_path(net, out, src, dst)) << spec << " trial " << trial;
      EXPECT_NEAR(cost_of(out, w), best, 1e-9) << spec << " trial " << trial;
      EXPECT_LT(cost_of(out, w), cost_of(path, w) - gain + 1e-12);
    } else if (best < cost_of(path, w) - gain - 1e-9) {
      const bool cheapest_crosses = std::any_of(all.begin(), all.end(), [&](const Candidate& c) {
        return !c.simple && std::abs(c.cost - best) <= 1e-9;
      });
      EXPECT_TRUE(cheapest_crosses) << spec << " trial " << trial << ": a cheaper simple detour was missed";
    }
  }
  EXPECT_GT(found, 30) << spec;  // the check above must have had detours to compare
}

}  // namespace

TEST(TorusDetours, CheapestDetourMatchesEnumerationOnTori) {
  check_against_enumeration("torus:4x5x3", 1);
  check_against_enumeration("bgq:2x3x4x4x2", 2);
}

TEST(TorusDetours, CheapestDetourMatchesEnumerationOnMeshes) {
  check_against_enumeration("mesh:5x4x3", 3);
}

TEST(TorusDetours, AppliesOnlyWhereTheTorusIsTheWholeNetwork) {
  EXPECT_TRUE(detail::TorusDetours::applies(parse_network("torus:4x4")));
  EXPECT_FALSE(detail::TorusDetours::applies(parse_network("mira:512+io")));
  EXPECT_FALSE(detail::TorusDetours::applies(parse_network("fattree:2;4,4;1,2;1,2")));
}
