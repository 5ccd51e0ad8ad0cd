// The fat-tree generator: SimGrid 3.32's FatTreeZone numbering (labels, switch ids, cable
// order and names), computed instead of stored so that a tree of 10^4 hosts builds at once.
#include "optiq/core/fat_tree.hpp"

#include <algorithm>
#include <cmath>

#include "optiq/core/error.hpp"

namespace optiq {

namespace {

std::string joined(const std::vector<int>& v) {
  std::string s;
  for (std::size_t i = 0; i < v.size(); ++i) s += (i ? "," : "") + std::to_string(v[i]);
  return s;
}

}  // namespace

FatTreeShape::FatTreeShape(FatTreeParams params, const std::string& what)
    : params_(std::move(params)), down_(params_.down), up_(params_.up), cables_(params_.cables) {
  const int L = levels();
  if (L < 1) throw Error(what + " needs at least one level of switches");
  if (L > kMaxFatTreeLevels) throw Error(what + " has more than " + std::to_string(kMaxFatTreeLevels) + " levels");
  const char* names[] = {"children", "parents", "parallel cables"};
  const std::vector<int>* vectors[] = {&down_, &up_, &cables_};
  for (int k = 0; k < 3; ++k) {
    if (static_cast<int>(vectors[k]->size()) != L)
      throw Error(what + ": " + std::to_string(L) + " levels but " + std::to_string(vectors[k]->size()) + " " +
                  names[k] + " counts");
    for (int x : *vectors[k])
      if (x < 1) throw Error(what + ": " + names[k] + " counts must be at least 1, got " + std::to_string(x));
  }
  const std::string too_large = what + " is too large (at most " + std::to_string(kMaxVertices) + " vertices and " +
                                std::to_string(kMaxLinks) + " links)";
  // Level sizes: nb[l] = w_0..w_{l-1} * m_l..m_{L-1}. Every factor is at least 1, so a partial
  // product past the limit stays past it: checking each step keeps the arithmetic in range.
  size_.assign(L + 1, 1);
  long long vertices = 0;
  for (int l = 0; l <= L; ++l) {
    long long n = 1;
    for (int i = 0; i < L; ++i) {
      n *= i < l ? up_[i] : down_[i];
      if (n > kMaxVertices) throw Error(too_large);
    }
    size_[l] = static_cast<int>(n);
    vertices += n;
    if (vertices > kMaxVertices) throw Error(too_large);
  }
  num_vertices_ = static_cast<int>(vertices);
  offset_.assign(L + 1, 0);
  for (int l = 2; l <= L; ++l) offset_[l] = offset_[l - 1] + size_[l - 1];
  cable_base_.assign(L + 1, 0);
  for (int l = 0; l < L; ++l) {
    const long long per_node = static_cast<long long>(up_[l]) * cables_[l];
    if (per_node > kMaxLinks) throw Error(too_large);
    const long long total = cable_base_[l] + size_[l] * per_node;
    if (2 * total > kMaxLinks) throw Error(too_large);
    cable_base_[l + 1] = static_cast<int>(total);
  }
  stride_.assign(L + 1, std::vector<int>(L, 1));
  for (int lv = 0; lv <= L; ++lv)
    for (int i = 1; i < L; ++i) stride_[lv][i] = stride_[lv][i - 1] * (i - 1 < lv ? up_[i - 1] : down_[i - 1]);
}

std::string FatTreeShape::topo_parameters() const {
  return std::to_string(levels()) + ";" + joined(down_) + ";" + joined(up_) + ";" + joined(cables_);
}

int FatTreeShape::level(NodeId v) const {
  if (v < num_hosts()) return 0;
  int lv = 1;
  while (lv < levels() && v >= vertex(lv + 1, 0)) ++lv;
  return lv;
}

int FatTreeShape::digit(NodeId v, int i) const {
  const int lv = level(v);
  return digit_at(lv, v - vertex(lv, 0), i);
}

int FatTreeShape::digit_at(int lv, int position, int i) const {
  const int radix = i < lv ? up_[i] : down_[i];
  return (position / stride_[lv][i]) % radix;
}

NodeId FatTreeShape::node_at(int lv, const std::vector<int>& digits) const {
  int p = 0;
  for (int i = 0; i < levels(); ++i) p += digits[i] * stride_[lv][i];
  return vertex(lv, p);
}

bool FatTreeShape::is_ancestor(NodeId sw, NodeId host) const {
  const int lv = level(sw);
  if (lv == 0) return false;
  const int at = sw - vertex(lv, 0);
  for (int i = lv; i < levels(); ++i)
    if (digit_at(lv, at, i) != digit_at(0, host, i)) return false;
  return true;
}

int FatTreeShape::up_ports(NodeId v) const {
  const int l = level(v);
  return l < levels() ? up_[l] * cables_[l] : 0;
}

int FatTreeShape::down_ports(NodeId sw) const {
  const int l = level(sw);
  return l > 0 ? down_[l - 1] * cables_[l - 1] : 0;
}

// SimGrid creates cables node by node (hosts, then switches by level and position), for each
// node its parents in position order (they differ only in digit l, so in that digit's order),
// p_l cables each.
LinkId FatTreeShape::cable_link(int l, int position, int parent_digit, int cable) const {
  const int uid = cable_base_[l] + (position * up_[l] + parent_digit) * cables_[l] + cable;
  return 2 * uid;
}

LinkId FatTreeShape::up_link(NodeId v, int port) const {
  const int l = level(v);
  OPTIQ_CHECK(l < levels() && port >= 0 && port < up_[l] * cables_[l], "no such up port");
  return cable_link(l, position(v), port % up_[l], port / up_[l]);
}

LinkId FatTreeShape::down_link(NodeId sw, int port) const {
  const int l = level(sw) - 1;  // the child's level
  OPTIQ_CHECK(l >= 0 && port >= 0 && port < down_[l] * cables_[l], "no such down port");
  // The child's label is the switch's with digit l the child's place (no allocation: routes
  // ask this at every hop down).
  const int at = sw - vertex(l + 1, 0);
  int child = 0, parent_digit = 0;
  for (int i = 0; i < levels(); ++i) {
    const int d = digit_at(l + 1, at, i);
    if (i == l) parent_digit = d;
    child += (i == l ? port % down_[l] : d) * stride_[l][i];
  }
  return cable_link(l, child, parent_digit, port / down_[l]) + 1;
}

int FatTreeShape::hop_distance(NodeId a, NodeId b) const {
  for (int i = levels() - 1; i >= 0; --i)
    if (digit(a, i) != digit(b, i)) return 2 * (i + 1);
  return 0;
}

int FatTreeShape::diameter() const {
  for (int i = levels() - 1; i >= 0; --i)
    if (down_[i] > 1) return 2 * (i + 1);
  return 0;
}

Network make_fat_tree_network(FatTreeParams params, double link_bandwidth, std::string spec) {
  if (!(link_bandwidth > 0.0) || !std::isfinite(link_bandwidth))
    throw Error("link bandwidth must be a positive, finite number of bytes/s, got " + std::to_string(link_bandwidth));
  auto shape = std::make_shared<FatTreeShape>(std::move(params), "topology '" + spec + "'");
  const FatTreeShape& t = *shape;
  Network::Builder b;
  for (NodeId v = 0; v < t.num_hosts(); ++v) b.add_vertex(VertexKind::Endpoint);
  for (NodeId v = t.num_hosts(); v < t.num_vertices(); ++v)
    b.add_vertex(VertexKind::Switch, "switch" + std::to_string(t.simgrid_id(v)));
  // Cables in SimGrid's order: child by child, parents by digit, cable by cable.
  std::vector<int> digits(t.levels());
  for (int l = 0; l < t.levels(); ++l)
    for (int x = 0; x < t.level_size(l); ++x) {
      const NodeId child = t.vertex(l, x);
      for (int i = 0; i < t.levels(); ++i) digits[i] = t.digit(child, i);
      const int child_digit = digits[l];
      const std::string from = "link_from_" + std::to_string(t.simgrid_id(child)) + "_";
      for (int a = 0; a < t.up(l); ++a) {
        digits[l] = a;
        const NodeId parent = t.node_at(l + 1, digits);
        const std::string name = from + std::to_string(t.simgrid_id(parent)) + "_";
        for (int j = 0; j < t.cables(l); ++j) {
          const LinkId expect = t.up_link(child, j * t.up(l) + a);
          const std::string uid = std::to_string(FatTreeShape::cable_of(expect));
          const LinkId up = b.add_link(child, parent, link_bandwidth, name + uid + "_UP");
          const LinkId down = b.add_link(parent, child, link_bandwidth, name + uid + "_DOWN");
          // Both ends' port numbers lead to this cable: the child's up port, the parent's down port.
          OPTIQ_CHECK(up == expect && down == expect + 1 &&
                          t.down_link(parent, j * t.down(l) + child_digit) == down,
                      "fat-tree cables out of SimGrid's order");
        }
      }
    }
  b.set_fat_tree_hint(std::move(shape));
  return std::move(b).build(std::move(spec), "dmodk");  // plans on every parameter set; "simgrid" is SimGrid's own
}

}  // namespace optiq
