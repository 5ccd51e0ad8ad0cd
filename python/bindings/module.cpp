#include "bindings.hpp"

#include "optiq/error.hpp"

NB_MODULE(_core, m) {
  m.doc() = "optiq planning core (C++): topology, routing, patterns, paths, planners, metrics, plan files";
  // Bad user input surfaces as optiq.Error, a ValueError; front ends turn it into exit status 2.
  nanobind::exception<optiq::Error>(m, "Error", PyExc_ValueError);
  optiq::py::bind_topology(m);
  optiq::py::bind_pattern(m);
  optiq::py::bind_plan(m);
}
