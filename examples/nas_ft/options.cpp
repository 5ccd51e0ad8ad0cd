#include "options.hpp"

#include <cerrno>
#include <climits>
#include <cmath>
#include <cstdlib>
#include <cstring>

#include "pencil_fft.hpp"
#include "verify.hpp"

namespace ft {

const char* const kUsage =
    "usage: nas-ft [--class S|W|A|B|C | --grid NXxNYxNZ] [--iterations K] [--procs P1xP2]\n"
    "              [--variant all|alltoall,ialltoallv,optiq,optiq-overlap] [--slabs K]\n"
    "              [--topology SPEC] [--json] [optiq's options: --planner NAME, --min-gain X, ...]\n";

namespace {

bool to_int(const std::string& text, int& value) {
  if (text.empty()) return false;
  errno = 0;
  char* end = nullptr;
  const long v = std::strtol(text.c_str(), &end, 10);
  if (errno || *end || v < INT_MIN || v > INT_MAX) return false;
  value = static_cast<int>(v);
  return true;
}

// "AxBxC" with positive parts, `parts` of them.
bool to_sizes(const std::string& text, int parts, int* sizes) {
  std::size_t at = 0;
  for (int i = 0; i < parts; ++i) {
    const std::size_t x = text.find('x', at);
    const bool last = i == parts - 1;
    if (last != (x == std::string::npos)) return false;
    if (!to_int(text.substr(at, last ? std::string::npos : x - at), sizes[i]) || sizes[i] < 1) return false;
    at = x + 1;
  }
  return true;
}

// The most square P1 x P2 = ranks that fits the grid (P1 <= P2 first), or false.
bool choose_grid(int ranks, const Options& o, int& p1, int& p2) {
  int best = INT_MAX;
  for (int a = 1; a <= ranks; ++a) {
    if (ranks % a || !Decomposition::fits(o.nx, o.ny, o.nz, a, ranks / a)) continue;
    const int b = ranks / a, spread = std::abs(a - b) * 2 + (a > b);
    if (spread < best) best = spread, p1 = a, p2 = b;
  }
  return best != INT_MAX;
}

// "all", or names separated by commas, each once; kept in the canonical order (blocking variants
// first, so that an overlapping one can be held against its counterpart).
bool to_variants(const std::string& text, std::vector<Variant>& variants) {
  const Variant every[] = {Variant::alltoall, Variant::ialltoallv, Variant::optiq, Variant::optiq_overlap};
  if (text == "all") {
    variants.assign(std::begin(every), std::end(every));
    return true;
  }
  std::vector<bool> chosen(4, false);
  std::size_t at = 0;
  while (at <= text.size()) {
    std::size_t comma = text.find(',', at);
    if (comma == std::string::npos) comma = text.size();
    const std::string name = text.substr(at, comma - at);
    int i = 0;
    while (i < 4 && name != variant_name(every[i])) ++i;
    if (i == 4 || chosen[i]) return false;
    chosen[i] = true;
    at = comma + 1;
  }
  variants.clear();
  for (int i = 0; i < 4; ++i)
    if (chosen[i]) variants.push_back(every[i]);
  return true;
}

bool is_optiq_option(const std::string& arg) {
  for (int i = 0; optiq_options_name(i); ++i)
    if (arg == std::string("--") + optiq_options_name(i)) return true;
  return false;
}

}  // namespace

optiq_options Options::optiq() const {
  optiq_options options;
  optiq_options_init(&options);
  for (const auto& [name, value] : optiq_settings)  // checked while parsing
    optiq_options_set(&options, name.c_str(), value.c_str(), nullptr, 0);
  return options;
}

bool Options::uses_optiq() const {
  for (Variant v : variants)
    if (v == Variant::optiq || v == Variant::optiq_overlap) return true;
  return false;
}

std::string parse_options(int argc, char** argv, int ranks, Options& o) {
  bool have_class = false, have_grid = false, have_iterations = false;
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i], value;
    if (arg == "--json" || arg == "--help" || arg == "-h") {
      (arg == "--json" ? o.json : o.help) = true;
      continue;
    }
    const std::size_t eq = arg.find('=');
    if (arg.rfind("--", 0) == 0 && eq != std::string::npos) {
      value = arg.substr(eq + 1);
      arg.resize(eq);
    } else if (i + 1 < argc) {
      value = argv[++i];
    } else {
      return arg.rfind("--", 0) == 0 ? arg + " needs a value" : "unexpected argument '" + arg + "'";
    }

    if (arg == "--class") {
      const NpbClass* c = value.size() == 1 ? npb_class(value[0]) : nullptr;
      if (!c) return "--class " + value + ": known classes are S, W, A, B and C";
      o.npb_class = c->name;
      o.nx = c->nx, o.ny = c->ny, o.nz = c->nz;
      if (!have_iterations) o.iterations = c->iterations;
      have_class = true;
    } else if (arg == "--grid") {
      int n[3];
      if (!to_sizes(value, 3, n)) return "--grid " + value + ": expected NXxNYxNZ with positive sizes, e.g. 64x64x32";
      o.nx = n[0], o.ny = n[1], o.nz = n[2];
      have_grid = true;
    } else if (arg == "--iterations") {
      if (!to_int(value, o.iterations) || o.iterations < 1)
        return "--iterations " + value + ": expected a positive count";
      have_iterations = true;
    } else if (arg == "--procs") {
      int p[2];
      if (!to_sizes(value, 2, p)) return "--procs " + value + ": expected P1xP2, e.g. 2x4";
      o.p1 = p[0], o.p2 = p[1];
    } else if (arg == "--variant") {
      if (!to_variants(value, o.variants))
        return "--variant " + value + ": expected all, or a comma-separated list of alltoall, ialltoallv, optiq "
               "and optiq-overlap";
    } else if (arg == "--slabs") {
      if (!to_int(value, o.slabs) || o.slabs < 1) return "--slabs " + value + ": expected a positive count";
    } else if (arg == "--topology") {
      if (value.empty()) return "--topology needs a spec, e.g. torus:2x2x2";
      o.topology = value;
    } else if (is_optiq_option(arg)) {
      optiq_options scratch;
      optiq_options_init(&scratch);
      char message[256];
      if (optiq_options_set(&scratch, arg.c_str() + 2, value.c_str(), message, sizeof message) != OPTIQ_SUCCESS)
        return arg + " " + value + ": " + message;
      o.optiq_settings.emplace_back(arg.substr(2), value);
    } else {
      return "unknown option '" + arg + "' (try --help)";
    }
  }
  if (o.help) return "";
  if (have_class && have_grid) return "--class and --grid both give the size; use one";
  if (have_grid) {
    const NpbClass* c = npb_class_of(o.nx, o.ny, o.nz);
    o.npb_class = c ? c->name : 0;
    if (c && !have_iterations) o.iterations = c->iterations;
  }
  // Counts and displacements of the exchanges are ints, in complex elements.
  if (static_cast<long long>(o.nx) * o.ny * o.nz / ranks > INT_MAX)
    return "the grid is too large for " + std::to_string(ranks) + " ranks (over 2^31 points per rank)";

  const std::string grid = std::to_string(o.nx) + "x" + std::to_string(o.ny) + "x" + std::to_string(o.nz);
  if (o.p1) {
    if (static_cast<long long>(o.p1) * o.p2 != ranks)
      return "--procs " + std::to_string(o.p1) + "x" + std::to_string(o.p2) + " needs " +
             std::to_string(static_cast<long long>(o.p1) * o.p2) + " ranks, the job has " + std::to_string(ranks);
    if (!Decomposition::fits(o.nx, o.ny, o.nz, o.p1, o.p2))
      return "--procs " + std::to_string(o.p1) + "x" + std::to_string(o.p2) + " does not fit the " + grid +
             " grid (P1 must divide nx and ny, P2 must divide ny and nz)";
  } else if (!choose_grid(ranks, o, o.p1, o.p2)) {
    return "no P1xP2 grid of " + std::to_string(ranks) + " ranks fits the " + grid +
           " grid (P1 must divide nx and ny, P2 must divide ny and nz)";
  }
  if (o.topology.empty())
    o.topology = o.p1 > 1 && o.p2 > 1 ? "torus:" + std::to_string(o.p1) + "x" + std::to_string(o.p2)
                                      : "torus:" + std::to_string(ranks);
  return "";
}

}  // namespace ft
