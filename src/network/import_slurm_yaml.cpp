// `slurm:FILE.yaml`: Slurm's topology.yaml (Slurm 24.11 and later), read with the core's YAML
// subset into the slurm::Topology that topology.conf gives (network/slurm_topology.hpp).
#include <cctype>

#include "network/slurm_topology.hpp"
#include "optiq/core/error.hpp"
#include "optiq/core/import.hpp"
#include "util/yaml_subset.hpp"

namespace optiq {

namespace {

class Reader {
 public:
  explicit Reader(const std::string& origin) : origin_(origin) {}

  slurm::Topology topology(const yaml::Node& root) {
    if (root.is_scalar() && root.null) throw Error(origin_ + ": the file is empty");
    if (!root.is_sequence())
      throw Error(where(root.line) + ": expected a list of topologies ('- topology: NAME'), got " +
                  yaml::kind_name(root.kind));
    if (root.items.empty()) throw Error(where(root.line) + ": the list of topologies is empty");
    const yaml::Node* chosen = nullptr;
    bool chosen_default = false;
    std::vector<std::string> names;
    for (const yaml::Node& t : root.items) {
      expect(t, yaml::Node::Kind::Mapping, "a topology");
      int types = 0;
      bool is_default = false;
      for (const yaml::Member& m : t.members) {
        if (m.key == "topology") {
          for (const std::string& seen : names)
            if (seen == scalar(m)) throw Error(where(m.line) + ": topology '" + seen + "' is defined twice");
          names.push_back(scalar(m));
        } else if (m.key == "cluster_default") {
          is_default = boolean(m);
        } else if (m.key == "tree" || m.key == "block" || m.key == "flat") {
          ++types;
        } else {
          throw Error(where(m.line) + ": unknown key '" + m.key +
                      "' in a topology (known: topology, cluster_default, tree, block, flat)");
        }
      }
      if (!t.find("topology")) throw Error(where(t.line) + ": a topology without its 'topology: NAME'");
      if (types != 1)
        throw Error(where(t.line) + ": topology '" + names.back() + "' needs exactly one of tree, block, flat");
      if (!chosen) chosen = &t;  // the first, unless a later one is the cluster's default
      if (is_default && !chosen_default) {
        chosen = &t;
        chosen_default = true;
      }
    }
    return read(*chosen);
  }

 private:
  std::string where(int line) const { return origin_ + ":" + std::to_string(line); }

  void expect(const yaml::Node& n, yaml::Node::Kind kind, const std::string& what) const {
    if (n.kind != kind || (n.is_scalar() && n.null))
      throw Error(where(n.line) + ": " + what + " is " + yaml::kind_name(kind) + ", got " +
                  (n.is_scalar() && n.null ? "nothing" : yaml::kind_name(n.kind)));
  }

  const std::string& scalar(const yaml::Member& m) const {
    if (!m.value.is_scalar() || m.value.null)
      throw Error(where(m.line) + ": " + m.key + " is a single value, got " +
                  (m.value.null ? "nothing" : yaml::kind_name(m.value.kind)));
    return m.value.text;
  }

  // YAML 1.2's booleans (Slurm's own example writes True and False).
  bool boolean(const yaml::Member& m) const {
    const std::string& v = scalar(m);
    if (v == "true" || v == "True" || v == "TRUE") return true;
    if (v == "false" || v == "False" || v == "FALSE") return false;
    throw Error(where(m.line) + ": " + m.key + " is true or false, got '" + v + "'");
  }

  long long whole(const std::string& text, int line, const std::string& what) const {
    bool digits = !text.empty() && text.size() <= 10;
    for (char c : text) digits = digits && std::isdigit(static_cast<unsigned char>(c));
    if (!digits) throw Error(where(line) + ": " + what + ": expected a whole number, got '" + text + "'");
    return std::stoll(text);
  }

  // A host list: one expression, or a sequence of them (joined as the top-level list they are).
  std::string hostlist(const yaml::Member& m) const {
    if (m.value.is_scalar()) return scalar(m);
    if (!m.value.is_sequence() || m.value.items.empty())
      throw Error(where(m.line) + ": " + m.key + " is a host list or a sequence of them, got " +
                  (m.value.is_sequence() ? "an empty sequence" : yaml::kind_name(m.value.kind)));
    std::string joined;
    for (const yaml::Node& item : m.value.items) {
      if (!item.is_scalar() || item.null)
        throw Error(where(item.line) + ": " + m.key + ": expected names, got " + yaml::kind_name(item.kind));
      joined += (joined.empty() ? "" : ",") + item.text;
    }
    return joined;
  }

  slurm::Topology read(const yaml::Node& t) {
    const std::string name = t.find("topology")->text;
    for (const yaml::Member& m : t.members) {
      if (m.key == "flat")
        throw Error(where(m.line) + ": topology '" + name + "' is flat: it describes no network to import");
      if (m.key == "tree") return tree(m);
      if (m.key == "block") return blocks(m);
    }
    throw Error(where(t.line) + ": topology '" + name + "' has no tree or block");  // checked before
  }

  slurm::Topology tree(const yaml::Member& tree) {
    expect(tree.value, yaml::Node::Kind::Mapping, "tree");
    slurm::Topology topo;
    for (const yaml::Member& m : tree.value.members) {
      if (m.key != "switches") throw Error(where(m.line) + ": unknown key '" + m.key + "' in a tree (known: switches)");
      expect(m.value, yaml::Node::Kind::Sequence, "switches");
      for (const yaml::Node& item : m.value.items) {
        expect(item, yaml::Node::Kind::Mapping, "a switch");
        slurm::Switch s;
        s.line = item.line;
        bool named = false;
        for (const yaml::Member& f : item.members) {
          if (f.key == "switch") {
            s.name = scalar(f);
            named = true;
          } else if (f.key == "children" || f.key == "nodes") {
            if (f.value.is_scalar() && f.value.null) continue;  // "nodes:" with nothing: none
            (f.key == "nodes" ? s.nodes : s.switches) = hostlist(f);
            (f.key == "nodes" ? s.has_nodes : s.has_switches) = true;
          } else if (f.key == "link_speed") {
            s.link_speed = whole(scalar(f), f.line, "link_speed");
          } else {
            throw Error(where(f.line) + ": unknown key '" + f.key +
                        "' in a switch (known: switch, children, nodes, link_speed)");
          }
        }
        if (!named) throw Error(where(item.line) + ": a switch without its 'switch: NAME'");
        topo.switches.push_back(std::move(s));
      }
    }
    if (topo.switches.empty()) throw Error(where(tree.line) + ": the tree has no switches");
    return topo;
  }

  slurm::Topology blocks(const yaml::Member& block) {
    expect(block.value, yaml::Node::Kind::Mapping, "block");
    slurm::Topology topo;
    for (const yaml::Member& m : block.value.members) {
      if (m.key == "block_sizes") {
        topo.block_sizes_line = m.line;
        if (m.value.is_sequence()) {
          for (const yaml::Node& size : m.value.items) {
            if (!size.is_scalar() || size.null) throw Error(where(size.line) + ": block_sizes: expected whole numbers");
            topo.block_sizes.push_back(whole(size.text, size.line, "block_sizes"));
          }
        } else {  // "4,16", as BlockSizes= writes it
          const std::string& v = scalar(m);
          std::size_t pos = 0;
          while (true) {
            const std::size_t comma = v.find(',', pos);
            const std::string item = v.substr(pos, comma == std::string::npos ? std::string::npos : comma - pos);
            topo.block_sizes.push_back(whole(item, m.line, "block_sizes"));
            if (comma == std::string::npos) break;
            pos = comma + 1;
          }
        }
        if (topo.block_sizes.empty()) throw Error(where(m.line) + ": block_sizes is empty");
      } else if (m.key == "blocks") {
        expect(m.value, yaml::Node::Kind::Sequence, "blocks");
        for (const yaml::Node& item : m.value.items) {
          expect(item, yaml::Node::Kind::Mapping, "a block");
          slurm::Block b;
          b.line = item.line;
          bool named = false, nodes = false;
          for (const yaml::Member& f : item.members) {
            if (f.key == "block") {
              b.name = scalar(f);
              named = true;
            } else if (f.key == "nodes") {
              b.nodes = hostlist(f);
              nodes = true;
            } else {
              throw Error(where(f.line) + ": unknown key '" + f.key + "' in a block (known: block, nodes)");
            }
          }
          if (!named) throw Error(where(item.line) + ": a block without its 'block: NAME'");
          if (!nodes) throw Error(where(item.line) + ": block '" + b.name + "' has no nodes");
          topo.blocks.push_back(std::move(b));
        }
      } else {
        throw Error(where(m.line) + ": unknown key '" + m.key + "' in a block topology (known: block_sizes, blocks)");
      }
    }
    if (topo.blocks.empty()) throw Error(where(block.line) + ": the block topology has no blocks");
    return topo;
  }

  const std::string& origin_;
};

}  // namespace

Network parse_slurm_topology_yaml(const std::string& text, const std::string& origin, double link_bandwidth,
                                  const std::string& spec) {
  const yaml::Node root = yaml::parse(text, origin);
  return slurm::build_network(Reader(origin).topology(root), origin, link_bandwidth, spec);
}

}  // namespace optiq
