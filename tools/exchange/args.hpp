// Command line of optiq-exchange (the program `optiq exchange` launches under mpirun or smpirun).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "optiq/exchange.h"

namespace optiq::sxdriver {

struct Args {
  int neighbors = 6;  // messages each rank sends per exchange (capped at P - 1)
  std::uint64_t bytes = 1024;
  std::vector<optiq_sx_protocol> protocols = {OPTIQ_SX_NBX, OPTIQ_SX_PCX, OPTIQ_SX_PEX, OPTIQ_SX_RSX};
  optiq_sx_barrier barrier = OPTIQ_SX_BARRIER_AUTO;
  int iterations = 20;  // timed exchanges per protocol
  int warmup = 2;       // untimed (but checked) exchanges per protocol first
  std::uint64_t seed = 0;
  bool verify = true;   // fill and check every byte (off: contents are not looked at)
};

// Throws std::runtime_error naming a bad or missing argument; "--help" throws with the usage.
Args parse_args(int argc, char** argv);
std::string usage();

}  // namespace optiq::sxdriver
