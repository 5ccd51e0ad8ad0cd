// Environment variables -> Config. A bad value turns optiq off for the whole run (every rank
// reads the same environment under mpirun -x), never into an error the application sees.
#include "config.hpp"

#include <cerrno>
#include <climits>
#include <cstdlib>
#include <cstring>
#include <stdexcept>

namespace optiq::pmpi {

namespace {

struct BadValue : std::runtime_error {
  using std::runtime_error::runtime_error;
};

const char* get(const char* name) {
  const char* v = std::getenv(name);
  return v && *v ? v : nullptr;
}

[[noreturn]] void bad(const char* name, const char* value, const std::string& why) {
  throw BadValue(std::string(name) + "='" + value + "': " + why);
}

int positive_int(const char* name, int fallback) {
  const char* v = get(name);
  if (!v) return fallback;
  char* end = nullptr;
  errno = 0;
  const long x = std::strtol(v, &end, 10);
  if (*end || errno || x < 1 || x > INT_MAX) bad(name, v, "expected a whole number from 1 to " + std::to_string(INT_MAX));
  return static_cast<int>(x);
}

std::size_t size(const char* name, std::size_t fallback) {
  const char* v = get(name);
  if (!v) return fallback;
  unsigned long long bytes = 0;
  if (optiq_parse_size(v, &bytes) != OPTIQ_SUCCESS) bad(name, v, "expected a size such as 65536, 64KiB or 1MiB");
  return static_cast<std::size_t>(bytes);
}

double fraction(const char* name, double fallback) {
  const char* v = get(name);
  if (!v) return fallback;
  char* end = nullptr;
  errno = 0;
  const double x = std::strtod(v, &end);
  if (*end || errno || !(x >= 0 && x < 1)) bad(name, v, "expected a number at least 0 and below 1");
  return x;
}

bool flag(const char* name, bool fallback) {
  const char* v = get(name);
  if (!v) return fallback;
  if (!std::strcmp(v, "1") || !std::strcmp(v, "yes") || !std::strcmp(v, "true")) return true;
  if (!std::strcmp(v, "0") || !std::strcmp(v, "no") || !std::strcmp(v, "false")) return false;
  bad(name, v, "expected 1 or 0");
}

// Fills c in place: options.planner and options.routing point into c's own strings.
void read(Config& c) {
  optiq_options_init(&c.options);
  try {
    c.verbose = flag("OPTIQ_VERBOSE", false);
    const char* topology = get("OPTIQ_TOPOLOGY");
    if (!topology) {
      c.why_off = "OPTIQ_TOPOLOGY is not set";
      return;
    }
    c.topology = topology;
    if (const char* p = get("OPTIQ_PLANNER")) c.options.planner = (c.planner = p).c_str();
    if (const char* r = get("OPTIQ_ROUTING")) c.options.routing = (c.routing = r).c_str();
    if (const char* t = get("OPTIQ_TRANSPORT")) {
      if (!std::strcmp(t, "p2p")) c.options.transport = OPTIQ_TRANSPORT_P2P;
      else if (!std::strcmp(t, "rma")) c.options.transport = OPTIQ_TRANSPORT_RMA;
      else bad("OPTIQ_TRANSPORT", t, "expected p2p or rma");
    }
    c.options.ranks_per_node = positive_int("OPTIQ_RANKS_PER_NODE", c.options.ranks_per_node);
    c.options.chunk_bytes = size("OPTIQ_CHUNK", c.options.chunk_bytes);
    c.options.direct_threshold_bytes = size("OPTIQ_DIRECT_THRESHOLD", c.options.direct_threshold_bytes);
    c.options.forward_budget_bytes = size("OPTIQ_FORWARD_BUDGET", c.options.forward_budget_bytes);
    c.options.max_inflight = positive_int("OPTIQ_MAX_INFLIGHT", c.options.max_inflight);
    if (const char* d = get("OPTIQ_DISPATCH")) {
      if (!std::strcmp(d, "paced")) c.options.dispatch = OPTIQ_DISPATCH_PACED;
      else if (!std::strcmp(d, "eager")) c.options.dispatch = OPTIQ_DISPATCH_EAGER;
      else bad("OPTIQ_DISPATCH", d, "expected paced or eager");
    }
    c.options.min_gain = fraction("OPTIQ_MIN_GAIN", c.options.min_gain);
    c.options.plan_cache = flag("OPTIQ_PLAN_CACHE", c.options.plan_cache != 0) ? 1 : 0;
    c.enabled = true;
  } catch (const BadValue& e) {
    c.enabled = false;
    c.bad_value = true;
    c.why_off = e.what();
  }
}

}  // namespace

const Config& config() {
  static Config c;
  static const bool ready = (read(c), true);
  (void)ready;
  return c;
}

}  // namespace optiq::pmpi
