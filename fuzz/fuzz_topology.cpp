// Topology specs (parse_network) and the routing models on what they describe. Beyond not
// crashing: a spec is within the size limits, its canonical form reads back to the same
// network (digest included), coordinates, ports, links and names agree with each other, and
// every model's default route is a chain of existing links and a shortest path (on a dragonfly
// SimGrid's own routes within a group may not be one: there only their ends are checked).
#include <cstdint>
#include <optional>
#include <string>

#include "invariant.hpp"
#include "optiq/core/dragonfly.hpp"
#include "optiq/core/error.hpp"
#include "optiq/core/fat_tree.hpp"
#include "optiq/core/routing.hpp"
#include "optiq/core/network.hpp"

using namespace optiq;

namespace {

void check_node(const Network& t, NodeId n) {
  const TorusShape& s = *t.torus();
  FUZZ_CHECK(s.node_at(s.coords(n)) == n, "node %d", n);
  for (int i = t.graph().out_begin(n); i < t.graph().out_end(n); ++i) {
    const LinkId l = t.graph().arc_at(i);
    FUZZ_CHECK(t.has_link(l) && t.link_src(l) == n, "link %d of node %d", l, n);
    FUZZ_CHECK(t.contains(t.link_dst(l)), "link %d leads outside", l);
    FUZZ_CHECK(s.link(n, s.link_dim(l), s.link_direction(l)) == l, "port %s of node %d", s.port_label(l).c_str(), n);
    FUZZ_CHECK(t.link_named(t.link_name(l)) == l, "link name %s", t.link_name(l).c_str());
    FUZZ_CHECK(t.hop_distance(n, t.link_dst(l)) == 1, "link %d is not one hop", l);
  }
}

void check_route(const Network& t, const RoutingModel& r, NodeId a, NodeId b) {
  const LinkPath path = r.route(a, b);
  NodeId at = a;
  for (LinkId l : path) {
    FUZZ_CHECK(t.has_link(l) && t.link_src(l) == at, "%s route %d->%d breaks at node %d", r.name().c_str(), a, b, at);
    at = t.link_dst(l);
  }
  FUZZ_CHECK(at == b, "%s route %d->%d ends at %d", r.name().c_str(), a, b, at);
  FUZZ_CHECK(static_cast<int>(path.size()) == t.hop_distance(a, b), "%s route %d->%d: %zu hops, distance %d",
             r.name().c_str(), a, b, path.size(), t.hop_distance(a, b));
}

// Fat-trees and dragonflies: hosts first, every name found again, and each model that applies
// routes between hosts along shortest paths.
void check_fabric(const Network& t, const std::string& spec) {
  const bool tree = t.fat_tree() != nullptr;
  const int hosts = tree ? t.fat_tree()->num_hosts() : t.dragonfly()->num_hosts();
  FUZZ_CHECK(static_cast<int>(t.endpoints().size()) == hosts && t.endpoints().back() == hosts - 1,
             "'%s': hosts are not the first vertices", spec.c_str());
  for (LinkId l : {0, t.num_links() / 3, t.num_links() - 1})
    FUZZ_CHECK(t.link_named(t.link_name(l)) == l, "link name %s", t.link_name(l).c_str());
  const NodeId last = hosts - 1;
  const NodeId pairs[][2] = {{0, last}, {last, 0}, {last / 3, last / 2}, {last / 2, last / 3}};
  for (const char* name : {"simgrid", tree ? "dmodk" : "minimal"}) {
    const auto r = make_routing(name, t);
    for (const auto& p : pairs) {
      if (p[0] == p[1]) continue;
      const LinkPath path = r->route(p[0], p[1]);
      FUZZ_CHECK(!path.empty() && t.link_src(path.front()) == p[0] && t.link_dst(path.back()) == p[1],
                 "%s route %d->%d does not join its ends", name, p[0], p[1]);
      if (!tree && std::string(name) == "simgrid") continue;
      check_route(t, *r, p[0], p[1]);
    }
  }
}

}  // namespace

// For a fat-tree or dragonfly spec whose parameters read and fit the limits: whether it is
// larger than a fuzzing run should build (its numbers' product says little: a fat-tree of 12
// hosts with 10^5 parallel cables has millions of links). Nothing for any other spec, or when
// the parameters are refused (which parse_network must then do too).
std::optional<bool> too_large_fabric(const std::string& spec) {
  try {
    const auto colon = spec.find(':');
    const std::string kind = spec.substr(0, colon), text = colon == std::string::npos ? "" : spec.substr(colon + 1);
    if (kind == "fattree") {
      const FatTreeShape shape(parse_fat_tree_params(text, spec));
      return shape.num_vertices() > 2048 || shape.num_links() > (1 << 14);
    }
    if (kind == "dragonfly") {
      const DragonflyShape shape(parse_dragonfly_params(text, spec));
      return shape.num_vertices() > 2048 || shape.num_links() > (1 << 14);
    }
  } catch (const Error&) {
  }
  return std::nullopt;
}

// The product of the spec's numbers: its node count when it is a valid torus or Mira spec.
double numbers_product(const std::string& spec) {
  double product = 1, number = 0;
  bool in_number = false;
  for (char c : spec + ' ') {
    if (c >= '0' && c <= '9') {
      number = number * 10 + (c - '0');
      in_number = true;
    } else if (in_number) {
      product *= number, number = 0, in_number = false;
    }
  }
  return product;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string spec(reinterpret_cast<const char*>(data), size);
  // Building a network of millions of nodes takes seconds under the sanitizers and teaches the
  // parser nothing a small one does not; specs beyond the limits still run (and are refused
  // while the spec is read, before anything is built).
  const double nodes = numbers_product(spec);
  if (nodes > 4096 && nodes <= static_cast<double>(kMaxVertices) && !too_large_fabric(spec).has_value()) return 0;
  if (too_large_fabric(spec).value_or(false)) return 0;
  std::optional<Network> parsed;
  try {
    parsed.emplace(parse_network(spec));
  } catch (const Error&) {
    return 0;
  }
  const Network& t = *parsed;
  if (!t.torus() && t.torus_part()) {  // BG/Q with its I/O side: I/O nodes beside the torus
    const Network again = parse_network(t.spec());
    FUZZ_CHECK(again.spec() == t.spec() && again.digest() == t.digest(), "'%s' reads back from '%s' as '%s'",
               spec.c_str(), t.spec().c_str(), again.spec().c_str());
    const auto r = make_routing("bgq", t);
    const NodeId io = t.num_vertices() - 1;
    check_route(t, *r, 0, io);
    check_route(t, *r, io, t.torus_part()->num_nodes() / 2);
    return 0;
  }
  if (t.fat_tree() || t.dragonfly()) {
    const Network again = parse_network(t.spec());
    FUZZ_CHECK(again.spec() == t.spec() && again.digest() == t.digest(), "'%s' reads back from '%s' as '%s'",
               spec.c_str(), t.spec().c_str(), again.spec().c_str());
    check_fabric(t, spec);
    return 0;
  }
  FUZZ_CHECK(t.torus() && t.num_vertices() >= 1 && t.num_vertices() <= kMaxVertices && t.num_links() <= kMaxLinks &&
                 t.torus()->num_nodes() == t.num_vertices(),
             "'%s' is %d nodes", spec.c_str(), t.num_vertices());
  const Network again = parse_network(t.spec());
  FUZZ_CHECK(again.spec() == t.spec() && again.torus()->sizes() == t.torus()->sizes() &&
                 again.default_routing() == t.default_routing() && again.digest() == t.digest(),
             "'%s' reads back from '%s' as '%s'", spec.c_str(), t.spec().c_str(), again.spec().c_str());
  for (int d = 0; d < t.torus()->dims(); ++d)
    FUZZ_CHECK(again.torus()->wraps(d) == t.torus()->wraps(d), "dimension %d of '%s'", d, spec.c_str());
  const NodeId last = t.num_vertices() - 1;
  for (NodeId n : {0, last, last / 2, last / 3}) check_node(t, n);
  // A route is as long as the topology is wide: on a line of 2^22 nodes nine routes took 10 s
  // per input under the sanitizers, and taught the search nothing the short ones do not.
  if (t.diameter() > 4096) return 0;
  for (const std::string& name : routing_names()) {
    // A torus spec carries no forwarding table, and the fat-tree and dragonfly models need theirs.
    if (name == "table" || name == "dmodk" || name == "minimal") continue;
    const auto r = make_routing(name, t);
    check_route(t, *r, 0, last);
    check_route(t, *r, last / 3, last / 2);
    check_route(t, *r, last, last / 3);
  }
  return 0;
}
