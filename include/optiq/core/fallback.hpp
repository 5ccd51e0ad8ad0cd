// When a multi-path plan is worth running instead of the network's default route.
#pragma once

namespace optiq {

// True when a plan predicted to take `plan_seconds` should run rather than the default route,
// predicted to take `default_seconds`. A min_gain of 0 runs every plan.
inline bool plan_gains_enough(double plan_seconds, double default_seconds, double min_gain) {
  return min_gain <= 0 || plan_seconds <= (1.0 - min_gain) * default_seconds;
}

}  // namespace optiq
