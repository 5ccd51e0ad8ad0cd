// Topology specs (parse_network) and the routing models on what they describe. Beyond not
// crashing: a spec is within the size limits, its canonical form reads back to the same
// network (digest included), coordinates, ports, links and names agree with each other, and
// every model's default route is a chain of existing links and a shortest path.
#include <cstdint>
#include <optional>
#include <string>

#include "invariant.hpp"
#include "optiq/error.hpp"
#include "optiq/routing.hpp"
#include "optiq/network.hpp"

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

}  // namespace

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
  if (nodes > 4096 && nodes <= static_cast<double>(kMaxVertices)) return 0;
  std::optional<Network> parsed;
  try {
    parsed.emplace(parse_network(spec));
  } catch (const Error&) {
    return 0;
  }
  const Network& t = *parsed;
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
    if (name == "table") continue;  // a torus spec carries no forwarding table
    const auto r = make_routing(name, t);
    check_route(t, *r, 0, last);
    check_route(t, *r, last / 3, last / 2);
    check_route(t, *r, last, last / 3);
  }
  return 0;
}
