// Cut bounds: whatever the routing, the bytes that must leave (or enter) a node set cross the
// links leaving (entering) it, so bytes / capacity of those links bounds the transfer time.
#pragma once

#include <vector>

#include "optiq/core/pattern.hpp"
#include "optiq/core/network.hpp"

namespace optiq {

// The best such bound (seconds) over a family of node sets: the sources, the destinations, the
// hop balls grown around each of them, and on a network with switches the parts it falls into
// below each level of switches (a fat-tree's pods: where a pattern's bytes leave a pod, its
// uplinks bound the time).
double cut_lower_bound(const Network& topo, const std::vector<Job>& jobs);

// A bound (seconds) from a relaxation that generalises cut bounds: links outside `hot` (one
// flag per link) get unlimited capacity, node pairs joined both ways by them merge, and
// the max-concurrent-flow problem left on the contracted graph is solved to within
// `tolerance` of its optimum, with a certificate that holds for the network. When `hot` holds
// the bottleneck links of a near-optimal plan the bound is close to the true optimum. Returns
// 0 when more than `max_components` components remain; `max_rounds` caps the iterations.
// With `beat` > 0 (a bound the caller already holds) the solve stops as soon as its own flow
// shows that the relaxation's optimum lies within `tolerance` of `beat` or below: it then
// returns at most (1 + tolerance) * beat, which is all a solve to that tolerance could have
// told that caller. (Waiting for the flow to reach `beat` itself never ends where the
// relaxation's optimum is `beat`: on bgq:16x8x8x16x2 disjoint, whose quotients prove no more
// than its cut bound, mcf spent 105 s in its two quotient solves.)
constexpr int kRelaxedRounds = 5000;
double relaxed_lower_bound(const Network& topo, const std::vector<Job>& jobs, const std::vector<char>& hot,
                           double tolerance = 1e-3, int max_components = 2000, int max_rounds = kRelaxedRounds,
                           double beat = 0);

// A relaxation bound (seconds) that needs no plan: nodes agreeing on a subset of the
// dimensions merge, links of the other dimensions become free, and the smaller torus left is
// solved as relaxed_lower_bound does. Candidates are the maximal proper subsets of dimensions
// that leave at most `max_components` merged nodes. With `link_score` (one value per link
// slot, e.g. a plan's link potential) the `tries` subsets whose links score highest are
// solved; without, every candidate is solved to kCoarseTolerance and the best one again to
// `tolerance`. 0 when no subset qualifies (e.g. a one-dimensional ring). `beat` as for
// relaxed_lower_bound.
constexpr double kCoarseTolerance = 0.02;
double quotient_lower_bound(const Network& topo, const std::vector<Job>& jobs, double tolerance = 1e-3,
                            int max_components = 2048, const std::vector<double>& link_score = {}, int tries = 2,
                            double beat = 0);

// The proxy bound (seconds) for overlays (include/optiq/core/legs.hpp; 0 where every link is a
// leg): a byte leaves its default route only through a proxy, which it enters and leaves by
// the proxy's own links. The largest T at which the bytes that collisions of the default
// routes force off them exceed what the proxies' links (and `forward_bandwidth`, bytes/s,
// 0 = unlimited) can relay besides their own jobs' bytes. Links start with `link_preload`
// bytes when given. Keeps the routes, so it certifies where cut bounds stop at the hosts'
// injection time (fat-trees whose default routes collide).
class Legs;
double proxy_lower_bound(const Legs& legs, const std::vector<Job>& jobs, const std::vector<double>& link_preload = {},
                         double forward_bandwidth = 0);

// The cover bound (seconds) for overlays on switched networks (0 where every link is a leg):
// for each part of the network below a level of switches (a fat-tree's pods), a set of links
// that every chain bringing bytes into the part must cross, made of the links by which the
// default routes enter it (one per destination under dmodk) and of terminals' own links;
// their bytes (with `link_preload`) over their capacity. Certifies where two destinations
// share one way in (tapered fat-trees), which cut and proxy bounds do not see.
double cover_lower_bound(const Legs& legs, const std::vector<Job>& jobs, const std::vector<double>& link_preload = {});

}  // namespace optiq
