// Option records: every option of every layer declared once, with its name, kind, bounds,
// default and description (HiGHS keeps its options the same way). Everything else reads them:
// the structs' defaults (PlannerOptions(), optiq_options_init, optiq_io_options_init), the
// tools' command lines (--name), the interposer's environment (OPTIQ_NAME), the Python
// command line through the bindings, and docs/options.md.
//
// Layers: "planner" (PlannerOptions), "runtime" (optiq_options), "io" (optiq_io_options) and
// "simulation" (the SimGrid model settings the Python simulation layer reads).
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "optiq/options.h"
#include "optiq/core/types.hpp"

namespace optiq {

enum class OptionKind { integer, real, bytes, choice, text, flag };

struct OptionRecord {
  std::string name;           // "min-path-bytes": flag --min-path-bytes, variable OPTIQ_MIN_PATH_BYTES
  OptionKind kind = OptionKind::integer;
  std::string default_value;  // as a user writes it: "50", "64KiB", "paced", "" (text: unset)
  std::string help;           // what it does, without the default
  double lo = 0, hi = 0;      // integer, real, bytes: the accepted range
  bool lo_open = false, hi_open = false;  // real: an end excluded
  std::string special;        // one value outside the range with a meaning of its own, or ""
  std::string special_help;   // that meaning: "no limit", "automatic", ...
  std::vector<std::string> choices;  // choice: the accepted words, in the enum's order
  std::string field;          // the struct member it sets (C or C++), for the docs

  // "OPTIQ_MIN_PATH_BYTES": how the interposer's environment names it.
  std::string environment_name() const;
};

// The layers that have records, and each layer's records in a stable order.
std::vector<std::string> option_layers();
const std::vector<OptionRecord>& option_records(const std::string& layer);
// The record of `name` in `layer`; throws Error naming the known ones if there is none.
const OptionRecord& option_record(const std::string& layer, const std::string& name);

// Checks `text` against the record: a whole or decimal number in range (plain ASCII digits,
// no nan or inf), a byte size, one of the choices, or the special value. Throws Error saying
// what is wrong (without the option's name: callers prefix it as their command line names it).
void check_option_value(const OptionRecord& record, const std::string& text);
// The value as a number (integer, real, bytes, flag: 1/0, choice: its index); checks first.
double option_number(const OptionRecord& record, const std::string& text);

// Planning: one struct for every planner, defaults from the "planner" records.
struct PlannerOptions {
  int k;                     // candidate paths per job (heu1, heu2, opt)
  int hop_bound;             // < 0: the diameter for candidates, no bound for optimal and mcf
  int maxload;               // heu1: starting limit on paths per link
  Bytes heu2_chunk;          // heu2: bytes assigned per step
  double epsilon;            // mcf: target gap to its proven bound
  int mcf_iterations;        // mcf: iteration cap
  double gap;                // opt, optimal: column generation stops at this relative gap
  int lp_iterations;         // opt, optimal: column generation rounds at most
  Bytes min_path_bytes;      // opt, optimal, mcf, maxflow: no path carries fewer bytes
  int max_paths;             // opt, optimal, mcf, maxflow: paths per job, 0 = no limit
  int max_proxies;           // mcf: forwarding endpoints per path, < 0 = no limit
  double forward_bandwidth;  // opt, optimal, mcf: bytes/s a node can relay, 0 = unlimited
  Progress progress = nullptr;
  // Bytes per link (index = link id) that more urgent classes already put ahead of this plan
  // (docs/qos.md): the plan minimises max over links of (preload + its own bytes) / capacity.
  // Empty: none. heu2, mcf, opt and optimal honour it; default has no choice to make; heu1 and
  // maxflow refuse it.
  std::vector<double> link_preload;
  // mcf: where its own bounds stop short of epsilon on a fat-tree, prove a sharper one by column
  // generation over its plan's paths (src/planner/mcf_columns.hpp). The plan is the same either
  // way: callers that use the plan alone (the runtime, placement) skip the seconds it costs.
  bool prove_bound = true;

  PlannerOptions();  // every field at its record's default
};

// Every field of `options` against its record, and the rules between fields (a hop bound and a
// bound on proxies per path exclude each other). Throws Error naming the option.
void check_planner_options(const PlannerOptions& options);

// Sets one option of a struct from text (checked as above). Text options of the C structs
// keep the pointer: `text` must outlive the struct's use.
void set_option(PlannerOptions& options, const std::string& name, const std::string& text);
void set_option(optiq_options& options, const std::string& name, const char* text);
void set_option(optiq_io_options& options, const std::string& name, const char* text);
// The current value of one option as text ("" for an unset text option).
std::string get_option(const PlannerOptions& options, const std::string& name);
std::string get_option(const optiq_options& options, const std::string& name);
std::string get_option(const optiq_io_options& options, const std::string& name);

// A record's default as a number (option_number of its default_value): for code that needs one
// default outside its struct, e.g. the simulation layer's settings.
double option_default(const std::string& layer, const std::string& name);

}  // namespace optiq
