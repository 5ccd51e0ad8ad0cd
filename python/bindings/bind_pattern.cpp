#include <nanobind/stl/function.h>
#include <nanobind/stl/pair.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include "bindings.hpp"
#include "optiq/core/bounds.hpp"
#include "optiq/core/cheapest.hpp"
#include "optiq/core/legs.hpp"
#include "optiq/core/routing.hpp"
#include "optiq/core/paths.hpp"
#include "optiq/core/error.hpp"
#include "optiq/core/pattern.hpp"
#include "optiq/core/network_pattern.hpp"

namespace nb = nanobind;
using namespace nb::literals;

namespace optiq::py {

void bind_pattern(nb::module_& m) {
  nb::class_<Job>(m, "Job",
                  "One request: move `bytes` from node `src` to node `dst`, in traffic class `priority` "
                  "(0, the default, is the most urgent; docs/qos.md).")
      .def(nb::init<>())
      .def(
          "__init__",
          [](Job* j, NodeId s, NodeId d, Bytes b, int priority) {
            if (priority < 0 || priority > kMaxPriority)
              throw Error("priority " + std::to_string(priority) + " is outside 0.." + std::to_string(kMaxPriority));
            new (j) Job{s, d, b, priority};
          },
          "src"_a, "dst"_a, "bytes"_a, "priority"_a = 0)
      .def_rw("src", &Job::src)
      .def_rw("dst", &Job::dst)
      .def_rw("bytes", &Job::bytes)
      .def_ro("priority", &Job::priority)
      .def("__repr__", [](const Job& j) {
        return "Job(" + std::to_string(j.src) + ", " + std::to_string(j.dst) + ", " + std::to_string(j.bytes) +
               (j.priority ? ", priority=" + std::to_string(j.priority) : std::string()) + ")";
      });
  m.attr("MAX_PRIORITY") = kMaxPriority;

  m.def("parse_bytes", &parse_bytes, "text"_a, "Parse '8MiB', '64KiB', '1.5GB' or '1000000' into bytes.");
  m.def("format_bytes", &format_bytes, "bytes"_a);
  m.def("m_to_n", &m_to_n, "m"_a, "startm"_a, "n"_a, "startn"_a);
  m.def(
      "named_pattern",
      [](const std::string& name, int num_nodes, int sources, int dests, int start_src, int start_dst,
         std::uint64_t seed) {
        return named_pattern(name, PatternOptions{num_nodes, sources, dests, start_src, start_dst, seed});
      },
      "name"_a, "num_nodes"_a, "sources"_a = -1, "dests"_a = -1, "start_src"_a = -1, "start_dst"_a = -1, "seed"_a = 0,
      "Pairs of the 'disjoint', 'overlap', 'subset' or 'random' pattern (1:8 by default).");
  m.def("pattern_names", &pattern_names);
  m.def(
      "network_pattern",
      [](const std::string& name, const Network& network, int group_src, int group_dst, int hot, double hot_factor,
         std::uint64_t seed) {
        NetworkPattern p = network_pattern(name, network, NetworkPatternOptions{group_src, group_dst, hot, hot_factor, seed});
        return std::make_pair(std::move(p.pairs), std::move(p.weights));
      },
      "name"_a, "network"_a, "group_src"_a = -1, "group_dst"_a = -1, "hot"_a = -1, "hot_factor"_a = kMoeHotFactor,
      "seed"_a = 0,
      "(pairs, weights) of 'group-to-group', 'groups-alltoall', 'dmodk-adversarial', 'permutation' or 'moe' over "
      "the network's endpoint indices; a job's size is its weight times the pattern's bytes, rounded to whole "
      "bytes (moe: hot destinations weigh hot_factor).");
  m.attr("MOE_HOT_FACTOR") = kMoeHotFactor;
  m.def("network_pattern_names", &network_pattern_names);
  m.def("assign_sizes", &assign_sizes, "pairs"_a, "sizes"_a, "seed"_a = 0,
        "Jobs with sizes 'BYTES', 'uniform:LO:HI' or 'pareto:ALPHA:MIN[:MAX]'.");
  m.def("parse_requests", &parse_requests, "text"_a, "num_nodes"_a, "origin"_a = "requests", "max_jobs"_a = kMaxFileJobs);
  m.def("read_requests", &read_requests, "path"_a, "num_nodes"_a);

  m.def("k_shortest_paths", &k_shortest_paths, "topology"_a, "routing"_a, "src"_a, "dst"_a, "k"_a, "hop_bound"_a = -1,
        "Candidate paths (lists of link ids) within a hop bound (-1: the default bound): Yen's k shortest "
        "on a torus, the shortest undominated chains through one proxy on a network with switches.");
  nb::class_<Legs>(m, "Legs",
                   "The default-route legs realizable paths chain, for one network and routing (built once: "
                   "on a network with switches it holds a next-link table per endpoint).")
      .def(nb::init<const Network&, const RoutingModel&>(), "network"_a, "routing"_a, nb::keep_alive<1, 2>(),
           nb::keep_alive<1, 3>())
      .def_prop_ro("direct", &Legs::direct, "True when every link is a leg: realizable paths are simple paths.");
  m.def("default_hop_bound", &default_hop_bound, "legs"_a);
  m.def(
      "cheapest_paths",
      [](const Legs& legs, const std::vector<Job>& jobs, const std::vector<double>& link_weight,
         const std::vector<double>& node_weight, int hop_bound) {
        CheapestPaths r = cheapest_paths(legs, jobs, link_weight, node_weight, hop_bound);
        return std::make_pair(std::move(r.cost), std::move(r.paths));
      },
      "legs"_a, "jobs"_a, "link_weight"_a, "node_weight"_a = std::vector<double>{}, "hop_bound"_a = -1,
      "Per job, the realizable path minimising link weights (+ weights of nodes passed through), fewest hops among "
      "ties; returns (costs, paths). hop_bound -1: unbounded.");
  m.def("proxy_lower_bound", &proxy_lower_bound, "legs"_a, "jobs"_a, "link_preload"_a = std::vector<double>{},
        "forward_bandwidth"_a = 0.0,
        "Seconds no plan can beat on an overlay: the bytes that collisions of the default routes force through "
        "proxies against what the proxies' own links can relay (0 where every link is a leg).");
  m.def("cover_lower_bound", &cover_lower_bound, "legs"_a, "jobs"_a, "link_preload"_a = std::vector<double>{},
        "Seconds no plan can beat on an overlay of a switched network: for each part below a level of switches, "
        "links every chain into it must cross (the default routes' entry links, or terminals' own links) against "
        "the bytes they must carry (0 where every link is a leg).");
  nb::class_<CandidateSet>(m, "CandidateSet", "Candidate paths for every job of a pattern.")
      .def_ro("k", &CandidateSet::k)
      .def_ro("hop_bound", &CandidateSet::hop_bound)
      .def_ro("seconds", &CandidateSet::seconds)
      .def("__len__", [](const CandidateSet& c) { return c.per_job.size(); })
      .def("paths", [](const CandidateSet& c, std::size_t job) {
        if (job >= c.per_job.size()) throw nb::index_error();
        return c.per_job[job];
      }, "job"_a);
  m.def("generate_candidates", &generate_candidates, "topology"_a, "routing"_a, "jobs"_a, "k"_a = 50, "hop_bound"_a = -1,
        "progress"_a = nb::none(), "Candidate paths for all jobs; progress(stage, done, total) is called now and then.");
}

}  // namespace optiq::py
