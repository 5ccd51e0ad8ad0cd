// The command line of nas-ft.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "exchange.hpp"

namespace ft {

struct Options {
  int nx = 64, ny = 64, nz = 64;
  char npb_class = 'S';  // 0 when --grid gives a size of its own
  int iterations = 6;
  int p1 = 0, p2 = 0;    // the process grid; 0 until chosen
  std::vector<Variant> variants{Variant::optiq_overlap};
  int slabs = 4;
  std::string topology;  // optiq's topology; defaults to a torus of the process grid's shape
  // optiq's own options as its command lines take them (--planner heu2, --min-gain 0, ...),
  // by name and text, in order.
  std::vector<std::pair<std::string, std::string>> optiq_settings;
  bool json = false;
  bool help = false;

  bool uses_optiq() const;
  // optiq's defaults with optiq_settings applied; the text options point into this object.
  optiq_options optiq() const;
};

// Reads the arguments and completes what they leave open (iterations, process grid, topology)
// for a job of `ranks` processes. Returns "" or a one-line complaint. Every rank reads the same
// arguments and so reaches the same verdict.
std::string parse_options(int argc, char** argv, int ranks, Options& options);

extern const char* const kUsage;

}  // namespace ft
