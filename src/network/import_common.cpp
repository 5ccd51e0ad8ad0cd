#include "network/import_common.hpp"

#include <algorithm>
#include <fstream>
#include <numeric>
#include <sstream>
#include <tuple>
#include <unordered_set>

#include "optiq/core/error.hpp"
#include "optiq/core/graph/contract.hpp"

namespace optiq::import {

std::string read_file(const std::string& path, const std::string& what) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw Error("cannot read " + what + " '" + path + "'");
  std::ostringstream buf;
  buf << in.rdbuf();
  return buf.str();
}

std::vector<std::string> split_lines(const std::string& text) {
  std::vector<std::string> lines;
  std::size_t pos = 0;
  while (pos < text.size()) {
    std::size_t end = text.find('\n', pos);
    if (end == std::string::npos) end = text.size();
    lines.push_back(text.substr(pos, end - pos));
    if (!lines.back().empty() && lines.back().back() == '\r') lines.back().pop_back();
    pos = end + 1;
  }
  return lines;
}

NodeId Fabric::host(const std::string& name) {
  const auto it = hosts_.find(name);
  if (it != hosts_.end()) return it->second;
  const NodeId v = b_.add_vertex(VertexKind::Endpoint, name);
  names_.push_back(name);
  hosts_.emplace(name, v);
  return v;
}

NodeId Fabric::add_switch(const std::string& name) {
  const NodeId v = b_.add_vertex(VertexKind::Switch, name);
  names_.push_back(name);
  switches_.push_back(v);
  return v;
}

std::vector<int> Fabric::components() const {
  std::vector<char> relays(num_vertices(), switches_.empty());
  for (NodeId s : switches_) relays[s] = 1;
  graph::UnionFind sets(num_vertices());
  for (const Cable& c : cables_)
    if (relays[c.a] && relays[c.b]) sets.unite(c.a, c.b);
  std::vector<int> part = graph::components(sets).of;
  std::vector<int> under(num_vertices(), -1);  // per host: the part of its first switch
  for (const Cable& c : cables_)
    for (const auto& [host, other] : {std::pair{c.a, c.b}, std::pair{c.b, c.a}})
      if (!relays[host] && relays[other] && under[host] < 0) under[host] = part[other];
  for (NodeId v = 0; v < num_vertices(); ++v)
    if (!relays[v]) part[v] = under[v] >= 0 ? under[v] : num_vertices() + v;
  return part;
}

// Cable i makes links 2i (a to b) and 2i + 1 (b to a). No hash set of a million link names:
// "A->B#k" names are unique when the vertex names are and hold neither "->" nor '#', which is
// checked once; only otherwise are clashes looked for, name by name.
std::vector<std::string> Fabric::link_names() const {
  const std::size_t m = 2 * cables_.size();
  std::vector<NodeId> src(m), dst(m);
  for (std::size_t i = 0; i < cables_.size(); ++i) {
    src[2 * i] = dst[2 * i + 1] = cables_[i].a;
    dst[2 * i] = src[2 * i + 1] = cables_[i].b;
  }
  std::vector<std::size_t> order(m);
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t x, std::size_t y) { return std::tie(src[x], dst[x]) < std::tie(src[y], dst[y]); });
  std::vector<int> k(m, 0);  // earlier links between the same two vertices, the same way
  for (std::size_t j = 1; j < m; ++j)
    if (src[order[j]] == src[order[j - 1]] && dst[order[j]] == dst[order[j - 1]]) k[order[j]] = k[order[j - 1]] + 1;

  bool plain = true;
  for (const std::string& n : names_)
    plain = plain && n.find("->") == std::string::npos && n.find('#') == std::string::npos;
  std::unordered_map<std::string, int> switch_names;
  for (NodeId v : switches_) plain = plain && hosts_.count(names_[v]) == 0 && switch_names.emplace(names_[v], v).second;

  std::vector<std::string> out(m);
  std::unordered_set<std::string> taken;
  std::unordered_map<long long, int> next;  // per (src, dst) on the slow path: the next k to try
  for (std::size_t l = 0; l < m; ++l) {
    const std::string base = names_[src[l]] + "->" + names_[dst[l]];
    if (plain) {
      out[l] = k[l] ? base + "#" + std::to_string(k[l]) : base;
      continue;
    }
    int& kk = next[static_cast<long long>(src[l]) * kMaxVertices + dst[l]];
    std::string name = kk ? base + "#" + std::to_string(kk) : base;
    while (!taken.insert(name).second) name = base + "#" + std::to_string(++kk);
    ++kk;
    out[l] = std::move(name);
  }
  return out;
}

Network Fabric::build(const std::string& spec, const std::string& origin) && {
  try {
    std::vector<std::string> names = link_names();
    for (std::size_t i = 0; i < cables_.size(); ++i) {
      b_.add_link(cables_[i].a, cables_[i].b, cables_[i].capacity, std::move(names[2 * i]));
      b_.add_link(cables_[i].b, cables_[i].a, cables_[i].capacity, std::move(names[2 * i + 1]));
    }
    b_.set_hosts_named();
    return std::move(b_).build(spec, "shortest");
  } catch (const Error& e) {
    throw Error(origin + ": " + e.what());
  }
}

}  // namespace optiq::import
