// mcf: a fluid-optimal plan without an LP solver, with its own certificate.
//
// Minimises the busiest link's load relative to its capacity (the fluid transfer time) by
// per-job Newton steps on an exponential potential of link utilisation, sharpening the
// potential as it goes. Pricing rounds search exact cheapest paths under the potential's
// link weights, which gives a proven lower bound by weak duality:
//     T* >= sum_j bytes_j * dist_w(j) / sum_l capacity_l * w_l,
// alongside cut, relaxation and quotient bounds (include/optiq/cut_bound.hpp). It stops when
// its flow is within (1 + epsilon) of the best bound, or at the iteration cap, then makes the
// plan practical (minimum bytes per path, paths per job) with moves at full sharpness.
#pragma once

#include <optional>

#include "optiq/paths.hpp"
#include "optiq/plan.hpp"
#include "optiq/routing.hpp"

namespace optiq {

struct McfOptions {
  double epsilon = 0.02;              // target relative gap between plan and bound
  int max_iterations = 300;
  int hop_bound = -1;                 // < 0: no bound
  Bytes min_path_bytes = 64 * 1024;   // smaller shares are merged into the job's largest path
  int max_paths = 0;                  // per job; 0: no limit
  int max_proxies = -1;               // forwarding endpoints per path; < 0: no limit (see legs.hpp)
  double forward_bandwidth = 0;       // bytes/s a node can relay; 0: unlimited
  Progress progress = nullptr;
};

struct McfResult {
  Plan plan;
  double bound_seconds = 0;  // proven lower bound on the fluid transfer time of any plan
  double flow_seconds = 0;   // fluid time of the fractional flow before whole-byte rounding
  double plan_seconds = 0;   // fluid time of the returned plan (links and, if set, forwarding)
  int iterations = 0;
  double gap() const { return plan_seconds > 0 ? std::max(0.0, 1.0 - bound_seconds / plan_seconds) : 0.0; }
};

McfResult plan_mcf(const Network& topo, const RoutingModel& routing, const std::vector<Job>& jobs,
                   const McfOptions& options);

}  // namespace optiq
