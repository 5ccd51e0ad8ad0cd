// Detours on a torus (torus_detours.hpp).
#include "planner/torus_detours.hpp"

#include <algorithm>
#include <cmath>

namespace optiq::detail {

bool TorusDetours::applies(const Network& topo) {
  return topo.torus() != nullptr && topo.torus()->num_nodes() == topo.num_vertices() &&
         topo.torus()->num_links() == topo.num_links();
}

TorusDetours::TorusDetours(const Network& topo) : topo_(topo), torus_(*topo.torus()) {}

bool TorusDetours::cheaper(const LinkPath& path, const std::vector<double>& w, double min_gain, Scratch& scratch,
                           LinkPath& out) const {
  const int hops = static_cast<int>(path.size());
  if (hops == 0) return false;
  // Neighbours are found through the port's link (a table) rather than by coordinates (divisions).
  auto& nodes = scratch.nodes;
  auto& ports = scratch.ports;
  nodes.assign(1, topo_.link_src(path[0]));
  ports.clear();
  for (LinkId l : path) {
    nodes.push_back(topo_.link_dst(l));
    ports.push_back({torus_.link_dim(l), torus_.link_direction(l)});
  }
  double best = -min_gain;  // a detour's cost less the path's
  int best_dim = -1, best_dir = 0, best_from = 0, best_to = 0;
  for (int dim = 0; dim < torus_.dims(); ++dim)
    for (int dir : {+1, -1}) {
      // Cost of a detour over [i, j]: aside(i) + sum_{i <= t < j} (shifted(t) - path[t]) + back(j).
      // With P the prefix sums of that difference: min over i < j of (aside(i) - P(i)) + P(j) + back(j).
      double prefix = 0, best_start = INFINITY;
      int start = -1;
      NodeId previous = -1;  // node j - 1 displaced
      for (int j = 0; j <= hops; ++j) {
        // At a mesh's edge no stretch may span node j (or link j - 1): they start afresh.
        const LinkId aside = torus_.link(nodes[j], dim, dir);
        const NodeId m = aside < 0 ? -1 : topo_.link_dst(aside);
        if (m < 0) {
          start = -1, best_start = INFINITY, previous = -1;
          continue;
        }
        if (j > 0) {
          const LinkId s = previous < 0 ? -1 : torus_.link(previous, ports[j - 1].dim, ports[j - 1].dir);
          if (s < 0) {
            start = -1, best_start = INFINITY;
          } else {
            prefix += w[s] - w[path[j - 1]];
          }
        }
        previous = m;
        const LinkId back = torus_.link(m, dim, -dir);
        if (start >= 0 && back >= 0 && best_start + prefix + w[back] < best) {
          best = best_start + prefix + w[back];
          best_dim = dim, best_dir = dir, best_from = start, best_to = j;
        }
        if (w[aside] - prefix < best_start) best_start = w[aside] - prefix, start = j;
      }
    }
  if (best_dim < 0) return false;
  out.clear();
  out.insert(out.end(), path.begin(), path.begin() + best_from);
  NodeId m = nodes[best_from];
  out.push_back(torus_.link(m, best_dim, best_dir));
  m = topo_.link_dst(out.back());
  for (int t = best_from; t < best_to; ++t) {
    out.push_back(torus_.link(m, ports[t].dim, ports[t].dir));
    m = topo_.link_dst(out.back());
  }
  out.push_back(torus_.link(m, best_dim, -best_dir));
  out.insert(out.end(), path.begin() + best_to, path.end());
  // The displaced stretch may cross the path where it runs along the same dimension.
  auto& seen = scratch.seen;
  seen.assign(1, topo_.link_src(out[0]));
  for (LinkId l : out) seen.push_back(topo_.link_dst(l));
  std::sort(seen.begin(), seen.end());
  return std::adjacent_find(seen.begin(), seen.end()) == seen.end();
}

}  // namespace optiq::detail
