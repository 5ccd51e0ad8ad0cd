// The versioned plan file: {"format":"optiq-plan","version":1,"topology","routing","planner",
// "jobs":[{"src","dst","bytes","paths":[{"bytes","nodes":[...],"ports":["D+",...]}]}]}.
#pragma once

#include <string>

#include "optiq/plan.hpp"

namespace optiq {

constexpr int kPlanFormatVersion = 1;

std::string plan_to_json(const Plan& plan, const Topology& topo);
// Parses and validates a plan file's text; the topology is rebuilt from the file's own spec.
Plan plan_from_json(const std::string& text, const std::string& origin = "plan");
Plan load_plan(const std::string& path);
void save_plan(const Plan& plan, const Topology& topo, const std::string& path);

}  // namespace optiq
