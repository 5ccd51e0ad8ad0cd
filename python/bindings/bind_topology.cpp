#include <nanobind/stl/string.h>
#include <nanobind/stl/unique_ptr.h>
#include <nanobind/stl/vector.h>

#include "bindings.hpp"
#include "optiq/routing.hpp"
#include "optiq/topology.hpp"

namespace nb = nanobind;
using namespace nb::literals;

namespace optiq::py {

void bind_topology(nb::module_& m) {
  nb::class_<Topology>(m, "Topology", "N-dimensional torus/mesh whose links are ports (id = node*2n + 2*dim + dir).")
      .def(nb::init<std::vector<int>, std::vector<bool>, double, std::string, std::string>(), "sizes"_a, "wrap"_a,
           "link_bandwidth"_a = kBgqLinkBandwidth, "spec"_a = "", "default_routing"_a = "dor")
      .def_prop_ro("dims", &Topology::dims)
      .def_prop_ro("sizes", &Topology::sizes)
      .def_prop_ro("wrap", [](const Topology& t) {
        std::vector<bool> w;
        for (int d = 0; d < t.dims(); ++d) w.push_back(t.wraps(d));
        return w;
      })
      .def_prop_ro("num_nodes", &Topology::num_nodes)
      .def_prop_ro("num_links", &Topology::num_links, "Number of existing links.")
      .def_prop_ro("num_link_slots", &Topology::num_link_slots, "Size of the link id space (nodes * 2 * dims).")
      .def_prop_ro("link_bandwidth", &Topology::link_bandwidth)
      .def_prop_ro("spec", &Topology::spec)
      .def_prop_ro("default_routing", &Topology::default_routing)
      .def("coords", &Topology::coords, "node"_a)
      .def("node_at", &Topology::node_at, "coords"_a)
      .def("link", &Topology::link, "node"_a, "dim"_a, "direction"_a)
      .def("link_exists", &Topology::link_exists, "link"_a)
      .def("link_src", &Topology::link_src, "link"_a)
      .def("link_dst", &Topology::link_dst, "link"_a)
      .def("link_dim", &Topology::link_dim, "link"_a)
      .def("link_direction", &Topology::link_direction, "link"_a)
      .def("port_label", &Topology::port_label, "link"_a)
      .def("capacity", &Topology::capacity, "link"_a)
      .def("out_links", &Topology::out_links, "node"_a)
      .def("neighbors", &Topology::neighbors, "node"_a)
      .def("hop_distance", &Topology::hop_distance, "a"_a, "b"_a)
      .def("diameter", &Topology::diameter)
      .def("__repr__", [](const Topology& t) { return "<optiq.Topology " + t.spec() + ">"; });

  m.def("parse_topology", &parse_topology, "spec"_a, "link_bandwidth"_a = kBgqLinkBandwidth,
        "Parse 'bgq:4x4x4x8x2', 'mira:1024', 'torus:8x8x8' or 'mesh:4x4'.");

  nb::class_<RoutingModel>(m, "RoutingModel", "The network's own deterministic route for a pair.")
      .def_prop_ro("name", &RoutingModel::name)
      .def("route", &RoutingModel::route, "src"_a, "dst"_a);
  m.def("make_routing", &make_routing, "name"_a, "topology"_a, nb::keep_alive<0, 2>(),
        "Routing model by name ('bgq', 'dor') for a topology.");
  m.def("routing_names", &routing_names);
  m.def("bgq_dimension_order", &bgq_dimension_order, "sizes"_a);
}

}  // namespace optiq::py
