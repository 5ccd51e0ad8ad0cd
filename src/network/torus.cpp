// The torus and mesh generator: the only code that knows the port numbering.
#include <algorithm>
#include <cmath>
#include <cstdlib>

#include "optiq/core/error.hpp"
#include "optiq/core/network.hpp"

namespace optiq {

constexpr int kMaxTorusDims = 26;  // dimension labels A..Z

void check_torus_size(int dims, long long nodes, const std::string& what) {
  if (dims > kMaxTorusDims) throw Error(what + " has more than " + std::to_string(kMaxTorusDims) + " dimensions");
  if (nodes > kMaxVertices || nodes * 2 * dims > kMaxLinks)
    throw Error(what + " is too large (at most " + std::to_string(kMaxVertices) + " nodes and " +
                std::to_string(kMaxLinks) + " links, 2 per node and dimension)");
}

TorusShape::TorusShape(std::vector<int> sizes, std::vector<bool> wrap) : sizes_(std::move(sizes)), wrap_(std::move(wrap)) {
  if (sizes_.empty()) throw Error("a topology needs at least one dimension");
  if (wrap_.size() != sizes_.size()) throw Error("one wrap flag per dimension is required");
  long long nodes = 1;
  for (int s : sizes_) {
    if (s < 1) throw Error("dimension sizes must be at least 1, got " + std::to_string(s));
    nodes *= s;
    check_torus_size(dims(), nodes, "the topology");
  }
  num_nodes_ = static_cast<int>(nodes);
  strides_.assign(sizes_.size(), 1);
  for (int d = dims() - 2; d >= 0; --d) strides_[d] = strides_[d + 1] * sizes_[d + 1];
  // Links in port order: node, dimension, + before -, skipping ports that lead nowhere.
  port_link_.assign(static_cast<std::size_t>(num_nodes_) * 2 * dims(), -1);
  for (NodeId v = 0; v < num_nodes_; ++v)
    for (int d = 0; d < dims(); ++d)
      for (int dir : {+1, -1})
        if (step(v, d, dir) >= 0) {
          port_link_[static_cast<std::size_t>(v) * 2 * dims() + 2 * d + (dir > 0 ? 0 : 1)] =
              static_cast<LinkId>(port_of_.size());
          port_of_.push_back(static_cast<std::int8_t>(2 * d + (dir > 0 ? 0 : 1)));
        }
}

std::vector<int> TorusShape::coords(NodeId node) const {
  std::vector<int> c(sizes_.size());
  for (int d = 0; d < dims(); ++d) c[d] = coord(node, d);
  return c;
}

NodeId TorusShape::node_at(const std::vector<int>& c) const {
  OPTIQ_CHECK(c.size() == sizes_.size(), "coordinate rank mismatch");
  NodeId id = 0;
  for (int d = 0; d < dims(); ++d) {
    OPTIQ_CHECK(c[d] >= 0 && c[d] < sizes_[d], "coordinate out of range");
    id += c[d] * strides_[d];
  }
  return id;
}

NodeId TorusShape::step(NodeId node, int dim, int direction) const {
  const int s = sizes_[dim];
  if (s == 1) return -1;
  const int c = coord(node, dim);
  int n = c + direction;
  if (n < 0 || n >= s) {
    if (!wrap_[dim]) return -1;
    n = (n + s) % s;
  }
  return node + (n - c) * strides_[dim];
}

std::string TorusShape::port_label(LinkId link) const {
  return std::string(1, dim_label(link_dim(link))) + (link_direction(link) > 0 ? "+" : "-");
}

int TorusShape::ring_distance(int dim, int a, int b) const {
  const int direct = std::abs(a - b);
  return wrap_[dim] ? std::min(direct, sizes_[dim] - direct) : direct;
}

int TorusShape::hop_distance(NodeId a, NodeId b) const {
  int h = 0;
  for (int d = 0; d < dims(); ++d) h += ring_distance(d, coord(a, d), coord(b, d));
  return h;
}

int TorusShape::diameter() const {
  int h = 0;
  for (int d = 0; d < dims(); ++d) h += wrap_[d] ? sizes_[d] / 2 : sizes_[d] - 1;
  return h;
}

namespace {

// A torus's nodes and links, in port order; named after their ports when `named` (a network
// with a torus hint computes the names instead of storing them).
void add_torus(Network::Builder& b, const TorusShape& shape, double link_bandwidth, bool named) {
  if (!(link_bandwidth > 0.0) || !std::isfinite(link_bandwidth))
    throw Error("link bandwidth must be a positive, finite number of bytes/s, got " + std::to_string(link_bandwidth));
  for (NodeId v = 0; v < shape.num_nodes(); ++v) b.add_vertex(VertexKind::Endpoint);
  for (NodeId v = 0; v < shape.num_nodes(); ++v)
    for (int d = 0; d < shape.dims(); ++d)
      for (int dir : {+1, -1}) {
        const LinkId l = shape.link(v, d, dir);
        if (l < 0) continue;
        const LinkId added = b.add_link(v, shape.step(v, d, dir), link_bandwidth,
                                        named ? std::to_string(v) + ":" + shape.port_label(l) : std::string());
        OPTIQ_CHECK(added == l, "torus links out of port order");
      }
}

}  // namespace

Network make_torus_network(std::vector<int> sizes, std::vector<bool> wrap, double link_bandwidth, std::string spec,
                           std::string default_routing) {
  auto shape = std::make_shared<TorusShape>(std::move(sizes), std::move(wrap));
  Network::Builder b;
  add_torus(b, *shape, link_bandwidth, false);
  b.set_torus_hint(std::move(shape));
  return std::move(b).build(std::move(spec), std::move(default_routing));
}

Network make_bgq_io_network(std::vector<int> sizes, double link_bandwidth, std::string spec) {
  auto shape = std::make_shared<TorusShape>(sizes, std::vector<bool>(sizes.size(), true));
  const int n = shape->num_nodes();
  if (n % kPsetNodes != 0)
    throw Error("the I/O side needs whole psets of " + std::to_string(kPsetNodes) + " nodes; '" + spec + "' has " +
                std::to_string(n));
  Network::Builder b;
  add_torus(b, *shape, link_bandwidth, true);
  for (int p = 0; p < n / kPsetNodes; ++p) {
    const NodeId io = b.add_vertex(VertexKind::Io, "io" + std::to_string(p));
    for (int offset : kBridgeOffsets) {
      const NodeId bridge = p * kPsetNodes + offset;
      b.add_link(bridge, io, link_bandwidth, std::to_string(bridge) + ":IO>");
      b.add_link(io, bridge, link_bandwidth, std::to_string(bridge) + ":IO<");
    }
  }
  b.set_torus_part(std::move(shape));
  return std::move(b).build(std::move(spec), "bgq");
}

}  // namespace optiq
