#include <nanobind/stl/function.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include "bindings.hpp"
#include "optiq/core/error.hpp"
#include "optiq/core/options.hpp"

namespace nb = nanobind;
using namespace nb::literals;

namespace optiq::py {

namespace {

const char* kind_name(OptionKind k) {
  switch (k) {
    case OptionKind::integer: return "integer";
    case OptionKind::real: return "real";
    case OptionKind::bytes: return "bytes";
    case OptionKind::choice: return "choice";
    case OptionKind::text: return "text";
    case OptionKind::flag: return "flag";
  }
  return "";
}

}  // namespace

void bind_options(nb::module_& m) {
  nb::class_<OptionRecord>(m, "OptionRecord",
                           "One option of one layer: name, kind, range, default and description "
                           "(include/optiq/core/options.hpp).")
      .def_ro("name", &OptionRecord::name)
      .def_prop_ro("kind", [](const OptionRecord& r) { return kind_name(r.kind); })
      .def_ro("default", &OptionRecord::default_value)
      .def_ro("help", &OptionRecord::help)
      .def_ro("lo", &OptionRecord::lo)
      .def_ro("hi", &OptionRecord::hi)
      .def_ro("lo_open", &OptionRecord::lo_open)
      .def_ro("hi_open", &OptionRecord::hi_open)
      .def_ro("special", &OptionRecord::special)
      .def_ro("special_help", &OptionRecord::special_help)
      .def_ro("choices", &OptionRecord::choices)
      .def_ro("field", &OptionRecord::field)
      .def_prop_ro("environment_name", &OptionRecord::environment_name)
      .def("__repr__", [](const OptionRecord& r) { return "<OptionRecord " + r.name + "=" + r.default_value + ">"; });
  m.def("option_layers", &option_layers);
  m.def("option_records", &option_records, "layer"_a, nb::rv_policy::copy,
        "The records of a layer: 'planner', 'runtime', 'io' or 'simulation'.");
  m.def("option_record", &option_record, "layer"_a, "name"_a, nb::rv_policy::copy);
  m.def(
      "option_number",
      [](const std::string& layer, const std::string& name, const std::string& text) {
        return option_number(option_record(layer, name), text);
      },
      "layer"_a, "name"_a, "text"_a,
      "The value of `text` for the option as a number (choices: their index; flags: 1 or 0), or optiq.Error "
      "saying why it is not one.");
  m.def("option_default", &option_default, "layer"_a, "name"_a, "The record's default as a number.");

  nb::class_<PlannerOptions>(m, "PlannerOptions",
                             "Every planner's options, at their records' defaults (option_records('planner')).")
      .def(
          "__init__",
          [](PlannerOptions* o, nb::kwargs values) {
            new (o) PlannerOptions();
            for (auto [key, value] : values) {
              std::string name = nb::cast<std::string>(key);
              if (value.is_none()) continue;  // None: the option's default
              if (name == "progress") {
                o->progress = nb::cast<Progress>(value);
                continue;
              }
              for (char& c : name) c = c == '_' ? '-' : c;
              try {
                set_option(*o, name, nb::cast<std::string>(nb::str(value)));  // checked by the record
              } catch (const Error& e) {
                throw Error(name + ": " + e.what());
              }
            }
          },
          "Options at their defaults, with the given ones set and checked: PlannerOptions(k=12, min_path_bytes=1).")
      .def_rw("k", &PlannerOptions::k)
      .def_rw("hop_bound", &PlannerOptions::hop_bound)
      .def_rw("maxload", &PlannerOptions::maxload)
      .def_rw("heu2_chunk", &PlannerOptions::heu2_chunk)
      .def_rw("epsilon", &PlannerOptions::epsilon)
      .def_rw("mcf_iterations", &PlannerOptions::mcf_iterations)
      .def_rw("gap", &PlannerOptions::gap)
      .def_rw("lp_iterations", &PlannerOptions::lp_iterations)
      .def_rw("min_path_bytes", &PlannerOptions::min_path_bytes)
      .def_rw("max_paths", &PlannerOptions::max_paths)
      .def_rw("max_proxies", &PlannerOptions::max_proxies)
      .def_rw("forward_bandwidth", &PlannerOptions::forward_bandwidth)
      .def_rw("progress", &PlannerOptions::progress)
      .def_rw("link_preload", &PlannerOptions::link_preload,
              "Bytes per link (index = link id) that more urgent classes put ahead of this plan; [] for none.")
      .def_rw("prove_bound", &PlannerOptions::prove_bound,
              "mcf: where its own bounds stop short of epsilon on a fat-tree, prove a sharper one (the plan is "
              "the same either way).")
      .def(
          "set", [](PlannerOptions& o, const std::string& name, const std::string& text) { set_option(o, name, text); },
          "name"_a, "text"_a, "Set an option by record name from text, checked by its record.")
      .def(
          "get", [](const PlannerOptions& o, const std::string& name) { return get_option(o, name); }, "name"_a,
          "An option's value as text.")
      .def("check", &check_planner_options, "Raise optiq.Error naming the first option out of its range.")
      .def("copy", [](const PlannerOptions& o) { return PlannerOptions(o); });
}

}  // namespace optiq::py
