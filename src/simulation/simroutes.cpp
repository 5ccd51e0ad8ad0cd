// optiq-simroutes PLATFORM [SRC_HOST ...]: prints the links SimGrid routes through, one line per
// host pair: "src dst link link ...". With host names after the platform, only routes from
// those hosts are printed; otherwise every ordered pair of distinct hosts.
#include <simgrid/s4u.hpp>

#include <cstdio>
#include <string>
#include <vector>

namespace sg4 = simgrid::s4u;

int main(int argc, char** argv) {
  sg4::Engine engine(&argc, argv);
  if (argc < 2) {
    std::fprintf(stderr, "usage: optiq-simroutes PLATFORM.xml [SRC_HOST ...]\n");
    return 2;
  }
  engine.load_platform(argv[1]);
  const std::vector<sg4::Host*> hosts = engine.get_all_hosts();
  std::vector<sg4::Host*> sources;
  for (int i = 2; i < argc; ++i) {
    sg4::Host* h = engine.host_by_name_or_null(argv[i]);
    if (h == nullptr) {
      std::fprintf(stderr, "optiq-simroutes: no host '%s' in %s\n", argv[i], argv[1]);
      return 2;
    }
    sources.push_back(h);
  }
  if (sources.empty()) sources = hosts;
  std::vector<sg4::Link*> links;
  for (const sg4::Host* a : sources)
    for (const sg4::Host* b : hosts) {
      if (a == b) continue;
      links.clear();
      double latency = 0;
      a->route_to(b, links, &latency);
      std::string line = a->get_name() + " " + b->get_name();
      for (const sg4::Link* l : links) line += " " + l->get_name();
      std::puts(line.c_str());
    }
  return 0;
}
