// Fat-trees as SimGrid 3.32's FAT_TREE cluster builds them (kernel::routing::FatTreeZone), so a
// plan for `fattree:...` and a simulation on SimGrid's cluster of the same parameters name the
// same hosts, switches and links. docs/model.md, "Fat-trees", describes the numbering.
#pragma once

#include <string>
#include <vector>

#include "optiq/core/network.hpp"
#include "optiq/core/types.hpp"

namespace optiq {

// SimGrid's topo_parameters "L;m_1,..,m_L;w_1,..,w_L;p_1,..,p_L", 0-indexed: entry l describes
// the cables between level l and level l+1 (level 0 holds the hosts).
struct FatTreeParams {
  std::vector<int> down;    // m_l: children of a level-(l+1) switch
  std::vector<int> up;      // w_l: parents of a level-l node
  std::vector<int> cables;  // p_l: parallel cables between a level-l node and each of its parents
};

// Trees deeper than this are refused: with two or more children per level 22 levels already
// exceed kMaxVertices hosts, and a level of one child adds hops without adding hosts.
constexpr int kMaxFatTreeLevels = 32;

// What the fat-tree generator knows beside the graph. Vertices: the hosts 0..N-1 (endpoints, in
// SimGrid's host order), then the switches level by level, by position within the level. Every
// node carries a label of L digits; at level lv digit i counts w_i (i < lv) or m_i (i >= lv), and
// positions enumerate labels with digit 0 fastest. A level-(l+1) switch is a parent of a level-l
// node when their labels differ at most in digit l; each such pair has p_l cables, each one
// link up (child to parent, SimGrid's `_UP` half) and one down (`_DOWN`).
class FatTreeShape {
 public:
  // Throws optiq::Error naming `what` when an entry is below 1, the vectors' lengths differ from
  // the level count, or the tree exceeds the network limits.
  FatTreeShape(FatTreeParams params, const std::string& what = "the fat-tree");

  int levels() const { return static_cast<int>(down_.size()); }
  int down(int l) const { return down_[l]; }
  int up(int l) const { return up_[l]; }
  int cables(int l) const { return cables_[l]; }
  const FatTreeParams& params() const { return params_; }
  // SimGrid's topo_parameters string, e.g. "2;4,4;1,2;1,2".
  std::string topo_parameters() const;

  int num_hosts() const { return size_[0]; }
  int level_size(int level) const { return size_[level]; }  // nodes at a level, 0..L
  int num_vertices() const { return num_vertices_; }
  int num_links() const { return 2 * cable_base_.back(); }

  NodeId vertex(int level, int position) const { return level == 0 ? position : num_hosts() + offset_[level] + position; }
  int level(NodeId v) const;
  int position(NodeId v) const { return v - vertex(level(v), 0); }
  int digit(NodeId v, int i) const;
  // The node of a level with this label (L digits, each within its radix at that level).
  NodeId node_at(int level, const std::vector<int>& digits) const;
  // The id SimGrid gives the node, which link names carry: a host's index; for switches a count
  // down from 2N-1 in vertex order (negative when there are more than 2N switches).
  long long simgrid_id(NodeId v) const { return v < num_hosts() ? v : 2LL * num_hosts() - 1 - (v - num_hosts()); }
  // Is switch `sw` above `host`, i.e. do their labels agree from the switch's level on?
  bool is_ancestor(NodeId sw, NodeId host) const;

  // Ports as SimGrid numbers them. Up port q of a level-l node (0 <= q < w_l p_l) is cable
  // q / w_l to the parent whose digit l is q % w_l; down port q of a level-(l+1) switch
  // (0 <= q < m_l p_l) is cable q / m_l to the child whose digit l is q % m_l.
  int up_ports(NodeId v) const;
  int down_ports(NodeId sw) const;
  LinkId up_link(NodeId v, int port) const;
  LinkId down_link(NodeId sw, int port) const;
  // up_link of the node at this level and position, unchecked: for loops over whole levels.
  LinkId up_link_at(int level, int position, int port) const {
    return cable_link(level, position, port % up_[level], port / up_[level]);
  }
  // SimGrid's cable counter ("uid", the last number of a link's name) of a link: links 2u and
  // 2u+1 are cable u's up and down halves.
  static int cable_of(LinkId l) { return l / 2; }

  // Fewest links between two hosts: up to their lowest common level and down again.
  int hop_distance(NodeId a, NodeId b) const;
  int diameter() const;

 private:
  LinkId cable_link(int level, int position, int parent_digit, int cable) const;
  int digit_at(int level, int position, int i) const;  // digit i of the node at that level and position

  FatTreeParams params_;
  std::vector<int> down_, up_, cables_;
  std::vector<int> size_;                    // nodes per level, 0..L
  std::vector<int> offset_;                  // first switch of a level among the switches
  std::vector<std::vector<int>> stride_;     // per level, of each label digit
  std::vector<int> cable_base_;              // first cable between level l and l+1; back(): all
  int num_vertices_ = 0;
};

// SimGrid's topo_parameters text "L;m_1,..,m_L;w_1,..,w_L;p_1,..,p_L": four ';' fields, each
// number decimal (blanks around it allowed, as SimGrid allows). Throws optiq::Error naming
// `spec` for a malformed text; FatTreeShape checks the values.
FatTreeParams parse_fat_tree_params(const std::string& text, const std::string& spec);

// The fat-tree network: vertices and links as FatTreeShape numbers them, links in SimGrid's
// creation order (cable u is links 2u, up, and 2u+1, down) and named as SimGrid names them,
// "link_from_<child id>_<parent id>_<u>_UP" and "..._DOWN"; switches are named "switch<id>".
// Every link has `link_bandwidth` (SimGrid gives each cable the cluster's bw). The default
// routing is "simgrid".
Network make_fat_tree_network(FatTreeParams params, double link_bandwidth, std::string spec);

}  // namespace optiq
