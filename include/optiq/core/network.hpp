// The network: a directed multigraph of vertices that host ranks, forward, or serve I/O, joined
// by links with their own capacities. Every planner, bound, plan file and the runtime see the
// machine only through this model; a generator (torus, BG/Q with its I/O side, fat-tree,
// dragonfly, a graph file) is the one place that knows its own numbering.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "optiq/core/graph/csr.hpp"
#include "optiq/core/types.hpp"

namespace optiq {

enum class VertexKind : std::uint8_t {
  Endpoint,  // hosts ranks; may forward in software
  Switch,    // forwards in hardware only; hosts no rank
  Io,        // an I/O node: paths start or end here; it runs no application rank and forwards nothing
};
const char* kind_name(VertexKind kind);

// The largest network optiq builds: the network keeps about 32 bytes per link (endpoints,
// capacity, adjacency) and planners and metrics more arrays per vertex and per link, so a
// network is a promise of memory. 2^22 vertices is 26 times the largest torus machine built
// (Fugaku's 158,976 nodes, about 1.6 million links); 2^24 links keep the network itself near
// 512 MiB and each per-link array of the planners under 128 MiB.
constexpr long long kMaxVertices = 1LL << 22;
constexpr long long kMaxLinks = 1LL << 24;

constexpr double kBgqLinkBandwidth = 1.8e9;  // usable bytes/s per BG/Q link and direction

// Throws optiq::Error naming `what` when a torus of `dims` dimensions and `nodes` nodes (or a
// prefix of one: the check runs while a spec is read) exceeds the limits above.
void check_torus_size(int dims, long long nodes, const std::string& what);

// What a torus or mesh generator knows beside the graph: the shape, the coordinates of its
// vertices (row-major, last dimension fastest) and which link leaves each vertex by each
// port. Algorithms that exploit a torus (goal-directed search, quotient bounds, dimension-
// ordered routing) read it; every other algorithm ignores it.
class TorusShape {
 public:
  // sizes[d] >= 1; throws optiq::Error when the shape exceeds the network limits.
  TorusShape(std::vector<int> sizes, std::vector<bool> wrap);

  int dims() const { return static_cast<int>(sizes_.size()); }
  int size(int dim) const { return sizes_[dim]; }
  bool wraps(int dim) const { return wrap_[dim]; }
  const std::vector<int>& sizes() const { return sizes_; }
  int num_nodes() const { return num_nodes_; }
  int num_links() const { return static_cast<int>(port_of_.size()); }
  int coord(NodeId node, int dim) const { return (node / strides_[dim]) % sizes_[dim]; }
  std::vector<int> coords(NodeId node) const;
  NodeId node_at(const std::vector<int>& coords) const;
  // The node one step from `node` along `dim` (direction +1 or -1), or -1 past a mesh edge
  // and in a size-1 dimension.
  NodeId step(NodeId node, int dim, int direction) const;
  // The link leaving `node` by port (dim, direction), or -1 when that port leads nowhere.
  LinkId link(NodeId node, int dim, int direction) const {
    return port_link_[static_cast<std::size_t>(node) * 2 * dims() + 2 * dim + (direction > 0 ? 0 : 1)];
  }
  // Port of a link: its dimension and direction.
  int link_dim(LinkId link) const { return port_of_[link] / 2; }
  int link_direction(LinkId link) const { return port_of_[link] % 2 == 0 ? +1 : -1; }
  std::string port_label(LinkId link) const;  // e.g. "D+"
  static char dim_label(int dim) { return static_cast<char>('A' + dim); }

  int ring_distance(int dim, int a, int b) const;
  int hop_distance(NodeId a, NodeId b) const;
  int diameter() const;

 private:
  std::vector<int> sizes_;
  std::vector<bool> wrap_;
  std::vector<int> strides_;
  int num_nodes_ = 0;
  std::vector<LinkId> port_link_;  // per node and port
  std::vector<std::int8_t> port_of_;  // per link: 2 * dim + (0 for +, 1 for -)
};

class FatTreeShape;    // include/optiq/core/fat_tree.hpp
class DragonflyShape;  // include/optiq/core/dragonfly.hpp

class Network {
 public:
  // Collects vertices and links, then checks and freezes them.
  class Builder {
   public:
    NodeId add_vertex(VertexKind kind, std::string name = "");
    // capacity in bytes/s, positive and finite; name unique in the network when given
    // (default: "SRC-DST", with "#k" for the k-th further link between the same two vertices).
    LinkId add_link(NodeId src, NodeId dst, double capacity, std::string name = "");
    int num_vertices() const { return static_cast<int>(kinds_.size()); }
    int num_links() const { return static_cast<int>(src_.size()); }
    NodeId link_src(LinkId l) const { return src_[l]; }
    // The network's own routes as a forwarding table: (vertex, destination, link) entries; the
    // default routing is then "table" (see network_routing.hpp).
    void set_forwarding_table(std::vector<std::vector<std::pair<NodeId, LinkId>>> next) { table_ = std::move(next); }
    // The torus hint for a network whose vertices and links follow a torus's numbering
    // (checked by build: one endpoint per node, link ids in port order).
    void set_torus_hint(std::shared_ptr<const TorusShape> shape) { torus_ = std::move(shape); }
    // The torus the first vertices and links form when more follows that is not part of it:
    // BG/Q's I/O side (checked by build: those vertices and links as for the hint, every later
    // vertex an I/O vertex or switch, every later link touching one).
    void set_torus_part(std::shared_ptr<const TorusShape> shape) { part_ = std::move(shape); }
    // The fat-tree or dragonfly hint of a network those generators built (checked by build: the
    // shape's vertex and link counts, hosts as endpoints and the rest switches).
    void set_fat_tree_hint(std::shared_ptr<const FatTreeShape> shape) { fat_tree_ = std::move(shape); }
    void set_dragonfly_hint(std::shared_ptr<const DragonflyShape> shape) { dragonfly_ = std::move(shape); }
    // The endpoints' names are the host names ranks run on (imported networks, graph files that
    // say so): build then requires every endpoint named, uniquely, and the runtime may place
    // ranks by their host names.
    void set_hosts_named() { hosts_named_ = true; }
    // Throws optiq::Error naming the first defect: an empty network, a link to a vertex that
    // does not exist, a self loop, a bad capacity, a repeated name, limits exceeded.
    Network build(std::string spec, std::string default_routing) &&;

   private:
    friend class Network;
    std::vector<VertexKind> kinds_;
    std::vector<std::string> vertex_names_;
    std::vector<NodeId> src_, dst_;
    std::vector<double> capacity_;
    std::vector<std::string> link_names_;
    std::shared_ptr<const TorusShape> torus_, part_;
    std::shared_ptr<const FatTreeShape> fat_tree_;
    std::shared_ptr<const DragonflyShape> dragonfly_;
    std::vector<std::vector<std::pair<NodeId, LinkId>>> table_;
    bool hosts_named_ = false;
  };

  int num_vertices() const { return static_cast<int>(kinds_.size()); }
  bool contains(NodeId v) const { return v >= 0 && v < num_vertices(); }
  VertexKind kind(NodeId v) const { return kinds_[v]; }
  const std::string& vertex_name(NodeId v) const { return vertex_names_[v]; }
  // Vertices that host application ranks (kind Endpoint), ascending: rank placement uses them.
  const std::vector<NodeId>& endpoints() const { return endpoints_; }
  // Whether endpoint names are host names (Builder::set_hosts_named), and the endpoint a host
  // name names (-1 when none does, or when the network does not name its hosts).
  bool hosts_named() const { return static_cast<bool>(host_index_); }
  NodeId endpoint_named(const std::string& host) const;
  // Which endpoints may forward in software: all of them, unless with_forwarders restricted
  // them to a job's own (the rest of a shared machine carries other people's traffic).
  bool may_forward(NodeId v) const {
    return kinds_[v] == VertexKind::Endpoint && (!forwarders_ || (*forwarders_)[v]);
  }
  bool forwarding_restricted() const { return static_cast<bool>(forwarders_); }
  // The same network where only `endpoints` forward: what a job planned inside its own
  // allocation sees. Throws optiq::Error when one of them is not an endpoint. The digest is
  // the same (the wiring is), and a plan for the restricted network is one for the whole.
  Network with_forwarders(const std::vector<NodeId>& endpoints) const;
  // Vertices paths may start and end at (Endpoint and Io): everything but switches. Only
  // endpoints forward in software (Legs::can_proxy); the relaying charge falls on the
  // terminals a path passes, never on switches.
  bool is_terminal(NodeId v) const { return kinds_[v] != VertexKind::Switch; }

  int num_links() const { return static_cast<int>(src_.size()); }
  bool has_link(LinkId l) const { return l >= 0 && l < num_links(); }
  NodeId link_src(LinkId l) const { return src_[l]; }
  NodeId link_dst(LinkId l) const { return dst_[l]; }
  double capacity(LinkId l) const { return capacity_[l]; }
  const std::vector<double>& capacities() const { return capacity_; }
  std::string link_name(LinkId l) const;
  LinkId link_named(const std::string& name) const;  // -1 when no link has that name
  // The links leaving each vertex in ascending id, for the graph kernel.
  const graph::Csr& graph() const { return graph_; }

  const std::string& spec() const { return spec_; }
  const std::string& default_routing() const { return default_routing_; }
  // The same network with other link capacities (bytes/s, positive and finite, one per link):
  // what planning sees when part of each link is known to be taken, e.g. by another job's
  // traffic. The digest is the same (it covers the wiring), so plans stay executable on the
  // network with its full capacities. Throws optiq::Error naming the first bad value.
  Network with_capacities(std::vector<double> capacities) const;

  // 16 hex digits that change with any vertex kind, link endpoint or link name (on a torus its
  // port, which its name is made of): the wiring, not
  // the capacities, so a plan made for this network stays executable when capacities are
  // re-measured, but is refused on any other network.
  const std::string& digest() const { return digest_; }

  const TorusShape* torus() const { return torus_.get(); }  // null unless a torus generator made it
  // The torus the endpoints form, whole (torus()) or with more beside it (BG/Q's I/O side): what
  // dimension-ordered routing runs on. Null when there is none.
  const TorusShape* torus_part() const { return torus_ ? torus_.get() : part_.get(); }
  // The fat-tree or dragonfly a generator built (null otherwise): what their routing models and
  // SimGrid platforms read.
  const FatTreeShape* fat_tree() const { return fat_tree_.get(); }
  const DragonflyShape* dragonfly() const { return dragonfly_.get(); }
  // Per vertex, (destination, next link) sorted by destination; empty unless the network came
  // with a forwarding table.
  const std::vector<std::vector<std::pair<NodeId, LinkId>>>& forwarding_table() const { return *table_; }

  // Fewest links from a to b (breadth-first unless a hint answers), -1 when b is unreachable.
  // Beside a torus part, paths do not pass through the vertices outside it (I/O nodes run no
  // rank and forward nothing), so between torus nodes this is the torus distance.
  int hop_distance(NodeId a, NodeId b) const;
  // The largest hop distance between endpoints: from the torus hint or part or the fat-tree,
  // else by breadth-first search from every endpoint (time: endpoints x links; on a dragonfly
  // from one host per router).
  int diameter() const;

 private:
  explicit Network(Builder&& b, std::string spec, std::string default_routing);

  std::vector<VertexKind> kinds_;
  std::vector<std::string> vertex_names_;
  std::vector<NodeId> endpoints_;
  std::vector<NodeId> src_, dst_;
  std::vector<double> capacity_;
  std::vector<std::string> link_names_;  // empty for a torus, whose names follow from its ports
  graph::Csr graph_;
  std::string spec_, default_routing_, digest_;
  std::shared_ptr<const TorusShape> torus_;  // shared: immutable, and copies of a network are common
  std::shared_ptr<const TorusShape> part_;
  std::shared_ptr<const FatTreeShape> fat_tree_;
  std::shared_ptr<const DragonflyShape> dragonfly_;
  std::shared_ptr<const std::vector<std::vector<std::pair<NodeId, LinkId>>>> table_;
  std::shared_ptr<const std::vector<std::pair<std::string, NodeId>>> host_index_;  // sorted by name
  std::shared_ptr<const std::vector<char>> forwarders_;  // per vertex; null: every endpoint
};

// A torus or mesh: one endpoint per node, and per node and dimension a + and a - link where
// the port leads somewhere (none in a size-1 dimension or past a mesh edge; two distinct links
// to the same neighbour in a size-2 ring, as BG/Q's E dimension has). Link ids follow the port
// order node, dimension, + before -, skipping ports that lead nowhere; names are "NODE:PORT",
// e.g. "17:D+".
Network make_torus_network(std::vector<int> sizes, std::vector<bool> wrap, double link_bandwidth,
                           std::string spec, std::string default_routing);

// BG/Q with its I/O side: the all-torus partition, plus one I/O node (kind io, named "ioP") per
// pset of kPsetNodes consecutive node ids, joined to the pset's two bridge nodes (offsets
// kBridgeOffsets) by one link each way, named "BRIDGE:IO>" (to the I/O node) and "BRIDGE:IO<".
// Every link has `link_bandwidth` (BG/Q's I/O link is a torus-speed link, 2 GB/s raw). The
// default routing is "bgq", which reaches an I/O node through the bridge nearest the other end.
// The node count must be a multiple of kPsetNodes (docs/model.md, "BG/Q's I/O side").
constexpr int kPsetNodes = 128;
constexpr int kBridgeOffsets[2] = {0, 64};
Network make_bgq_io_network(std::vector<int> sizes, double link_bandwidth, std::string spec);

// A network in networkx's node-link JSON (docs/graph-format.md): "nodes" [{id, kind?}],
// "links" (or "edges") [{source, target, capacity, name?}], "directed" (default true; false
// makes each link one each way), "routing" (a routing name, "shortest" by default, or
// {"table": {node: {destination: link name}}}), and optionally "graph": {"torus": {"sizes",
// "wrap"}}, the torus hint, checked against the links. `origin` names the text in errors,
// `spec` becomes the network's.
Network parse_graph_network(const std::string& text, const std::string& origin, const std::string& spec);
Network read_graph_network(const std::string& path);
// Any network as such a file: vertices by number, every link with its capacity and name, and
// `routing`'s routes between endpoints as a forwarding table (an optiq::Error when they are not
// one: the choice at a vertex must depend on the destination alone); without it "shortest".
// A torus keeps its hint. Reading it back gives the same network, link for link.
class RoutingModel;
std::string network_to_graph_json(const Network& net, const RoutingModel* routing = nullptr);

// Parses `bgq:AxBxCxDxE`, `mira:512|1024|2048|4096|49152` (either with `+io` for the I/O
// side), `torus:8x8x8`, `mesh:4x4`, `fattree:L;m_1,..,m_L;w_1,..,w_L;p_1,..,p_L`,
// `dragonfly:G,nblue;C,nblack;B,ngreen;N` (SimGrid's topo_parameters of its FAT_TREE and
// DRAGONFLY clusters), `graph:FILE`, and a site's own description: `slurm:FILE` (topology.conf
// or topology.yaml), `ibnetdiscover:FILE`, `slingshot:FILE[;key=value..]` (core/import.hpp).
// In torus/mesh specs a dimension may carry a suffix `t`
// (ring) or `m` (line) to mix the two, e.g. `torus:8x8x4m`. Throws optiq::Error naming the
// offending text.
Network parse_network(const std::string& spec, double link_bandwidth = kBgqLinkBandwidth);

}  // namespace optiq
