// The dragonfly generator: SimGrid 3.32's DragonflyZone numbering (routers, link order, names and
// bandwidths), computed instead of stored.
#include "optiq/core/dragonfly.hpp"

#include <algorithm>
#include <cmath>

#include "optiq/core/error.hpp"

namespace optiq {

DragonflyShape::DragonflyShape(DragonflyParams params, const std::string& what) : p_(params) {
  const std::pair<const char*, int> values[] = {{"groups", p_.groups},   {"blue cables", p_.blue},
                                                {"chassis", p_.chassis}, {"black cables", p_.black},
                                                {"routers", p_.routers}, {"green cables", p_.green},
                                                {"hosts per router", p_.nodes}};
  for (const auto& [name, x] : values)
    if (x < 1) throw Error(what + ": the number of " + name + " must be at least 1, got " + std::to_string(x));
  if (p_.groups > p_.routers)
    throw Error(what + ": " + std::to_string(p_.groups) + " groups but " + std::to_string(p_.routers) +
                " routers per chassis; SimGrid attaches the link to group j to router j of chassis 0, so a "
                "dragonfly needs at least as many routers per chassis as groups");
  const std::string too_large = what + " is too large (at most " + std::to_string(kMaxVertices) + " vertices and " +
                                std::to_string(kMaxLinks) + " links)";
  // Each value is below 2^31 and each product is checked before it grows further.
  const long long routers = static_cast<long long>(p_.groups) * p_.chassis;
  if (routers > kMaxVertices || routers * p_.routers > kMaxVertices) throw Error(too_large);
  const long long r = routers * p_.routers;
  if (r * p_.nodes + r > kMaxVertices) throw Error(too_large);
  const long long hosts = r * p_.nodes;
  const long long green = static_cast<long long>(p_.groups) * p_.chassis * pairs(p_.routers);
  const long long black = static_cast<long long>(p_.groups) * p_.routers * pairs(p_.chassis);
  const long long cables = hosts + green + black + pairs(p_.groups);
  if (2 * cables > kMaxLinks) throw Error(too_large);
  green_base_ = static_cast<int>(hosts);
  black_base_ = static_cast<int>(hosts + green);
  blue_base_ = static_cast<int>(hosts + green + black);
  num_cables_ = static_cast<int>(cables);
}

std::string DragonflyShape::topo_parameters() const {
  auto pair = [](int a, int b) { return std::to_string(a) + "," + std::to_string(b); };
  return pair(p_.groups, p_.blue) + ";" + pair(p_.chassis, p_.black) + ";" + pair(p_.routers, p_.green) + ";" +
         std::to_string(p_.nodes);
}

DragonflyShape::Place DragonflyShape::place(NodeId v) const {
  const int r = is_router(v) ? v - num_hosts() : v / p_.nodes;
  return {r / (p_.chassis * p_.routers), (r / p_.routers) % p_.chassis, r % p_.routers};
}

Network make_dragonfly_network(DragonflyParams params, double link_bandwidth, std::string spec) {
  if (!(link_bandwidth > 0.0) || !std::isfinite(link_bandwidth))
    throw Error("link bandwidth must be a positive, finite number of bytes/s, got " + std::to_string(link_bandwidth));
  auto shape = std::make_shared<DragonflyShape>(params, "topology '" + spec + "'");
  const DragonflyShape& t = *shape;
  const DragonflyParams& p = t.params();
  Network::Builder b;
  for (NodeId v = 0; v < t.num_hosts(); ++v) b.add_vertex(VertexKind::Endpoint);
  for (int r = 0; r < t.num_routers(); ++r) b.add_vertex(VertexKind::Switch, "router" + std::to_string(r));
  int uid = 0;
  // One pair of links per SimGrid link, in SimGrid's order, the counter running through all blocks.
  auto add_pair = [&](NodeId lo, NodeId hi, double capacity, const std::string& name, LinkId expect) {
    const std::string id = name + "_" + std::to_string(uid++);
    const LinkId up = b.add_link(lo, hi, capacity, id + "_UP");
    const LinkId down = b.add_link(hi, lo, capacity, id + "_DOWN");
    OPTIQ_CHECK(up == expect && down == expect + 1, "dragonfly links out of SimGrid's order");
  };
  auto s = [](long long x) { return std::to_string(x); };
  for (int r = 0; r < t.num_routers(); ++r)
    for (int j = 0; j < p.nodes; ++j) {
      const NodeId host = r * p.nodes + j;
      add_pair(host, t.num_hosts() + r, link_bandwidth, "local_link_from_router_" + s(r) + "_to_node_" + s(j),
               t.local_up(host));
    }
  const double green = link_bandwidth * p.green, black = link_bandwidth * p.black, blue = link_bandwidth * p.blue;
  for (int g = 0; g < p.groups; ++g)
    for (int c = 0; c < p.chassis; ++c)
      for (int j = 0; j < p.routers; ++j)
        for (int k = j + 1; k < p.routers; ++k)
          add_pair(t.router(g, c, j), t.router(g, c, k), green,
                   "green_link_in_chassis_" + s(c) + "_between_routers_" + s(j) + "_and_" + s(k), t.green(g, c, j, k));
  for (int g = 0; g < p.groups; ++g)
    for (int j = 0; j < p.chassis; ++j)
      for (int k = j + 1; k < p.chassis; ++k)
        for (int l = 0; l < p.routers; ++l)
          add_pair(t.router(g, j, l), t.router(g, k, l), black,
                   "black_link_in_group_" + s(g) + "_between_chassis_" + s(j) + "_and_" + s(k) + "_blade_" + s(l),
                   t.black(g, j, k, l));
  // SimGrid's router numbers i*C*B + j and j*C*B + i: blade j and blade i of chassis 0, since
  // there are no more groups than blades.
  for (int i = 0; i < p.groups; ++i)
    for (int j = i + 1; j < p.groups; ++j)
      add_pair(t.router(i, 0, j), t.router(j, 0, i), blue,
               "blue_link_between_group_" + s(i) + "_and_" + s(j) + "_routers_" + s(t.router_index(i, 0, j)) + "_and_" +
                   s(t.router_index(j, 0, i)),
               t.blue(i, j));
  b.set_dragonfly_hint(std::move(shape));
  return std::move(b).build(std::move(spec), "minimal");  // plans on every parameter set; "simgrid" is SimGrid's own
}

}  // namespace optiq
