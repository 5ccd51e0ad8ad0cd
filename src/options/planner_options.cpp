// The planners' options: the one place their defaults, ranges and meanings are written.
#include <cmath>

#include "options/table.hpp"

namespace optiq {

namespace options {

const Table<PlannerOptions>& planner_table() {
  using P = PlannerOptions;
  static const Table<P> table("planner", {
      bind(integer("k", "50", 1, 100000, "candidate paths per job for heu1, heu2 and opt"), &P::k, "k"),
      bind(with_special(integer("hop-bound", "-1", 0, 1000000, "longest path in hops"), "-1",
                        "the partition's diameter for the candidates of heu1, heu2 and opt, no bound for optimal "
                        "and mcf"),
           &P::hop_bound, "hop_bound"),
      bind(integer("maxload", "16", 1, 1000000000, "heu1: starting limit of paths per link"), &P::maxload, "maxload"),
      bind(bytes("heu2-chunk", "64KiB", 1, 1099511627776.0, "heu2: bytes assigned to a path per step"), &P::heu2_chunk,
           "heu2_chunk"),
      bind(real("epsilon", "0.02", 0, 1, "mcf: stop once the plan is within this fraction of its proven bound", true,
                true),
           &P::epsilon, "epsilon"),
      bind(integer("mcf-iterations", "300", 1, 1000000, "mcf: iterations at most"), &P::mcf_iterations,
           "mcf_iterations"),
      bind(real("gap", "1e-6", 0, 1, "opt, optimal: stop column generation at this relative gap", false, true), &P::gap,
           "gap"),
      bind(integer("lp-iterations", "500", 1, 1000000, "opt, optimal: column generation rounds at most"),
           &P::lp_iterations, "lp_iterations"),
      bind(bytes("min-path-bytes", "64KiB", 0, 1099511627776.0,
                 "opt, optimal, mcf, maxflow: no path carries fewer bytes (the default is one chunk)"),
           &P::min_path_bytes, "min_path_bytes"),
      bind(with_special(integer("max-paths", "0", 1, 1000000, "opt, optimal, mcf, maxflow: at most this many paths per job"),
                        "0", "no limit"),
           &P::max_paths, "max_paths"),
      bind(with_special(integer("max-proxies", "-1", 0, 1000000,
                                "mcf: at most this many endpoints forward on each path (1 is Valiant-style routing "
                                "through one chosen endpoint)"),
                        "-1", "no limit"),
           &P::max_proxies, "max_proxies"),
      bind(with_special(real("forward-bandwidth", "0", 1, 1e15,
                             "bytes/s a node can relay for others: opt, optimal and mcf plan for it, and every "
                             "planner's predicted time counts it"),
                        "0", "unlimited"),
           &P::forward_bandwidth, "forward_bandwidth"),
  });
  return table;
}

}  // namespace options

PlannerOptions::PlannerOptions() { options::planner_table().reset(*this); }

void set_option(PlannerOptions& o, const std::string& name, const std::string& text) {
  options::planner_table().set(o, name, text.c_str());
}

std::string get_option(const PlannerOptions& o, const std::string& name) { return options::planner_table().get(o, name); }

void check_planner_options(const PlannerOptions& o) {
  for (const OptionRecord& r : option_records("planner")) {
    try {
      check_option_value(r, get_option(o, r.name));
    } catch (const Error& e) {
      throw Error(r.name + ": " + e.what());
    }
  }
  for (double bytes : o.link_preload)
    if (!(bytes >= 0) || !std::isfinite(bytes)) throw Error("link preload: every link's bytes must be finite and >= 0");
  if (o.max_proxies >= 0 && o.hop_bound >= 0)
    throw Error("a hop bound and a bound on proxies per path cannot be combined; choose one");
}

}  // namespace optiq
