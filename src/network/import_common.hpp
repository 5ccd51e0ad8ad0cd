// What the importers of site network descriptions (include/optiq/core/import.hpp) share: reading
// the file, and building a network of named hosts and switches joined by cables.
#pragma once

#include <string>
#include <unordered_map>
#include <vector>

#include "optiq/core/network.hpp"

namespace optiq::import {

// The whole file; optiq::Error "cannot read <what> '<path>'" when it cannot be opened.
std::string read_file(const std::string& path, const std::string& what);

// Lines of a text without their line ends ("\n" or "\r\n"); line k (1-based) is lines[k - 1].
std::vector<std::string> split_lines(const std::string& text);

// A network of hosts (endpoints, named by their host names) and switches joined by cables, each
// cable one link each way. Links are named "A->B" after their ends' names, "#k" added for the
// k-th further link between the same two vertices (and, should two names ever read alike, for
// the next free k), so that reports name links the way the site does and the digest covers
// the names. Links are made by build(), in the order of the cables.
class Fabric {
 public:
  NodeId host(const std::string& name);  // the host of that name, added on first use
  NodeId add_switch(const std::string& name);
  bool has_hosts() const { return !hosts_.empty(); }
  void cable(NodeId a, NodeId b, double capacity) { cables_.push_back({a, b, capacity}); }
  const std::string& name(NodeId v) const { return names_[v]; }
  int num_vertices() const { return static_cast<int>(names_.size()); }

  // A part number per vertex, as routes see the cables: where there are switches, hosts do not
  // forward (RoutingModel "shortest"), so a host takes the part of the first switch it is cabled
  // to, a host cabled to none is a part of its own, and a host under two switches joins nothing.
  // Cables go both ways, so reaching is symmetric; a network every route can cross is one part.
  std::vector<int> components() const;

  // Builds with named hosts and the default routing "shortest" (fewest links; on a tree, where
  // each host hangs under one leaf switch, the fewest-link route between two hosts is the up-down
  // route through their lowest common ancestor, which is how subnet managers route trees).
  // Errors of the builder (limits exceeded) come back as "<origin>: ...".
  Network build(const std::string& spec, const std::string& origin) &&;

 private:
  struct Cable {
    NodeId a, b;
    double capacity;
  };
  std::vector<std::string> link_names() const;

  Network::Builder b_;
  std::vector<std::string> names_;
  std::unordered_map<std::string, NodeId> hosts_;
  std::vector<NodeId> switches_;
  std::vector<Cable> cables_;
};

}  // namespace optiq::import
