// A Slurm topology as both of Slurm's files describe it (topology.conf and topology.yaml), read
// by import_slurm.cpp and import_slurm_yaml.cpp and turned into one network by the same code,
// so that the two files of one topology give the same network, digest included.
#pragma once

#include <string>
#include <vector>

#include "optiq/core/network.hpp"

namespace optiq::slurm {

// topology/tree: a switch and its children, as written (host list expressions unexpanded).
struct Switch {
  std::string name;
  std::string nodes, switches;  // empty when the line or entry has none
  bool has_nodes = false, has_switches = false;
  long long link_speed = 1;  // Slurm's default when LinkSpeed is not given
  int line = 0;
};

// topology/block: a block of nodes.
struct Block {
  std::string name;
  std::string nodes;
  int line = 0;
};

struct Topology {
  std::vector<Switch> switches;          // a tree, or
  std::vector<Block> blocks;             // blocks (never both)
  std::vector<long long> block_sizes;    // BlockSizes, empty when not given
  int block_sizes_line = 0;
};

// The name of the switch that joins the blocks of a block topology; no block may have it.
inline const char* kBlockTopSwitch = "block-top";

// The network of a topology read from `origin`; errors are "<origin>:<line>: ..." for an entry
// and "<origin>: ..." for the file as a whole.
Network build_network(const Topology& topology, const std::string& origin, double link_bandwidth,
                      const std::string& spec);

}  // namespace optiq::slurm
