#include "optiq/core/network.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <deque>
#include <map>
#include <unordered_map>

#include "optiq/core/dragonfly.hpp"
#include "optiq/core/error.hpp"
#include "optiq/core/fat_tree.hpp"

namespace optiq {

const char* kind_name(VertexKind kind) {
  switch (kind) {
    case VertexKind::Endpoint: return "endpoint";
    case VertexKind::Switch: return "switch";
    case VertexKind::Io: return "io";
  }
  return "?";
}

NodeId Network::Builder::add_vertex(VertexKind kind, std::string name) {
  if (static_cast<long long>(kinds_.size()) >= kMaxVertices)
    throw Error("the network has more than " + std::to_string(kMaxVertices) + " vertices");
  kinds_.push_back(kind);
  if (!name.empty()) {  // names are rare on generated networks: kept only once one is given
    vertex_names_.resize(kinds_.size());
    vertex_names_.back() = std::move(name);
  }
  return static_cast<NodeId>(kinds_.size() - 1);
}

LinkId Network::Builder::add_link(NodeId src, NodeId dst, double capacity, std::string name) {
  auto which = [&] { return "link " + std::to_string(src_.size()); };  // for errors only: links are many
  if (static_cast<long long>(src_.size()) >= kMaxLinks)
    throw Error("the network has more than " + std::to_string(kMaxLinks) + " links");
  if (src < 0 || src >= num_vertices() || dst < 0 || dst >= num_vertices())
    throw Error(which() + " joins " + std::to_string(src) + " and " + std::to_string(dst) +
                ", but the vertices are 0.." + std::to_string(num_vertices() - 1));
  if (src == dst) throw Error(which() + " is a loop at vertex " + std::to_string(src));
  if (!(capacity > 0) || !std::isfinite(capacity))
    throw Error(which() + " (" + std::to_string(src) + "-" + std::to_string(dst) +
                "): capacity must be a positive, finite number of bytes/s");
  src_.push_back(src);
  dst_.push_back(dst);
  capacity_.push_back(capacity);
  if (!name.empty()) {
    link_names_.resize(src_.size());
    link_names_.back() = std::move(name);
  }
  return static_cast<LinkId>(src_.size() - 1);
}

Network Network::with_capacities(std::vector<double> capacities) const {
  if (capacities.size() != capacity_.size())
    throw Error("capacities: " + std::to_string(capacities.size()) + " values for " + std::to_string(num_links()) +
                " links");
  for (std::size_t l = 0; l < capacities.size(); ++l)
    if (!(capacities[l] > 0) || !std::isfinite(capacities[l]))
      throw Error("capacities: link " + std::to_string(l) + " (" + link_name(static_cast<LinkId>(l)) +
                  "): a capacity must be a positive, finite number of bytes/s");
  Network copy = *this;
  copy.capacity_ = std::move(capacities);
  return copy;
}

Network Network::Builder::build(std::string spec, std::string default_routing) && {
  if (kinds_.empty()) throw Error("a network needs at least one vertex");
  // A torus hint or part must describe the first vertices and links exactly.
  auto check_torus = [&](const TorusShape& t, const char* what) {
    for (NodeId v = 0; v < t.num_nodes(); ++v)
      if (kinds_[v] != VertexKind::Endpoint)
        throw Error(std::string(what) + ": vertex " + std::to_string(v) + " is not an endpoint");
    for (LinkId l = 0; l < t.num_links(); ++l) {
      const int d = t.link_dim(l), dir = t.link_direction(l);
      if (t.link(src_[l], d, dir) != l || t.step(src_[l], d, dir) != dst_[l])
        throw Error(std::string(what) + ": link " + std::to_string(l) + " (" + std::to_string(src_[l]) + "-" +
                    std::to_string(dst_[l]) + ") is not port " + t.port_label(l) + " of its node");
      if (static_cast<std::size_t>(l) >= link_names_.size() || link_names_[l].empty()) continue;
      const std::string port_name = std::to_string(src_[l]) + ":" + t.port_label(l);
      if (link_names_[l] != port_name)  // a torus's links are named by their ports
        throw Error(std::string(what) + ": link " + std::to_string(l) + " is named '" + link_names_[l] +
                    "', not '" + port_name + "'");
    }
  };
  if (torus_) {
    const TorusShape& t = *torus_;
    if (t.num_nodes() != num_vertices() || t.num_links() != num_links())
      throw Error("the torus hint has " + std::to_string(t.num_nodes()) + " nodes and " + std::to_string(t.num_links()) +
                  " links, the network " + std::to_string(num_vertices()) + " and " + std::to_string(num_links()));
    check_torus(t, "the torus hint");
  }
  if (part_) {
    const TorusShape& t = *part_;
    if (torus_ || t.num_nodes() > num_vertices() || t.num_links() > num_links())
      throw Error("a torus part must be smaller than its network and come without a torus hint");
    check_torus(t, "the torus part");
    for (NodeId v = t.num_nodes(); v < num_vertices(); ++v)
      if (kinds_[v] == VertexKind::Endpoint)
        throw Error("beside a torus part, vertex " + std::to_string(v) + " may not be an endpoint");
    for (LinkId l = t.num_links(); l < num_links(); ++l)
      if (src_[l] < t.num_nodes() && dst_[l] < t.num_nodes())
        throw Error("beside a torus part, link " + std::to_string(l) + " joins two torus nodes");
  }
  // A fat-tree or dragonfly hint must describe the whole network: hosts first, then switches.
  auto check_fabric = [&](int vertices, int hosts, int links, const char* what) {
    if (torus_ || part_ || (fat_tree_ && dragonfly_))
      throw Error(std::string("a network has one hint at most; the ") + what + " comes with another");
    if (vertices != num_vertices() || links != num_links())
      throw Error(std::string("the ") + what + " hint has " + std::to_string(vertices) + " vertices and " +
                  std::to_string(links) + " links, the network " + std::to_string(num_vertices()) + " and " +
                  std::to_string(num_links()));
    for (NodeId v = 0; v < num_vertices(); ++v)
      if ((kinds_[v] == VertexKind::Endpoint) != (v < hosts))
        throw Error(std::string("the ") + what + " hint: vertex " + std::to_string(v) + " is " +
                    (v < hosts ? "a host but not an endpoint" : "a switch but not of kind switch"));
  };
  if (fat_tree_) check_fabric(fat_tree_->num_vertices(), fat_tree_->num_hosts(), fat_tree_->num_links(), "fat-tree");
  if (dragonfly_)
    check_fabric(dragonfly_->num_vertices(), dragonfly_->num_hosts(), dragonfly_->num_links(), "dragonfly");
  return Network(std::move(*this), std::move(spec), std::move(default_routing));
}

namespace {

// FNV-1a, 64 bits: a fingerprint, not a defence against forgery.
class Fingerprint {
 public:
  void add(const void* data, std::size_t n) {
    const auto* p = static_cast<const unsigned char*>(data);
    for (std::size_t i = 0; i < n; ++i) h_ = (h_ ^ p[i]) * 0x100000001b3ULL;
  }
  void add(const std::string& s) {
    const std::uint64_t n = s.size();
    add(&n, sizeof n);
    add(s.data(), s.size());
  }
  std::string hex() const {
    char buf[17];
    std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(h_));
    return buf;
  }

 private:
  std::uint64_t h_ = 0xcbf29ce484222325ULL;
};

}  // namespace

Network::Network(Builder&& b, std::string spec, std::string default_routing)
    : kinds_(std::move(b.kinds_)),
      vertex_names_(std::move(b.vertex_names_)),
      src_(std::move(b.src_)),
      dst_(std::move(b.dst_)),
      capacity_(std::move(b.capacity_)),
      link_names_(std::move(b.link_names_)),
      graph_(static_cast<int>(kinds_.size()), std::vector<int>(src_.begin(), src_.end()),
             std::vector<int>(dst_.begin(), dst_.end())),
      spec_(std::move(spec)),
      default_routing_(std::move(default_routing)),
      torus_(std::move(b.torus_)),
      part_(std::move(b.part_)),
      fat_tree_(std::move(b.fat_tree_)),
      dragonfly_(std::move(b.dragonfly_)),
      table_(std::make_shared<const std::vector<std::vector<std::pair<NodeId, LinkId>>>>(std::move(b.table_))) {
  for (NodeId v = 0; v < num_vertices(); ++v)
    if (kinds_[v] == VertexKind::Endpoint) endpoints_.push_back(v);
  vertex_names_.resize(kinds_.size());
  // A torus's links are named "NODE:PORT", unique by construction and computed when asked.
  if (torus_) link_names_.clear();
  else link_names_.resize(src_.size());
  std::map<std::pair<NodeId, NodeId>, int> parallel;
  std::unordered_map<std::string, LinkId> named;
  // A fat-tree's or dragonfly's names carry SimGrid's link counter, so they are unique by
  // construction; checking 10^6 of them would take most of the time the network takes to build.
  const bool check_names = !fat_tree_ && !dragonfly_;
  if (check_names) named.reserve(link_names_.size());
  for (LinkId l = 0; l < static_cast<LinkId>(link_names_.size()); ++l) {
    if (link_names_[l].empty()) {
      const int k = parallel[{src_[l], dst_[l]}]++;
      link_names_[l] = std::to_string(src_[l]) + "-" + std::to_string(dst_[l]) + (k ? "#" + std::to_string(k) : "");
    }
    if (check_names && !named.emplace(link_names_[l], l).second)
      throw Error("link " + std::to_string(l) + ": the name '" + link_names_[l] + "' is taken by link " +
                  std::to_string(named[link_names_[l]]));
  }
  if (b.hosts_named_) {
    std::vector<std::pair<std::string, NodeId>> index;
    for (NodeId v : endpoints_) {
      if (vertex_names_[v].empty()) throw Error("endpoint " + std::to_string(v) + " has no host name");
      index.push_back({vertex_names_[v], v});
    }
    std::sort(index.begin(), index.end());
    for (std::size_t i = 1; i < index.size(); ++i)
      if (index[i].first == index[i - 1].first)
        throw Error("host name '" + index[i].first + "' names endpoints " + std::to_string(index[i - 1].second) +
                    " and " + std::to_string(index[i].second));
    host_index_ = std::make_shared<const std::vector<std::pair<std::string, NodeId>>>(std::move(index));
  }
  Fingerprint f;
  const std::uint64_t n = kinds_.size(), m = src_.size();
  f.add(&n, sizeof n);
  f.add(kinds_.data(), kinds_.size());
  f.add(&m, sizeof m);
  for (LinkId l = 0; l < num_links(); ++l) {
    f.add(&src_[l], sizeof src_[l]);
    f.add(&dst_[l], sizeof dst_[l]);
    if (torus_) {  // the name is the source and the port: hash the port, not a string per link
      const std::int8_t port = static_cast<std::int8_t>(2 * torus_->link_dim(l) + (torus_->link_direction(l) > 0 ? 0 : 1));
      f.add(&port, sizeof port);
    } else {
      f.add(link_names_[l]);
    }
  }
  digest_ = f.hex();
}

NodeId Network::endpoint_named(const std::string& host) const {
  if (!host_index_) return -1;
  const auto it = std::lower_bound(host_index_->begin(), host_index_->end(), std::make_pair(host, NodeId{-1}));
  return it != host_index_->end() && it->first == host ? it->second : -1;
}

Network Network::with_forwarders(const std::vector<NodeId>& endpoints) const {
  auto mask = std::make_shared<std::vector<char>>(kinds_.size(), 0);
  for (NodeId v : endpoints) {
    if (!contains(v) || kinds_[v] != VertexKind::Endpoint)
      throw Error("forwarders: vertex " + std::to_string(v) + " is not an endpoint of " + spec_);
    (*mask)[v] = 1;
  }
  Network copy = *this;
  copy.forwarders_ = std::move(mask);
  return copy;
}

std::string Network::link_name(LinkId l) const {
  if (torus_) return std::to_string(src_[l]) + ":" + torus_->port_label(l);
  return link_names_[l];
}

LinkId Network::link_named(const std::string& name) const {
  if (torus_) {  // "NODE:PORT" without a table
    const auto colon = name.find(':');
    if (colon == std::string::npos || colon == 0 || name.size() != colon + 3) return -1;
    if (name[0] == '0' && colon > 1) return -1;  // names have no leading zeros
    NodeId node = 0;
    for (std::size_t i = 0; i < colon; ++i) {
      if (name[i] < '0' || name[i] > '9' || node > kMaxVertices) return -1;
      node = node * 10 + (name[i] - '0');
    }
    const int dim = name[colon + 1] - 'A';
    const char sign = name[colon + 2];
    if (!contains(node) || dim < 0 || dim >= torus_->dims() || (sign != '+' && sign != '-')) return -1;
    return torus_->link(node, dim, sign == '+' ? +1 : -1);
  }
  for (LinkId l = 0; l < num_links(); ++l)
    if (link_names_[l] == name) return l;
  return -1;
}

int Network::hop_distance(NodeId a, NodeId b) const {
  if (torus_) return torus_->hop_distance(a, b);
  if (fat_tree_ && a < fat_tree_->num_hosts() && b < fat_tree_->num_hosts()) return fat_tree_->hop_distance(a, b);
  if (part_) {  // through the torus only: a vertex beside it is one link from each neighbour
    const int n = part_->num_nodes();
    if (a == b) return 0;
    auto anchors = [&](NodeId v, auto&& each) {
      if (v < n) return each(v, 0);
      for (int k = graph_.out_begin(v); k < graph_.out_end(v); ++k)
        if (graph_.head_at(k) < n) each(graph_.head_at(k), 1);
    };
    int best = -1;
    anchors(a, [&](NodeId x, int dx) {
      anchors(b, [&](NodeId y, int dy) {
        const int d = dx + dy + part_->hop_distance(x, y);
        if (best < 0 || d < best) best = d;
      });
    });
    return best;
  }
  std::vector<int> dist(num_vertices(), -1);
  std::deque<NodeId> open{a};
  dist[a] = 0;
  while (!open.empty()) {
    const NodeId v = open.front();
    open.pop_front();
    if (v == b) return dist[v];
    for (int i = graph_.out_begin(v); i < graph_.out_end(v); ++i)
      if (dist[graph_.head_at(i)] < 0) dist[graph_.head_at(i)] = dist[v] + 1, open.push_back(graph_.head_at(i));
  }
  return -1;
}

int Network::diameter() const {
  if (torus_) return torus_->diameter();
  if (part_) return part_->diameter();  // the endpoints are the torus's nodes
  if (fat_tree_) return fat_tree_->diameter();
  // The hosts of one dragonfly router have the same distances to every other vertex, so one
  // search per router finds the largest (two hosts of one router are 2 apart, which the search
  // from the first of them sees).
  std::vector<NodeId> sources;
  if (dragonfly_)
    for (NodeId v = 0; v < dragonfly_->num_hosts(); v += dragonfly_->params().nodes) sources.push_back(v);
  int most = 0;
  std::vector<int> dist(num_vertices());
  std::vector<NodeId> open;
  for (NodeId s : dragonfly_ ? sources : endpoints_) {
    std::fill(dist.begin(), dist.end(), -1);
    open.assign(1, s);
    dist[s] = 0;
    for (std::size_t i = 0; i < open.size(); ++i) {
      const NodeId v = open[i];
      for (int k = graph_.out_begin(v); k < graph_.out_end(v); ++k)
        if (dist[graph_.head_at(k)] < 0) dist[graph_.head_at(k)] = dist[v] + 1, open.push_back(graph_.head_at(k));
    }
    for (NodeId t : endpoints_) most = std::max(most, dist[t]);
  }
  return most;
}

}  // namespace optiq
