#include <nanobind/stl/function.h>
#include <nanobind/stl/pair.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/tuple.h>
#include <nanobind/stl/vector.h>

#include "bindings.hpp"
#include "optiq/core/aggregation.hpp"
#include "optiq/core/error.hpp"

namespace nb = nanobind;
using namespace nb::literals;

namespace optiq::py {

namespace {

FileLayout layout_named(const std::string& name) {
  if (name == "aos") return FileLayout::Aos;
  if (name == "soa") return FileLayout::Soa;
  throw Error("unknown layout '" + name + "' (known: aos, soa)");
}

AggregationOptions options_of(int aggregators, Bytes buffer, double hop_latency) {
  AggregationOptions o;
  o.aggregators = aggregators;
  o.buffer = buffer;
  o.hop_latency = hop_latency;
  return o;
}

}  // namespace

void bind_io(nb::module_& m) {
  nb::class_<IoGroup>(m, "IoGroup", "The compute nodes writing through one I/O node and each node's pieces of its file.")
      .def_ro("io", &IoGroup::io)
      .def_ro("nodes", &IoGroup::nodes)
      .def_prop_ro("extents",
                   [](const IoGroup& g) {
                     std::vector<std::vector<std::pair<Bytes, Bytes>>> out;
                     for (const auto& list : g.extents) {
                       out.emplace_back();
                       for (const Extent& e : list) out.back().emplace_back(e.offset, e.bytes);
                     }
                     return out;
                   },
                   "per node, its (offset, bytes) pieces of the group's file")
      .def_prop_ro("file_bytes", &IoGroup::file_bytes);

  m.attr("DEFAULT_AGGREGATORS") = kDefaultAggregators;
  m.attr("DEFAULT_AGGREGATION_BUFFER") = kDefaultAggregationBuffer;
  m.attr("HOP_LATENCY") = kHopLatency;
  m.attr("HACC_VARIABLE_BYTES") = std::vector<int>(std::begin(kHaccVariableBytes), std::end(kHaccVariableBytes));
  m.def("placement_names", &placement_names);
  m.def("io_nodes_of_endpoints", &io_nodes_of_endpoints, "network"_a, "routing"_a,
        "The I/O vertex each endpoint writes through (endpoints order).");
  m.def(
      "make_io_groups",
      [](const Network& net, const RoutingModel& routing, int ranks_per_node, const std::vector<Bytes>& rank_items,
         const std::vector<int>& item_sizes, const std::string& layout) {
        return make_io_groups(net, routing, ranks_per_node, rank_items, item_sizes, layout_named(layout));
      },
      "network"_a, "routing"_a, "ranks_per_node"_a, "rank_items"_a, "item_sizes"_a, "layout"_a = "aos",
      "One group per I/O node: rank r on endpoint r // ranks_per_node holds rank_items[r] items of item_sizes bytes, "
      "laid out 'aos' or 'soa' in its group's file.");
  m.def("sparse_rank_amounts", &sparse_rank_amounts, "nodes"_a, "ranks_per_node"_a, "law"_a, "holders"_a = 1.0,
        "seed"_a = 0, "Per-rank amounts from a size law, held only by a seeded fraction of the nodes.");
  m.def(
      "file_domains",
      [](const IoGroup& g, int aggregators) {
        const Domains d = file_domains(g, aggregators);
        return std::make_tuple(d.span, d.total, d.bytes);
      },
      "group"_a, "aggregators"_a, "(span, bytes per domain, bytes per domain and node of the group).");
  m.def(
      "place_aggregators",
      [](const std::string& strategy, const Network& net, const RoutingModel& routing, const IoGroup& g,
         int aggregators, Bytes buffer, double hop_latency, Progress progress) {
        AggregationOptions o = options_of(aggregators, buffer, hop_latency);
        o.progress = std::move(progress);
        return place_aggregators(strategy, net, routing, g, o);
      },
      "strategy"_a, "network"_a, "routing"_a, "group"_a, "aggregators"_a = kDefaultAggregators,
      "buffer"_a = kDefaultAggregationBuffer, "hop_latency"_a = kHopLatency, "progress"_a = nb::none(),
      "The aggregator of each file domain of the group (-1 where a domain holds no data).");
  m.def(
      "aggregation_jobs",
      [](const std::vector<IoGroup>& groups, const std::vector<AggregatorNodes>& placements, int aggregators, Bytes buffer) {
        AggregationJobs j = aggregation_jobs(groups, placements, options_of(aggregators, buffer, kHopLatency));
        return std::make_tuple(std::move(j.aggregation), std::move(j.io), j.rounds);
      },
      "groups"_a, "placements"_a, "aggregators"_a = kDefaultAggregators, "buffer"_a = kDefaultAggregationBuffer,
      "(node-to-aggregator jobs, aggregator-to-I/O-node jobs, rounds the buffer imposes).");
  m.def("pipelined_seconds", &pipelined_seconds, "aggregation_seconds"_a, "io_seconds"_a, "rounds"_a);
  m.def(
      "aggregation_times",
      [](const std::string& planner, const Network& net, const RoutingModel& routing, const IoGroup& g,
         const AggregatorNodes& placement, int aggregators, Bytes buffer) {
        nb::gil_scoped_release release;
        const AggregationTimes t =
            aggregation_times(planner, net, routing, g, placement, options_of(aggregators, buffer, kHopLatency));
        return std::make_tuple(t.aggregation, t.io, t.total);
      },
      "planner"_a, "network"_a, "routing"_a, "group"_a, "placement"_a, "aggregators"_a = kDefaultAggregators,
      "buffer"_a = kDefaultAggregationBuffer, "(aggregation, io, pipelined total) seconds: flow-aware's cost.");
  m.def(
      "topology_aware_cost",
      [](const Network& net, const RoutingModel& routing, const IoGroup& g, int aggregators, int domain, int candidate,
         double hop_latency) {
        const Domains d = file_domains(g, aggregators);
        if (domain < 0 || domain >= d.count()) throw Error("no domain " + std::to_string(domain));
        if (candidate < 0 || candidate >= static_cast<int>(g.nodes.size()))
          throw Error("no node " + std::to_string(candidate) + " in the group");
        return topology_aware_cost(net, routing, g, d, domain, candidate, hop_latency);
      },
      "network"_a, "routing"_a, "group"_a, "aggregators"_a, "domain"_a, "candidate"_a, "hop_latency"_a = kHopLatency,
      "C1 + C2 of the group's candidate-th node serving the domain (tessier2016).");
}

}  // namespace optiq::py
