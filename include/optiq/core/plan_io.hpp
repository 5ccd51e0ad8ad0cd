// The versioned plan file (docs/plan-format.md): {"format":"optiq-plan","version":2,"topology",
// "network" (the network's digest),"routing","planner","jobs":[{"src","dst","bytes",
// "paths":[{"bytes","nodes":[...],"links":["17:D+",...]}]}]}. Version 1 files, which name
// ports ("D+") instead of links and carry no digest, still load on tori and meshes.
#pragma once

#include <string>

#include "optiq/core/plan.hpp"

namespace optiq {

constexpr int kPlanFormatVersion = 2;  // the version written

// A plan's stated `seconds` paces its paths (docs/runtime.md): the most it may state is this many
// times its predicted time on its links, or kMaxStatedSecondsFloor seconds if that is more. More
// would hold a run back for as long (a stated 1e308 s: forever); such a file is refused.
constexpr double kMaxStatedSecondsFactor = 1000;
constexpr double kMaxStatedSecondsFloor = 1;

std::string plan_to_json(const Plan& plan, const Network& topo);
// Parses and validates a plan file's text; the topology is rebuilt from the file's own spec.
Plan plan_from_json(const std::string& text, const std::string& origin = "plan");
Plan load_plan(const std::string& path);
void save_plan(const Plan& plan, const Network& topo, const std::string& path);

}  // namespace optiq
