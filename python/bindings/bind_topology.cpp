#include <nanobind/stl/optional.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/unique_ptr.h>
#include <nanobind/stl/vector.h>

#include <optional>

#include "bindings.hpp"
#include "optiq/core/dragonfly.hpp"
#include "optiq/core/error.hpp"
#include "optiq/core/fat_tree.hpp"
#include "optiq/core/routing.hpp"
#include "optiq/core/hostlist.hpp"
#include "optiq/core/network.hpp"

namespace nb = nanobind;
using namespace nb::literals;

namespace optiq::py {

namespace {

NodeId checked_vertex(const Network& n, NodeId v) {
  if (!n.contains(v)) throw Error("no vertex " + std::to_string(v) + " in " + n.spec());
  return v;
}

}  // namespace

void bind_topology(nb::module_& m) {
  nb::class_<TorusShape>(m, "TorusShape", "What a torus or mesh generator knows beside the graph: shape, "
                                          "coordinates and which link leaves each node by each port.")
      .def_prop_ro("dims", &TorusShape::dims)
      .def_prop_ro("sizes", &TorusShape::sizes)
      .def_prop_ro("wrap", [](const TorusShape& t) {
        std::vector<bool> w;
        for (int d = 0; d < t.dims(); ++d) w.push_back(t.wraps(d));
        return w;
      })
      .def_prop_ro("num_nodes", &TorusShape::num_nodes)
      .def("coords", &TorusShape::coords, "node"_a)
      .def("node_at", &TorusShape::node_at, "coords"_a)
      .def("step", &TorusShape::step, "node"_a, "dim"_a, "direction"_a)
      .def("link", &TorusShape::link, "node"_a, "dim"_a, "direction"_a,
           "The link leaving node by port (dim, direction), or -1 when the port leads nowhere.")
      .def("link_dim", &TorusShape::link_dim, "link"_a)
      .def("link_direction", &TorusShape::link_direction, "link"_a)
      .def("port_label", &TorusShape::port_label, "link"_a)
      .def("hop_distance", &TorusShape::hop_distance, "a"_a, "b"_a)
      .def("diameter", &TorusShape::diameter);

  nb::class_<FatTreeShape>(m, "FatTreeShape", "What the fat-tree generator knows beside the graph: SimGrid's "
                                              "FAT_TREE parameters and numbering (include/optiq/core/fat_tree.hpp).")
      .def_prop_ro("topo_parameters", &FatTreeShape::topo_parameters, "SimGrid's topo_parameters, e.g. '2;4,4;1,2;1,2'.")
      .def_prop_ro("levels", &FatTreeShape::levels)
      .def_prop_ro("down", [](const FatTreeShape& t) { return t.params().down; }, "children per switch, by level")
      .def_prop_ro("up", [](const FatTreeShape& t) { return t.params().up; }, "parents per node, by level")
      .def_prop_ro("cables", [](const FatTreeShape& t) { return t.params().cables; }, "parallel cables, by level")
      .def_prop_ro("num_hosts", &FatTreeShape::num_hosts)
      .def("level_size", &FatTreeShape::level_size, "level"_a)
      .def("level", &FatTreeShape::level, "vertex"_a)
      .def("simgrid_id", &FatTreeShape::simgrid_id, "vertex"_a, "The node's id in SimGrid's link names.");

  nb::class_<DragonflyShape>(m, "DragonflyShape", "What the dragonfly generator knows beside the graph: SimGrid's "
                                                  "DRAGONFLY parameters and numbering (include/optiq/core/dragonfly.hpp).")
      .def_prop_ro("topo_parameters", &DragonflyShape::topo_parameters, "SimGrid's topo_parameters, e.g. '3,1;2,1;3,1;2'.")
      .def_prop_ro("groups", [](const DragonflyShape& d) { return d.params().groups; })
      .def_prop_ro("chassis", [](const DragonflyShape& d) { return d.params().chassis; })
      .def_prop_ro("routers", [](const DragonflyShape& d) { return d.params().routers; }, "routers per chassis")
      .def_prop_ro("nodes", [](const DragonflyShape& d) { return d.params().nodes; }, "hosts per router")
      .def_prop_ro("num_hosts", &DragonflyShape::num_hosts)
      .def("place", [](const DragonflyShape& d, NodeId v) {
        const auto p = d.place(v);
        return nb::make_tuple(p.group, p.chassis, p.blade);
      }, "vertex"_a, "(group, chassis, blade) of a router, or of a host's router.");

  nb::class_<Network>(m, "Network", "A directed multigraph of endpoints, switches and I/O nodes joined by links "
                                    "with their own capacities (include/optiq/core/network.hpp).")
      .def_prop_ro("num_vertices", &Network::num_vertices)
      .def_prop_ro("endpoints", &Network::endpoints, "Vertices that host ranks, ascending.")
      .def_prop_ro("num_endpoints", [](const Network& n) { return static_cast<int>(n.endpoints().size()); })
      .def("kind", [](const Network& n, NodeId v) { return std::string(kind_name(n.kind(checked_vertex(n, v)))); },
           "vertex"_a)
      .def("vertex_name", [](const Network& n, NodeId v) { 
             const std::string& name = n.vertex_name(checked_vertex(n, v));
             return name.empty() ? std::to_string(v) : name;
           }, "vertex"_a,
           "The vertex's name: 'io3' for an I/O node, its number where it has none.")
      .def_prop_ro("num_links", &Network::num_links)
      .def("link_src", &Network::link_src, "link"_a)
      .def("link_dst", &Network::link_dst, "link"_a)
      .def("capacity", &Network::capacity, "link"_a)
      .def_prop_ro("capacities", &Network::capacities)
      .def("with_capacities", &Network::with_capacities, "capacities"_a,
           "The same network (same digest: plans stay executable on it) with these link capacities in bytes/s, "
           "one per link; e.g. what is left of each link beside known background traffic.")
      .def("with_forwarders", &Network::with_forwarders, "endpoints"_a,
           "The same network (same digest) where only these endpoints forward in software: a job planned "
           "inside its own allocation of a shared machine. Every planner, bound and the validator then keep "
           "copies to them.")
      .def("may_forward", [](const Network& n, NodeId v) { return n.may_forward(checked_vertex(n, v)); }, "vertex"_a)
      .def_prop_ro("forwarding_restricted", &Network::forwarding_restricted,
                   "True when with_forwarders restricted which endpoints forward.")
      .def_prop_ro("hosts_named", &Network::hosts_named,
                   "True when endpoint names are host names (imported networks): ranks are placed by them.")
      .def("endpoint_named", &Network::endpoint_named, "host"_a, "The endpoint a host name names, or -1.")
      .def_prop_ro("link_bandwidth", [](const Network& n) {
        for (double c : n.capacities())
          if (c != n.capacities().front())
            throw Error("the links of " + n.spec() + " differ in capacity; there is no single link bandwidth");
        return n.num_links() ? n.capacities().front() : kBgqLinkBandwidth;
      }, "The capacity every link has (an error when capacities differ).")
      .def("link_name", &Network::link_name, "link"_a)
      .def("link_named", &Network::link_named, "name"_a, "The link with that name, or -1.")
      .def("out_links", [](const Network& n, NodeId v) {
        std::vector<LinkId> out;
        for (int i = n.graph().out_begin(v); i < n.graph().out_end(v); ++i) out.push_back(n.graph().arc_at(i));
        return out;
      }, "node"_a, "Links leaving a vertex, ascending id.")
      .def_prop_ro("spec", &Network::spec)
      .def_prop_ro("default_routing", &Network::default_routing)
      .def_prop_ro("digest", &Network::digest)
      .def_prop_ro("torus", [](const Network& n) { return n.torus(); }, nb::rv_policy::reference_internal,
                   "The torus hint (TorusShape), or None.")
      .def_prop_ro("fat_tree", [](const Network& n) { return n.fat_tree(); }, nb::rv_policy::reference_internal,
                   "The fat-tree hint (FatTreeShape), or None.")
      .def_prop_ro("dragonfly", [](const Network& n) { return n.dragonfly(); }, nb::rv_policy::reference_internal,
                   "The dragonfly hint (DragonflyShape), or None.")
      .def("hop_distance", &Network::hop_distance, "a"_a, "b"_a)
      .def("diameter", &Network::diameter)
      .def("__repr__", [](const Network& t) { return "<optiq.Network " + t.spec() + ">"; });

  // BG/Q's I/O side (network.hpp): psets of PSET_NODES consecutive nodes, bridges at BRIDGE_OFFSETS.
  m.attr("PSET_NODES") = kPsetNodes;
  m.attr("BRIDGE_OFFSETS") = nb::make_tuple(kBridgeOffsets[0], kBridgeOffsets[1]);
  m.def("parse_network", &parse_network, "spec"_a, "link_bandwidth"_a = kBgqLinkBandwidth,
        "Parse 'bgq:4x4x4x8x2', 'mira:1024[+io]', 'torus:8x8x8', 'mesh:4x4', 'fattree:2;4,4;1,2;1,2', "
        "'dragonfly:3,1;2,1;3,1;2' (SimGrid's topo_parameters) or 'graph:FILE'.");
  m.def("parse_graph_network", &parse_graph_network, "text"_a, "origin"_a, "spec"_a,
        "A network from graph-file text (docs/graph-format.md); origin names it in errors.");

  nb::class_<RoutingModel>(m, "RoutingModel", "The network's own deterministic route for a pair.")
      .def_prop_ro("name", &RoutingModel::name)
      .def("route", &RoutingModel::route, "src"_a, "dst"_a);
  m.def("make_routing", &make_routing, "name"_a, "network"_a, nb::keep_alive<0, 2>(),
        "Routing model by name ('bgq', 'dor', 'simgrid', 'dmodk', 'minimal', 'shortest', 'table') for a network.");
  m.def("routing_names", &routing_names);
  m.def("expand_hostlist", [](const std::string& expr) { return expand_hostlist(expr, "host list"); }, "expr"_a,
        "The names a Slurm host list stands for, e.g. 'n[01-03],login' -> ['n01', 'n02', 'n03', 'login'].");
  m.def(
      "network_to_graph_json",
      [](const Network& net, const RoutingModel* routing) { return network_to_graph_json(net, routing); }, "network"_a,
      "routing"_a = nb::none(),
      "The network as graph-file text, with routing's routes as a forwarding table when given.");
  m.def("bgq_dimension_order", &bgq_dimension_order, "sizes"_a);
}

}  // namespace optiq::py
