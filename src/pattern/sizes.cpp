// Per-job byte counts: fixed, uniform or Pareto, each drawn from a seeded generator.
#include <cmath>
#include <sstream>

#include "optiq/core/error.hpp"
#include "optiq/core/pattern.hpp"
#include "optiq/core/rng.hpp"

namespace optiq {

namespace {

std::vector<std::string> split(const std::string& s, char sep) {
  std::vector<std::string> parts;
  std::stringstream in(s);
  std::string part;
  while (std::getline(in, part, sep)) parts.push_back(part);
  return parts;
}

double parse_positive(const std::string& text, const std::string& what) {
  try {
    size_t used = 0;
    const double v = std::stod(text, &used);
    if (used == text.size() && v > 0 && std::isfinite(v)) return v;
  } catch (const std::exception&) {
  }
  throw Error("bad " + what + " '" + text + "' (expected a positive number)");
}

}  // namespace

std::vector<Job> assign_sizes(const std::vector<Pair>& pairs, const std::string& sizes, std::uint64_t seed) {
  const auto parts = split(sizes, ':');
  std::vector<Job> jobs;
  jobs.reserve(pairs.size());
  Rng rng(seed ^ 0x5eedb17e5ULL);
  if (parts.empty()) throw Error("empty size spec (expected BYTES, uniform:LO:HI or pareto:ALPHA:MIN[:MAX])");
  if (parts.size() == 1) {
    const Bytes b = parse_bytes(sizes);
    for (const auto& p : pairs) jobs.push_back({p.first, p.second, b});
  } else if (parts[0] == "uniform" && parts.size() == 3) {
    const Bytes lo = parse_bytes(parts[1]), hi = parse_bytes(parts[2]);
    if (lo > hi) throw Error("uniform sizes need LO <= HI in '" + sizes + "'");
    for (const auto& p : pairs) jobs.push_back({p.first, p.second, lo + rng.below(hi - lo + 1)});
  } else if (parts[0] == "pareto" && (parts.size() == 3 || parts.size() == 4)) {
    const double alpha = parse_positive(parts[1], "Pareto shape");
    const double lo = static_cast<double>(parse_bytes(parts[2]));
    const Bytes max = parts.size() == 4 ? parse_bytes(parts[3]) : Bytes(1000000000000000000ULL);
    // As a double the maximum may round up (2^63-1 becomes 2^63, past any byte count): a draw
    // that reaches it, or is no number at all (MIN 0 with a tiny shape), takes the exact maximum.
    const double hi = static_cast<double>(max);
    if (lo > hi) throw Error("Pareto sizes need MIN <= MAX in '" + sizes + "'");
    for (const auto& p : pairs) {
      const double u = 1.0 - rng.unit();  // (0, 1]
      const double x = lo / std::pow(u, 1.0 / alpha);
      jobs.push_back({p.first, p.second, x < hi ? static_cast<Bytes>(x) : max});
    }
  } else {
    throw Error("bad size spec '" + sizes + "' (expected BYTES, uniform:LO:HI or pareto:ALPHA:MIN[:MAX])");
  }
  return jobs;
}

}  // namespace optiq
