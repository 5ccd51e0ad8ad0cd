// mcf: a fluid-optimal plan without an LP solver, with its own certificate.
//
// Minimises the busiest link's load relative to its capacity (the fluid transfer time) by
// per-job Newton steps on an exponential potential of link utilisation, sharpening the
// potential as it goes. Pricing rounds search exact cheapest paths under the potential's
// link weights, which gives a proven lower bound by weak duality:
//     T* >= sum_j bytes_j * dist_w(j) / sum_l capacity_l * w_l,
// alongside cut, relaxation and quotient bounds (include/optiq/core/bounds.hpp). On tori the
// iterations between pricing rounds, and the sweeps that sharpen the potential towards the
// end, price cheap detours of each job's path instead (src/planner/torus_detours.hpp). It stops when
// its flow is within (1 + epsilon) of the best bound, or at the iteration cap, then makes the
// plan practical (minimum bytes per path, paths per job) with moves at full sharpness.
#pragma once

#include "optiq/core/planner.hpp"

namespace optiq {

// Options read: epsilon, mcf_iterations, hop_bound, min_path_bytes, max_paths, max_proxies,
// forward_bandwidth, progress. The result is bounded; its extras are "iterations",
// "flow_seconds" (the fractional flow's time before whole-byte rounding) and
// "constraint_cost" (what rounding and the practical limits cost, relative to that flow).
PlanResult plan_mcf(const Network& topo, const RoutingModel& routing, const std::vector<Job>& jobs,
                    const PlannerOptions& options);

}  // namespace optiq
