// The path LP restricted to a pool of paths per job, solved approximately by a first-order
// primal-dual method (PDHG with restarts and an adaptive primal weight, in the manner of PDLP):
//
//   min over splits f (per job, fractions over its paths summing to 1)
//   of  T(f) = max over links l of (load_l(f) + preload_l) / capacity_l
//
// as the saddle point min_f max_y y . (load(f) + preload) over prices y >= 0 with
// sum_l capacity_l y_l = 1. Every iterate certifies itself: a split's T bounds the pool's
// optimum from above, and the prices' dual value (each job's cheapest pool path under y, plus
// the preload they price) from below. mcf uses its prices where its own potential's weights
// certify too little (mcf_columns.cpp): priced over every path of the network, they are a
// lower bound for any plan.
#pragma once

#include <vector>

#include "optiq/core/network.hpp"

namespace optiq::detail {

struct PoolLpInput {
  std::vector<std::vector<LinkPath>> paths;  // per job: its candidate paths (at least one)
  std::vector<double> bytes;                 // per job, > 0
  // Per job and path, a split to start from (fractions summing to 1); empty: even.
  std::vector<std::vector<double>> share;
  // Per link, prices to start from (any positive scale); empty: even over the pool's links.
  std::vector<double> price;
  std::vector<double> preload;  // per link, bytes other classes put ahead (may be empty)
};

struct PoolLpResult {
  std::vector<std::vector<double>> share;  // the best split found (smallest T), per job and path
  std::vector<double> price;               // per network link: the best prices found (largest dual)
  double upper = 0;                        // seconds: T of `share`
  double lower = 0;                        // seconds: the dual value of `price` over the pool
  int iterations = 0;
};

// Iterates until the upper and lower values are within `tolerance` (relative) or for
// `max_iterations`. The work of an iteration is spread over threads (OPTIQ_THREADS); every
// number is computed by one thread in a fixed order, so results do not depend on how many.
PoolLpResult solve_pool_lp(const Network& topo, const PoolLpInput& in, double tolerance, int max_iterations);

}  // namespace optiq::detail
