// Helpers shared by the fat-tree and dragonfly tests: link names of a route, a recorded route's
// words, the error a spec gets, and whether a route is a walk of existing links.
#pragma once

#include <sstream>
#include <string>
#include <vector>

#include "optiq/core/error.hpp"
#include "optiq/core/network.hpp"

namespace optiq::fabric_checks {

inline std::vector<std::string> names(const Network& net, const LinkPath& path) {
  std::vector<std::string> out;
  for (LinkId l : path) out.push_back(net.link_name(l));
  return out;
}

inline std::vector<std::string> words(const std::string& line) {
  std::istringstream in(line);
  std::vector<std::string> out;
  for (std::string w; in >> w;) out.push_back(w);
  return out;
}

// The message parse_network throws for `spec`, or "accepted".
inline std::string error_of(const std::string& spec) {
  try {
    parse_network(spec);
  } catch (const Error& e) {
    return e.what();
  }
  return "accepted";
}

// True when `path` leaves src, follows existing links end to start, and arrives at dst.
inline bool is_walk(const Network& net, NodeId src, NodeId dst, const LinkPath& path) {
  NodeId at = src;
  for (LinkId l : path) {
    if (!net.has_link(l) || net.link_src(l) != at) return false;
    at = net.link_dst(l);
  }
  return at == dst;
}

}  // namespace optiq::fabric_checks
