// A sharper lower bound for mcf on fat-trees, where its own bounds stop short of its epsilon.
//
// mcf's potential weights make poor duals on switched networks: its plan on a 9,216-endpoint
// fat-tree permutation lies within 1% of the optimum, yet its cut, proxy and cover bounds prove
// only 3.3% (bench/results/mcf_profile.md). The path LP over the plan's own paths has the right
// value but many optimal prices, most of which charge links that chains through other hosts
// avoid. Column generation fixes that: solve the LP over a pool of paths (pool_lp.hpp), add
// each job's cheapest chains through one proxy under its prices, drop the paths that carry
// nothing and cost well above their job's cheapest, and again. Every round's prices
// are priced exactly over every chain (fat_tree_chains.hpp), which is a lower bound on any
// plan; the rounds stop once it certifies the target.
#pragma once

#include <vector>

#include "optiq/core/legs.hpp"
#include "optiq/core/plan.hpp"
#include "optiq/core/types.hpp"
#include "paths/fat_tree_chains.hpp"

namespace optiq::detail {

// Whether column_bound can price chains exactly here: a fat-tree's hosts, each with one parent,
// one cable per parent, under routes that climb and then descend (FatTreeChains), relays of
// unlimited rate.
bool column_bound_applies(const Legs& legs, double forward_bandwidth, int hop_bound, int max_proxies);

// Each job's `count` cheapest chains through one proxy that cost less than below[j] under the
// weights `tree` prices with, cheapest first (equal costs: the lower-numbered proxy first).
// Hosts must have one parent (FatTreeChains::one_parent). Spread over threads; the same
// result on any number.
std::vector<std::vector<LinkPath>> one_proxy_columns(const Legs& legs, const FatTreeChains& tree, const std::vector<Job>& jobs,
                                                     const std::vector<double>& below, int count);

// A proven lower bound (seconds) on the busiest link's time of any plan of `plan`'s jobs made of
// chains of default routes, `preload` bytes already on the links; at least `floor`. Starts from
// the plan's paths and ends once the bound reaches `target` seconds or the rounds run out.
// Deterministic whatever the number of threads. `progress` (may be empty) hears of each round.
double column_bound(const Legs& legs, const Plan& plan, const std::vector<double>& preload, double floor,
                    double target, const Progress& progress = nullptr);

}  // namespace optiq::detail
