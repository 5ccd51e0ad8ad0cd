#include <cmath>

#include <nanobind/stl/function.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include "bindings.hpp"
#include "optiq/error.hpp"
#include "optiq/fallback.hpp"
#include "optiq/mcf.hpp"
#include "optiq/metrics.hpp"
#include "optiq/plan_io.hpp"
#include "optiq/planner.hpp"

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
  m.attr("DEFAULT_MIN_GAIN") = kDefaultMinGain;
  m.def("plan_gains_enough", &plan_gains_enough, "plan_seconds"_a, "default_seconds"_a, "min_gain"_a,
        "True when a plan predicted to take plan_seconds should run rather than the default route "
        "(include/optiq/fallback.hpp).");
  m.def("copy_loads", &copy_loads, "plan"_a, "topology"_a,
        "Bytes each vertex copies running the plan with a rank on every endpoint (its junctions).");
  m.def("link_loads", &link_loads, "plan"_a, "topology"_a, "Bytes on every link (index = link id).");
  m.def("link_path_counts", &link_path_counts, "plan"_a, "topology"_a);

  m.def("plan_to_json", &plan_to_json, "plan"_a, "topology"_a);
  m.def("plan_from_json", &plan_from_json, "text"_a, "origin"_a = "plan");
  m.def("load_plan", &load_plan, "path"_a);
  m.def("save_plan", &save_plan, "plan"_a, "topology"_a, "path"_a);

  nb::class_<McfResult>(m, "McfResult")
      .def_ro("plan", &McfResult::plan)
      .def_ro("bound_seconds", &McfResult::bound_seconds)
      .def_ro("flow_seconds", &McfResult::flow_seconds)
      .def_ro("plan_seconds", &McfResult::plan_seconds)
      .def_ro("iterations", &McfResult::iterations)
      .def_prop_ro("gap", &McfResult::gap);
  m.def(
      "plan_mcf",
      [](const Network& topo, const RoutingModel& routing, const std::vector<Job>& jobs, double epsilon,
         int max_iterations, int hop_bound, Bytes min_path_bytes, int max_paths, double forward_bandwidth,
         int max_proxies, Progress progress) {
        McfOptions o;
        o.max_proxies = max_proxies;
        o.epsilon = epsilon;
        o.max_iterations = max_iterations;
        o.hop_bound = hop_bound;
        o.min_path_bytes = min_path_bytes;
        o.max_paths = max_paths;
        o.forward_bandwidth = forward_bandwidth;
        o.progress = std::move(progress);
        return plan_mcf(topo, routing, jobs, o);
      },
      "topology"_a, "routing"_a, "jobs"_a, "epsilon"_a = 0.02, "max_iterations"_a = 300, "hop_bound"_a = -1,
      "min_path_bytes"_a = 65536, "max_paths"_a = 0, "forward_bandwidth"_a = 0.0, "max_proxies"_a = -1,
      "progress"_a = nb::none(), "Max-concurrent-flow plan with a proven lower bound on the fluid transfer time (no LP solver).");
  m.def(
      "plan_maxflow",
      [](const Network& topo, const RoutingModel& routing, const std::vector<Job>& jobs, Bytes min_path_bytes,
         int max_paths, Progress progress) {
        return plan_maxflow(topo, routing, jobs, min_path_bytes, max_paths, progress);
      },
      "topology"_a, "routing"_a, "jobs"_a, "min_path_bytes"_a = 65536, "max_paths"_a = 0, "progress"_a = nb::none(),
      "Per destination, heaviest first, the max-flow paths that finish soonest over the capacity earlier "
      "destinations left; networks without switches only (raises optiq.Error elsewhere).");
  m.def("split_by_shares", &split_by_shares, "bytes"_a, "shares"_a);
  m.def("merge_small_parts", &merge_small_parts, "parts"_a, "min_bytes"_a);
  m.def("planner_names", &planner_names);
  m.def("planner_needs_candidates", &planner_needs_candidates, "name"_a);
  m.def(
      "make_plan",
      [](const std::string& name, const Network& topo, const RoutingModel& routing, const std::vector<Job>& jobs,
         int k, int hop_bound, int maxload, Bytes chunk, const CandidateSet* candidates, Progress progress) {
        PlannerOptions o;
        o.k = k;
        o.hop_bound = hop_bound;
        o.maxload = maxload;
        o.chunk = chunk;
        o.progress = std::move(progress);
        return make_plan(name, topo, routing, jobs, o, candidates);
      },
      "name"_a, "topology"_a, "routing"_a, "jobs"_a, "k"_a = 50, "hop_bound"_a = -1, "maxload"_a = 16,
      "chunk"_a = 65536, "candidates"_a = nb::none(), "progress"_a = nb::none(),
      "Run a planner by name (planner_names(): 'default', 'heu1', 'heu2', 'mcf', 'maxflow').");
}

}  // namespace optiq::py
