// A plan: for every job, the paths its bytes take and how many bytes each path carries.
#pragma once

#include <string>
#include <vector>

#include "optiq/core/pattern.hpp"
#include "optiq/core/network.hpp"

namespace optiq {

struct PathShare {
  LinkPath links;
  Bytes bytes = 0;
};

struct JobPlan {
  Job job;
  std::vector<PathShare> paths;  // a zero-byte job has none
};

struct Plan {
  std::string topology;  // canonical spec string
  std::string routing;   // the default routing model the plan is compared with
  std::string planner;
  std::vector<JobPlan> jobs;
  // The time the plan promises: its predicted time in the model it was made for (link
  // capacities, and the forwarders' copy rate when that was known). 0: unstated. The runtime
  // paces its paths to it.
  double seconds = 0;
};

// Throws optiq::Error describing the first defect: a path that does not run src -> dst over
// existing, adjacent links, a path that no chain of the plan's routing's default routes
// realizes (include/optiq/core/legs.hpp), or path bytes that do not sum to the job's bytes.
void validate_plan(const Plan& plan, const Network& topo);

// Splits `bytes` into `parts` whole numbers differing by at most one, larger ones first.
std::vector<Bytes> split_evenly(Bytes bytes, std::size_t parts);

// Splits `bytes` in proportion to non-negative `shares` into whole numbers summing exactly to
// `bytes`; leftover bytes go to the largest remainders (ties: the earlier share).
std::vector<Bytes> split_by_shares(Bytes bytes, const std::vector<double>& shares);

// Moves the bytes of every part below `min_bytes` onto the largest part (ties: the earlier).
std::vector<Bytes> merge_small_parts(std::vector<Bytes> parts, Bytes min_bytes);

}  // namespace optiq
