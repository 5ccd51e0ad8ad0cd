#include <cmath>

#include <nanobind/stl/function.h>
#include <nanobind/stl/map.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include "bindings.hpp"
#include "optiq/core/error.hpp"
#include "optiq/core/fallback.hpp"
#include "optiq/core/mcf.hpp"
#include "optiq/core/metrics.hpp"
#include "optiq/core/plan_io.hpp"
#include "optiq/core/planner.hpp"

namespace nb = nanobind;
using namespace nb::literals;

namespace optiq::py {

void bind_plan(nb::module_& m) {
  nb::class_<PathShare>(m, "PathShare", "A path (link ids) and the bytes it carries.")
      .def(nb::init<>())
      .def("__init__", [](PathShare* p, LinkPath links, Bytes bytes) { new (p) PathShare{std::move(links), bytes}; },
           "links"_a, "bytes"_a)
      .def_rw("links", &PathShare::links)
      .def_rw("bytes", &PathShare::bytes);
  nb::class_<JobPlan>(m, "JobPlan")
      .def(nb::init<>())
      .def("__init__", [](JobPlan* p, Job job, std::vector<PathShare> paths) { new (p) JobPlan{job, std::move(paths)}; },
           "job"_a, "paths"_a)
      .def_rw("job", &JobPlan::job)
      .def_rw("paths", &JobPlan::paths);
  nb::class_<Plan>(m, "Plan", "Per job, the paths its bytes take.")
      .def(nb::init<>())
      .def("__init__",
           [](Plan* p, std::string topology, std::string routing, std::string planner, std::vector<JobPlan> jobs) {
             new (p) Plan{std::move(topology), std::move(routing), std::move(planner), std::move(jobs)};
           },
           "topology"_a, "routing"_a, "planner"_a, "jobs"_a)
      .def_rw("topology", &Plan::topology)
      .def_rw("routing", &Plan::routing)
      .def_rw("planner", &Plan::planner)
      .def_rw("jobs", &Plan::jobs)
      .def_prop_rw(
          "seconds", [](const Plan& p) { return p.seconds; },
          [](Plan& p, double s) {
            if (!(s >= 0) || !std::isfinite(s)) throw optiq::Error("a plan's seconds must be finite and at least 0");
            p.seconds = s;
          },
          "The time the plan promises (its predicted time; 0: unstated). Plan files carry it and "
          "the runtime paces the plan's paths to it.");

  m.def("validate_plan", &validate_plan, "plan"_a, "topology"_a, "Raise optiq.Error on the first defect.");
  m.def("split_evenly", &split_evenly, "bytes"_a, "parts"_a);

  nb::class_<Metrics>(m, "Metrics")
      .def_ro("paths", &Metrics::paths)
      .def_ro("paths_per_job_max", &Metrics::paths_per_job_max)
      .def_ro("paths_per_job_avg", &Metrics::paths_per_job_avg)
      .def_ro("paths_per_link_max", &Metrics::paths_per_link_max)
      .def_ro("paths_per_link_avg", &Metrics::paths_per_link_avg)
      .def_ro("links_used", &Metrics::links_used)
      .def_ro("link_bytes_max", &Metrics::link_bytes_max)
      .def_ro("hops_max", &Metrics::hops_max)
      .def_ro("hops_avg", &Metrics::hops_avg)
      .def_ro("total_bytes", &Metrics::total_bytes)
      .def_ro("predicted_seconds", &Metrics::predicted_seconds)
      .def_ro("predicted_throughput", &Metrics::predicted_throughput);
  m.def("compute_metrics", &compute_metrics, "plan"_a, "topology"_a);
  m.def("plan_gains_enough", &plan_gains_enough, "plan_seconds"_a, "default_seconds"_a, "min_gain"_a,
        "True when a plan predicted to take plan_seconds should run rather than the default route "
        "(include/optiq/core/fallback.hpp).");
  m.def("copy_loads", &copy_loads, "plan"_a, "topology"_a,
        "Bytes each vertex copies running the plan with a rank on every endpoint (its junctions).");
  m.def("link_loads", &link_loads, "plan"_a, "topology"_a, "Bytes on every link (index = link id).");
  m.def("preloaded_seconds", &preloaded_seconds, "plan"_a, "topology"_a, "preload"_a,
        "The plan's fluid time behind bytes already on the links: max over links of (preload + plan bytes) / "
        "capacity ([] for no preload).");
  m.def("link_path_counts", &link_path_counts, "plan"_a, "topology"_a);

  m.def("plan_to_json", &plan_to_json, "plan"_a, "topology"_a);
  m.def("plan_from_json", &plan_from_json, "text"_a, "origin"_a = "plan");
  m.def("load_plan", &load_plan, "path"_a);
  m.def("save_plan", &save_plan, "plan"_a, "topology"_a, "path"_a);

  nb::class_<PlanResult>(m, "PlanResult",
                         "A planner's plan and, for the planners that prove one, a lower bound on any plan's "
                         "fluid time (bounded).")
      .def_ro("plan", &PlanResult::plan)
      .def_ro("bounded", &PlanResult::bounded)
      .def_ro("bound_seconds", &PlanResult::bound_seconds)
      .def_ro("plan_seconds", &PlanResult::plan_seconds)
      .def_ro("extras", &PlanResult::extras)
      .def_prop_ro("gap", &PlanResult::gap);
  m.def("split_by_shares", &split_by_shares, "bytes"_a, "shares"_a);
  m.def("merge_small_parts", &merge_small_parts, "parts"_a, "min_bytes"_a);
  m.def("planner_names", &planner_names);
  m.def("planner_needs_candidates", &planner_needs_candidates, "name"_a);
  m.def("make_plan", &make_plan, "name"_a, "topology"_a, "routing"_a, "jobs"_a, "options"_a = PlannerOptions(),
        "candidates"_a = nb::none(),
        "Run a core planner by name (planner_names()) with one PlannerOptions; returns a PlanResult.");
  m.def("relay_vertices", &relay_vertices, "topology"_a, "links"_a,
        "The vertices of a path that relay its bytes in software: every inner vertex but switches.");
  m.def("relay_loads", &relay_loads, "plan"_a, "topology"_a, "Bytes every vertex relays (index = vertex id).");
}

}  // namespace optiq::py
