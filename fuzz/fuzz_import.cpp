// Site network descriptions (include/optiq/core/import.hpp) and Slurm host lists. The first byte
// chooses the parser, modulo 5: 0 a host list, 1 topology.conf, 2 topology.yaml, 3 ibnetdiscover
// output, 4 a Slingshot host file whose first line holds the options (the seeds in
// fuzz/corpus/import start with 'A' to 'E', 65 to 69, for these five). Beyond not crashing:
// every refusal is one line and, but for Slingshot options, names the file; an accepted network
// is within the size limits, names every endpoint and finds it again by that name, has its
// cables both ways with positive capacities and links named after their ends, reads again to
// the same digest, and its default routes between endpoints are chains of links to the
// destination (it is connected). Host lists stand for at most their limit of names, each
// non-empty and free of list syntax.
#include <cctype>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <optional>
#include <string>

#include "invariant.hpp"
#include "optiq/core/error.hpp"
#include "optiq/core/hostlist.hpp"
#include "optiq/core/import.hpp"
#include "optiq/core/network.hpp"
#include "optiq/core/routing.hpp"

using namespace optiq;

namespace {

constexpr long long kNames = 4096;  // per input: big machines are slow to build, not interesting

void check_hostlist(const std::string& text) {
  std::vector<std::string> names;
  try {
    names = expand_hostlist(text, "fuzz", kNames);
  } catch (const Error& e) {
    const std::string m = e.what();
    FUZZ_CHECK(m.rfind("fuzz: bad host list '", 0) == 0, "message: %s", m.c_str());
    return;
  }
  FUZZ_CHECK(!names.empty() && static_cast<long long>(names.size()) <= kNames, "%zu names", names.size());
  for (std::size_t i = 0; i < names.size(); ++i) {
    const std::string& n = names[i];
    FUZZ_CHECK(!n.empty() && n.find_first_of(",[]") == std::string::npos, "name '%s'", n.c_str());
    if (i < 4) {
      const auto again = expand_hostlist(n, "again");
      FUZZ_CHECK(again.size() == 1 && again[0] == n, "'%s' does not stand for itself", n.c_str());
    }
  }
}

// Whether the text could name more than kNames hosts: every host list an importer expands is
// inside one blank-separated word once topology.conf's continued lines are joined, so the words'
// counts bound them.
bool too_many_names(std::string text) {
  for (const char* continued : {"\\\r\n", "\\\n"})
    for (std::size_t at; (at = text.find(continued)) != std::string::npos;)
      text.erase(at, std::string(continued).size());
  long long total = 0;
  std::size_t k = 0;
  while (k < text.size()) {
    while (k < text.size() && std::isspace(static_cast<unsigned char>(text[k]))) ++k;
    const std::size_t start = k;
    while (k < text.size() && !std::isspace(static_cast<unsigned char>(text[k]))) ++k;
    if (k == start) break;
    try {
      total += static_cast<long long>(expand_hostlist(text.substr(start, k - start), "", kNames - total).size());
    } catch (const Error& e) {
      if (std::string(e.what()).find("stands for more than") != std::string::npos) return true;
      ++total;
    }
    if (total > kNames) return true;
  }
  return false;
}

// Slingshot options that would build a large dragonfly: routers, hosts or global above 64.
bool too_large_options(const std::string& options) {
  std::size_t pos = 0;
  while (pos <= options.size()) {
    std::size_t end = options.find(';', pos);
    if (end == std::string::npos) end = options.size();
    const std::string item = options.substr(pos, end - pos);
    for (const char* key : {"routers=", "hosts=", "global="})
      if (item.rfind(key, 0) == 0 && item.size() > std::string(key).size() + 2) return true;
    pos = end + 1;
  }
  return false;
}

Network parse(int which, const std::string& text, const std::string& options) {
  switch (which) {
    case 1: return parse_slurm_topology_conf(text, "fuzz", 1e9, "slurm:fuzz");
    case 2: return parse_slurm_topology_yaml(text, "fuzz", 1e9, "slurm:fuzz");
    case 3: return parse_ibnetdiscover(text, "fuzz", "ibnetdiscover:fuzz");
    default: return parse_slingshot(text, "fuzz", options, 1e9, "slingshot:fuzz");
  }
}

void check_network(const Network& n) {
  FUZZ_CHECK(n.num_vertices() >= 1 && n.num_vertices() <= kMaxVertices && n.num_links() <= kMaxLinks, "%d vertices",
             n.num_vertices());
  FUZZ_CHECK(!n.endpoints().empty() && n.hosts_named(), "%zu endpoints", n.endpoints().size());
  FUZZ_CHECK(n.default_routing() == "shortest", "routing %s", n.default_routing().c_str());
  for (NodeId v : n.endpoints())
    FUZZ_CHECK(!n.vertex_name(v).empty() && n.endpoint_named(n.vertex_name(v)) == v, "endpoint %d '%s'", v,
               n.vertex_name(v).c_str());
  FUZZ_CHECK(n.num_links() % 2 == 0, "%d links: not cables", n.num_links());
  for (LinkId l = 0; l < n.num_links(); ++l) {
    const LinkId r = l ^ 1;  // a cable's two links are made together
    FUZZ_CHECK(n.link_src(l) == n.link_dst(r) && n.link_dst(l) == n.link_src(r) && n.capacity(l) == n.capacity(r),
               "link %d is not the reverse of link %d", l, r);
    FUZZ_CHECK(n.capacity(l) > 0 && std::isfinite(n.capacity(l)), "link %d capacity %g", l, n.capacity(l));
    const std::string base = n.vertex_name(n.link_src(l)) + "->" + n.vertex_name(n.link_dst(l));
    FUZZ_CHECK(n.link_name(l).rfind(base, 0) == 0, "link %d is named '%s'", l, n.link_name(l).c_str());
  }
  const auto routing = make_routing(n.default_routing(), n);
  const auto& ends = n.endpoints();
  for (std::size_t i = 0; i < ends.size() && i < 6; ++i)
    for (std::size_t j = 0; j < ends.size() && j < 6; ++j) {
      NodeId at = ends[i];
      for (LinkId l : routing->route(ends[i], ends[j])) {  // throws, and so aborts, when unreachable
        FUZZ_CHECK(n.has_link(l) && n.link_src(l) == at, "route %d->%d breaks at %d", ends[i], ends[j], at);
        at = n.link_dst(l);
      }
      FUZZ_CHECK(at == ends[j], "route %d->%d ends at %d", ends[i], ends[j], at);
    }
}

// OPTIQ_FUZZ_IMPORT_PARSER=0..4 pins the parser (the first byte still comes off the input), so
// that a campaign can give each parser its own time.
int pinned_parser() {
  static const int pinned = [] {
    const char* v = std::getenv("OPTIQ_FUZZ_IMPORT_PARSER");
    return v && v[0] >= '0' && v[0] <= '4' && !v[1] ? v[0] - '0' : -1;
  }();
  return pinned;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  const int which = pinned_parser() >= 0 ? pinned_parser() : data[0] % 5;
  std::string text(reinterpret_cast<const char*>(data) + 1, size - 1);
  if (which == 0) {
    check_hostlist(text);
    return 0;
  }
  std::string options;
  if (which == 4) {  // the first line: the options
    const std::size_t nl = text.find('\n');
    options = text.substr(0, nl);
    text = nl == std::string::npos ? std::string() : text.substr(nl + 1);
    if (too_large_options(options)) return 0;
  }
  if (too_many_names(text)) return 0;
  std::optional<Network> net;
  try {
    net.emplace(parse(which, text, options));
  } catch (const Error& e) {
    const std::string m = e.what();
    FUZZ_CHECK(!m.empty() && m.find('\n') == std::string::npos, "message over several lines: %s", m.c_str());
    FUZZ_CHECK(m.rfind("fuzz", 0) == 0 || (which == 4 && m.rfind("slingshot options '", 0) == 0),
               "message without the file: %s", m.c_str());
    return 0;
  }
  check_network(*net);
  const Network again = parse(which, text, options);
  FUZZ_CHECK(again.digest() == net->digest(), "read twice: %s and %s", net->digest().c_str(), again.digest().c_str());
  return 0;
}
