// The interposer's settings, read from the environment once per process.
#pragma once

#include <map>
#include <string>

#include "optiq/optiq.h"

namespace optiq::pmpi {

struct Config {
  // False: every call goes to MPI; why_off says why (unset topology or a bad value).
  bool enabled = false;
  bool bad_value = false;  // off because of a bad value (not because OPTIQ_TOPOLOGY is unset)
  std::string why_off;
  std::string topology;
  std::map<std::string, std::string> texts;  // each option's environment value, by record name
  // Options for optiq_create; its text fields point into `texts`.
  optiq_options options{};
  // OPTIQ_CLASSES="NAME=P,...": the priority of the contexts of communicators so named
  // (MPI_Comm_set_name); others keep options.priority (OPTIQ_PRIORITY).
  std::map<std::string, int> classes;
  bool verbose = false;
};

// Parsed on first use; later changes to the environment are not seen.
const Config& config();

}  // namespace optiq::pmpi
