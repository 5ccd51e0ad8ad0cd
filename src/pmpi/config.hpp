// The interposer's settings, read from the environment once per process.
#pragma once

#include <string>

#include "optiq/optiq.h"

namespace optiq::pmpi {

struct Config {
  // False: every call goes to MPI; why_off says why (unset topology or a bad value).
  bool enabled = false;
  bool bad_value = false;  // off because of a bad value (not because OPTIQ_TOPOLOGY is unset)
  std::string why_off;
  std::string topology;
  std::string planner;
  std::string routing;
  // Options for optiq_create; planner and routing point into the strings above.
  optiq_options options{};
  bool verbose = false;
};

// Parsed on first use; later changes to the environment are not seen.
const Config& config();

}  // namespace optiq::pmpi
