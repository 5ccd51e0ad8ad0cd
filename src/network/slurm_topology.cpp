// A Slurm topology (network/slurm_topology.hpp) as a network: the checks Slurm makes when it
// reads the file (where Slurm only warns, the ones a planner cannot do without), then hosts,
// switches and cables. include/optiq/core/import.hpp states the model.
#include "network/slurm_topology.hpp"

#include <algorithm>
#include <unordered_map>

#include "network/import_common.hpp"
#include "optiq/core/error.hpp"
#include "optiq/core/hostlist.hpp"

namespace optiq::slurm {

namespace {

constexpr std::size_t kMaxNameLength = 64;  // Slurm refuses longer switch names

std::string at(const std::string& origin, int line) { return origin + ":" + std::to_string(line); }

// Host list expansion with one budget for the whole file: names listed at most kMaxVertices
// times in all, so that many short lines cannot add up to more than a network can hold.
class Lister {
 public:
  explicit Lister(const std::string& origin) : origin_(origin) {}
  // The names of `expr` in order (repeats are dropped where they become vertices).
  std::vector<std::string> operator()(const std::string& expr, int line) {
    std::vector<std::string> all = expand_hostlist(expr, at(origin_, line));
    listed_ += static_cast<long long>(all.size());
    if (listed_ > kMaxVertices)
      throw Error(at(origin_, line) + ": the file lists more than " + std::to_string(kMaxVertices) + " names in all");
    return all;
  }

 private:
  const std::string& origin_;
  long long listed_ = 0;
};

// The hosts of each list of names, each host once per list; hosts are made in the order the
// lists first name them. The lists are emptied on the way (a million names are worth freeing).
// Repeats are found by vertex id, not by hashing names again.
std::vector<std::vector<NodeId>> hosts_of(import::Fabric& f, std::vector<std::vector<std::string>>& lists) {
  std::vector<std::vector<NodeId>> hosts(lists.size());
  std::vector<int> last;  // per host: the last list that named it
  for (std::size_t i = 0; i < lists.size(); ++i) {
    for (const std::string& name : lists[i]) {
      const NodeId v = f.host(name);
      if (v >= static_cast<NodeId>(last.size())) last.resize(v + 1, -1);
      if (last[v] == static_cast<int>(i)) continue;
      last[v] = static_cast<int>(i);
      hosts[i].push_back(v);
    }
    std::vector<std::string>().swap(lists[i]);
  }
  return hosts;
}

// Refuses a Switches= relation that loops: Slurm resolves switch levels bottom-up and fails
// after 20 rounds on a loop; here the loop itself is named.
void check_acyclic(const Topology& t, const std::vector<std::vector<int>>& children, const std::string& origin) {
  const int n = static_cast<int>(t.switches.size());
  std::vector<char> state(n, 0);  // 0 unseen, 1 on the current path, 2 done
  std::vector<std::pair<int, std::size_t>> stack;  // (switch, next child to look at)
  for (int root = 0; root < n; ++root) {
    if (state[root]) continue;
    stack.push_back({root, 0});
    state[root] = 1;
    while (!stack.empty()) {
      auto& [u, k] = stack.back();
      if (k == children[u].size()) {
        state[u] = 2;
        stack.pop_back();
        continue;
      }
      const int v = children[u][k++];
      if (state[v] == 1) {
        std::string loop;
        auto from = std::find_if(stack.begin(), stack.end(), [&](const auto& e) { return e.first == v; });
        for (auto it = from; it != stack.end(); ++it) loop += t.switches[it->first].name + " -> ";
        throw Error(at(origin, t.switches[u].line) + ": the switches form a cycle: " + loop + t.switches[v].name);
      }
      if (state[v] == 0) {
        state[v] = 1;
        stack.push_back({v, 0});
      }
    }
  }
}

Network build_tree(const Topology& t, const std::string& origin, double link_bandwidth, const std::string& spec) {
  const int n = static_cast<int>(t.switches.size());
  std::unordered_map<std::string, int> index;
  long long max_speed = 1;
  for (int i = 0; i < n; ++i) {
    const Switch& s = t.switches[i];
    const std::string where = at(origin, s.line);
    if (s.name.empty()) throw Error(where + ": a switch without a name");
    if (s.name.size() > kMaxNameLength)
      throw Error(where + ": switch name '" + s.name + "' is longer than " + std::to_string(kMaxNameLength) +
                  " characters");
    if (const auto [it, fresh] = index.emplace(s.name, i); !fresh)
      throw Error(where + ": switch '" + s.name + "' is defined twice (first at line " +
                  std::to_string(t.switches[it->second].line) + ")");
    if (!s.has_nodes && !s.has_switches)
      throw Error(where + ": switch '" + s.name + "' has neither nodes nor child switches");
    if (s.link_speed < 1 || s.link_speed > 0xffffffffLL)
      throw Error(where + ": switch '" + s.name + "': the link speed must be a whole number from 1 to 4294967295");
    max_speed = std::max(max_speed, s.link_speed);
  }

  Lister list(origin);
  std::vector<std::vector<std::string>> nodes(n);
  for (int i = 0; i < n; ++i) {
    const Switch& s = t.switches[i];
    if (!s.has_nodes) continue;
    nodes[i] = list(s.nodes, s.line);
    for (const std::string& name : nodes[i]) {
      if (index.count(name))
        throw Error(at(origin, s.line) + ": switch '" + s.name + "' lists '" + name +
                    "' as a node, but it is a switch (child switches go under Switches)");
    }
  }
  std::vector<std::vector<int>> children(n);
  std::vector<int> last(n, -1);  // per switch: the last switch that listed it as a child
  for (int i = 0; i < n; ++i) {
    const Switch& s = t.switches[i];
    if (!s.has_switches) continue;
    for (const std::string& name : list(s.switches, s.line)) {
      const auto it = index.find(name);
      if (it == index.end()) {
        bool node = false;  // which mistake it is: looked for only when there is one
        for (const auto& list_of : nodes)
          node = node || std::find(list_of.begin(), list_of.end(), name) != list_of.end();
        throw Error(at(origin, s.line) + ": switch '" + s.name + "' names '" + name + "' as a child switch, but " +
                    (node ? "it is a node (nodes go under Nodes)" : "no switch of that name is defined"));
      }
      if (it->second == i) throw Error(at(origin, s.line) + ": switch '" + s.name + "' lists itself as a child switch");
      if (last[it->second] == i) continue;  // listed twice by one switch: one cable
      last[it->second] = i;
      children[i].push_back(it->second);
    }
  }
  check_acyclic(t, children, origin);

  // Hosts first, in the order the file first names them, then the switches in file order.
  import::Fabric f;
  const std::vector<std::vector<NodeId>> hosts = hosts_of(f, nodes);
  std::vector<NodeId> vertex(n);
  for (int i = 0; i < n; ++i) vertex[i] = f.add_switch(t.switches[i].name);
  auto capacity = [&](int i) { return link_bandwidth * static_cast<double>(t.switches[i].link_speed) / max_speed; };
  // Switch cables before host cables: among equally short routes "shortest" takes the lowest
  // link ids, so a host under two switches is not chosen to relay between them.
  for (int i = 0; i < n; ++i)
    for (int c : children[i]) f.cable(vertex[i], vertex[c], capacity(i));
  for (int i = 0; i < n; ++i)
    for (NodeId h : hosts[i]) f.cable(vertex[i], h, capacity(i));

  // Every host hangs under a switch, so a network in parts has a switch apart from the first.
  const std::vector<int> part = f.components();
  for (int i = 1; i < n; ++i)
    if (part[vertex[i]] != part[vertex[0]])
      throw Error(origin + ": switches '" + t.switches[0].name + "' and '" + t.switches[i].name +
                  "' share no common ancestor, so the network is not connected (optiq plans on one connected network)");
  return std::move(f).build(spec, origin);
}

// Block sizes as Slurm checks them: positive, each a power-of-two multiple (at most 2^15) of the
// first, which is the base block size.
void check_block_sizes(const Topology& t, const std::string& origin) {
  const std::string where = at(origin, t.block_sizes_line);
  const long long base = t.block_sizes.front();
  for (long long size : t.block_sizes) {
    if (size < 1) throw Error(where + ": block sizes must be positive, got " + std::to_string(size));
    const long long ratio = size / base;
    if (size % base != 0 || (ratio & (ratio - 1)) != 0 || ratio > (1LL << 15))
      throw Error(where + ": block size " + std::to_string(size) +
                  " is not a power-of-two multiple (at most 2^15) of the base block size " + std::to_string(base));
  }
}

// Blocks: one switch per block joined to its nodes, and one switch (kBlockTopSwitch) joined to
// every block switch, because blocks of a block topology are joined by a slower network Slurm
// does not describe. Every link has the same capacity.
Network build_blocks(const Topology& t, const std::string& origin, double link_bandwidth, const std::string& spec) {
  const int n = static_cast<int>(t.blocks.size());
  std::unordered_map<std::string, int> index;
  for (const Block& b : t.blocks) {
    const std::string where = at(origin, b.line);
    if (b.name.empty()) throw Error(where + ": a block without a name");
    if (b.name == kBlockTopSwitch)
      throw Error(where + ": the block name '" + b.name +
                  "' is the name of the switch that joins the blocks; rename the block");
    if (const auto [it, fresh] = index.emplace(b.name, b.line); !fresh)
      throw Error(where + ": block '" + b.name + "' is defined twice (first at line " + std::to_string(it->second) +
                  ")");
  }
  if (!t.block_sizes.empty()) check_block_sizes(t, origin);
  Lister list(origin);
  std::vector<std::vector<std::string>> nodes(n);
  for (int i = 0; i < n; ++i) {
    nodes[i] = list(t.blocks[i].nodes, t.blocks[i].line);
    for (const std::string& name : nodes[i])
      if (index.count(name) || name == kBlockTopSwitch)
        throw Error(at(origin, t.blocks[i].line) + ": block '" + t.blocks[i].name + "' lists '" + name +
                    "' as a node, but that is the name of a block");
  }
  import::Fabric f;
  const std::vector<std::vector<NodeId>> hosts = hosts_of(f, nodes);
  long long base = t.block_sizes.empty() ? 0 : t.block_sizes.front();
  for (int i = 0; i < n; ++i) {
    const long long count = static_cast<long long>(hosts[i].size());  // distinct nodes, as Slurm counts them
    if (base == 0) base = count;  // without BlockSizes, Slurm takes the first block's size as the base
    if (count < base)
      throw Error(at(origin, t.blocks[i].line) + ": block '" + t.blocks[i].name + "' has " + std::to_string(count) +
                  " nodes, fewer than the base block size " + std::to_string(base) +
                  (t.block_sizes.empty() ? " (the first block's, BlockSizes not being given)" : ""));
  }
  std::vector<NodeId> vertex(n);
  for (int i = 0; i < n; ++i) vertex[i] = f.add_switch(t.blocks[i].name);
  const NodeId top = f.add_switch(kBlockTopSwitch);
  for (int i = 0; i < n; ++i) f.cable(top, vertex[i], link_bandwidth);
  for (int i = 0; i < n; ++i)
    for (NodeId h : hosts[i]) f.cable(vertex[i], h, link_bandwidth);
  return std::move(f).build(spec, origin);
}

}  // namespace

Network build_network(const Topology& topology, const std::string& origin, double link_bandwidth,
                      const std::string& spec) {
  if (!(link_bandwidth > 0)) throw Error(origin + ": the link bandwidth must be positive");
  if (!topology.switches.empty() && !topology.blocks.empty())
    throw Error(at(origin, topology.blocks.front().line) + ": a file describes a tree (switches) or blocks, not both");
  if (!topology.switches.empty()) {
    if (!topology.block_sizes.empty())
      throw Error(at(origin, topology.block_sizes_line) +
                  ": block sizes belong to a block topology, not to a tree of switches");
    return build_tree(topology, origin, link_bandwidth, spec);
  }
  if (!topology.blocks.empty()) return build_blocks(topology, origin, link_bandwidth, spec);
  throw Error(origin + ": no switches and no blocks: nothing to import");
}

}  // namespace optiq::slurm
