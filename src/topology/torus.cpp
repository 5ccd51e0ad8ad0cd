#include <algorithm>
#include <cmath>
#include <cstdlib>

#include "optiq/error.hpp"
#include "optiq/topology.hpp"

namespace optiq {

void check_topology_size(int dims, long long nodes, const std::string& what) {
  if (dims > kMaxDims) throw Error(what + " has more than " + std::to_string(kMaxDims) + " dimensions");
  if (nodes > kMaxNodes || nodes * 2 * dims > kMaxLinkSlots)
    throw Error(what + " is too large (at most " + std::to_string(kMaxNodes) + " nodes and " +
                std::to_string(kMaxLinkSlots) + " link slots, 2 per node and dimension)");
}

Topology::Topology(std::vector<int> sizes, std::vector<bool> wrap, double link_bandwidth, std::string spec,
                   std::string default_routing)
    : sizes_(std::move(sizes)),
      wrap_(std::move(wrap)),
      link_bandwidth_(link_bandwidth),
      spec_(std::move(spec)),
      default_routing_(std::move(default_routing)) {
  if (sizes_.empty()) throw Error("a topology needs at least one dimension");
  if (wrap_.size() != sizes_.size()) throw Error("one wrap flag per dimension is required");
  if (!(link_bandwidth_ > 0.0) || !std::isfinite(link_bandwidth_))
    throw Error("link bandwidth must be a positive, finite number of bytes/s, got " + std::to_string(link_bandwidth_));
  long long nodes = 1;
  for (int s : sizes_) {
    if (s < 1) throw Error("dimension sizes must be at least 1, got " + std::to_string(s));
    nodes *= s;
    check_topology_size(dims(), nodes, "the topology");
  }
  num_nodes_ = static_cast<int>(nodes);
  strides_.assign(sizes_.size(), 1);
  for (int d = dims() - 2; d >= 0; --d) strides_[d] = strides_[d + 1] * sizes_[d + 1];
}

std::vector<int> Topology::coords(NodeId node) const {
  std::vector<int> c(sizes_.size());
  for (int d = 0; d < dims(); ++d) c[d] = coord(node, d);
  return c;
}

NodeId Topology::node_at(const std::vector<int>& c) const {
  OPTIQ_CHECK(c.size() == sizes_.size(), "coordinate rank mismatch");
  NodeId id = 0;
  for (int d = 0; d < dims(); ++d) {
    OPTIQ_CHECK(c[d] >= 0 && c[d] < sizes_[d], "coordinate out of range");
    id += c[d] * strides_[d];
  }
  return id;
}

NodeId Topology::step(NodeId node, int dim, int direction) const {
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

bool Topology::link_exists(LinkId link) const {
  if (link < 0 || link >= num_link_slots()) return false;
  return step(link_src(link), link_dim(link), link_direction(link)) >= 0;
}

NodeId Topology::link_dst(LinkId link) const {
  if (link < 0 || link >= num_link_slots()) return -1;
  return step(link_src(link), link_dim(link), link_direction(link));
}

std::string Topology::port_label(LinkId link) const {
  return std::string(1, dim_label(link_dim(link))) + (link_direction(link) > 0 ? "+" : "-");
}

LinkId Topology::link_from_label(NodeId node, const std::string& label) const {
  if (label.size() != 2 || (label[1] != '+' && label[1] != '-')) return -1;
  const int dim = label[0] - 'A';
  if (dim < 0 || dim >= dims()) return -1;
  return link(node, dim, label[1] == '+' ? +1 : -1);
}

std::vector<LinkId> Topology::out_links(NodeId node) const {
  std::vector<LinkId> out;
  for (int d = 0; d < dims(); ++d)
    for (int dir : {+1, -1}) {
      const LinkId l = link(node, d, dir);
      if (link_exists(l)) out.push_back(l);
    }
  return out;
}

std::vector<NodeId> Topology::neighbors(NodeId node) const {
  std::vector<NodeId> out;
  for (LinkId l : out_links(node)) out.push_back(link_dst(l));
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

int Topology::num_links() const {
  int count = 0;
  for (int d = 0; d < dims(); ++d) {
    const int s = sizes_[d];
    const int per_ring = s == 1 ? 0 : (wrap_[d] ? 2 * s : 2 * (s - 1));
    count += per_ring * (num_nodes_ / s);
  }
  return count;
}

graph::Csr Topology::link_graph() const {
  std::vector<int> tails(num_link_slots()), heads(num_link_slots());
  for (LinkId l = 0; l < num_link_slots(); ++l) {
    heads[l] = link_dst(l);
    tails[l] = heads[l] < 0 ? -1 : link_src(l);
  }
  return graph::Csr(num_nodes_, std::move(tails), std::move(heads));
}

int Topology::ring_distance(int dim, int a, int b) const {
  const int direct = std::abs(a - b);
  return wrap_[dim] ? std::min(direct, sizes_[dim] - direct) : direct;
}

int Topology::hop_distance(NodeId a, NodeId b) const {
  int h = 0;
  for (int d = 0; d < dims(); ++d) h += ring_distance(d, coord(a, d), coord(b, d));
  return h;
}

int Topology::diameter() const {
  int h = 0;
  for (int d = 0; d < dims(); ++d) h += wrap_[d] ? sizes_[d] / 2 : sizes_[d] - 1;
  return h;
}

}  // namespace optiq
