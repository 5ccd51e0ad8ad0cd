// N-dimensional torus / mesh interconnect whose links are ports.
//
// Node ids are row-major with the last dimension fastest (BG/Q: E fastest).
// Every node owns 2n link slots: id = node*2n + 2*dim + (0 for the + port, 1 for the - port).
// A slot exists when the port leads somewhere: a size-1 dimension has no links, a mesh
// dimension has no port past its boundary, and a size-2 torus dimension has two distinct
// links (+ and -) to the same neighbour.
#pragma once

#include <string>
#include <vector>

#include "optiq/graph/csr.hpp"
#include "optiq/types.hpp"

namespace optiq {

constexpr double kBgqLinkBandwidth = 1.8e9;  // usable bytes/s per BG/Q link and direction

// The largest topology optiq builds. Planners and metrics keep arrays per node and per link
// slot, so a spec is a promise of memory: 2^22 nodes (26 times the largest torus machine
// built, Fugaku's 158,976 nodes) and 2^26 link slots keep each such array under 512 MiB.
constexpr int kMaxDims = 26;
constexpr long long kMaxNodes = 1LL << 22;
constexpr long long kMaxLinkSlots = 1LL << 26;
// Throws optiq::Error naming `what` when a shape of `dims` dimensions and `nodes` nodes (or a
// prefix of one: the check may run while a spec is read) exceeds the limits above.
void check_topology_size(int dims, long long nodes, const std::string& what);

class Topology {
 public:
  // sizes[d] >= 1; wrap[d] tells whether dimension d closes into a ring; link_bandwidth is
  // finite and positive.
  Topology(std::vector<int> sizes, std::vector<bool> wrap, double link_bandwidth = kBgqLinkBandwidth,
           std::string spec = "", std::string default_routing = "dor");

  int dims() const { return static_cast<int>(sizes_.size()); }
  int size(int dim) const { return sizes_[dim]; }
  bool wraps(int dim) const { return wrap_[dim]; }
  const std::vector<int>& sizes() const { return sizes_; }
  int num_nodes() const { return num_nodes_; }
  int num_link_slots() const { return num_nodes_ * 2 * dims(); }
  double link_bandwidth() const { return link_bandwidth_; }
  const std::string& spec() const { return spec_; }
  const std::string& default_routing() const { return default_routing_; }

  bool contains(NodeId node) const { return node >= 0 && node < num_nodes_; }
  int coord(NodeId node, int dim) const { return (node / strides_[dim]) % sizes_[dim]; }
  std::vector<int> coords(NodeId node) const;
  NodeId node_at(const std::vector<int>& coords) const;
  // The node one step from `node` along `dim`, direction +1 or -1, or -1 past a mesh edge.
  NodeId step(NodeId node, int dim, int direction) const;

  LinkId link(NodeId node, int dim, int direction) const {
    return node * 2 * dims() + 2 * dim + (direction > 0 ? 0 : 1);
  }
  bool link_exists(LinkId link) const;
  NodeId link_src(LinkId link) const { return link / (2 * dims()); }
  int link_dim(LinkId link) const { return (link % (2 * dims())) / 2; }
  int link_direction(LinkId link) const { return (link % 2) == 0 ? +1 : -1; }
  NodeId link_dst(LinkId link) const;  // -1 when the slot has no link
  double capacity(LinkId link) const { return link_exists(link) ? link_bandwidth_ : 0.0; }
  std::string port_label(LinkId link) const;  // e.g. "D+"
  // Parses a port label for the node's slot; -1 when the label is unknown.
  LinkId link_from_label(NodeId node, const std::string& label) const;
  std::vector<LinkId> out_links(NodeId node) const;  // existing links, slot order
  std::vector<NodeId> neighbors(NodeId node) const;  // distinct neighbour nodes, ascending
  int num_links() const;                             // existing links
  // Nodes and links as a graph for the core's graph algorithms: arc ids are link slots, and
  // slots without a link are absent arcs.
  graph::Csr link_graph() const;

  // Hop distance along one dimension between coordinates a and b.
  int ring_distance(int dim, int a, int b) const;
  int hop_distance(NodeId a, NodeId b) const;
  int diameter() const;

  static char dim_label(int dim) { return static_cast<char>('A' + dim); }

 private:
  std::vector<int> sizes_;
  std::vector<bool> wrap_;
  std::vector<int> strides_;
  int num_nodes_ = 0;
  double link_bandwidth_;
  std::string spec_;
  std::string default_routing_;
};

// Parses `bgq:AxBxCxDxE`, `mira:512|1024|2048|4096|49152`, `torus:8x8x8`, `mesh:4x4`.
// In torus/mesh specs a dimension may carry a suffix `t` (ring) or `m` (line) to mix the two,
// e.g. `torus:8x8x4m`. Throws optiq::Error naming the offending text.
Topology parse_topology(const std::string& spec, double link_bandwidth = kBgqLinkBandwidth);

}  // namespace optiq
