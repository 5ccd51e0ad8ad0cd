#pragma once

#include <nanobind/nanobind.h>

namespace optiq::py {
void bind_topology(nanobind::module_& m);
void bind_pattern(nanobind::module_& m);
void bind_plan(nanobind::module_& m);
void bind_io(nanobind::module_& m);
void bind_options(nanobind::module_& m);
}  // namespace optiq::py
