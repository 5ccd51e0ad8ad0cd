// When a multi-path plan is worth running instead of the network's default route.
#pragma once

namespace optiq {

// A plan runs only when it predicts at least this fraction less time than the default route.
// Forwarding costs what the fluid prediction leaves out (a chunk's wait at each forwarder,
// per-message work): 2-8% of a plan's time on simulated BG/Q partitions (bench/simulation),
// so a plan that promises less than that may well lose to the route it replaces.
inline constexpr double kDefaultMinGain = 0.1;

// True when a plan predicted to take `plan_seconds` should run rather than the default route,
// predicted to take `default_seconds`. A min_gain of 0 runs every plan.
inline bool plan_gains_enough(double plan_seconds, double default_seconds, double min_gain) {
  return min_gain <= 0 || plan_seconds <= (1.0 - min_gain) * default_seconds;
}

}  // namespace optiq
