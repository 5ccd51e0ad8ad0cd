// liboptiq-platform.so: a SimGrid platform for any optiq network, routed by optiq itself.
//
// smpirun -platform NAME.so loads a copy of this library and calls load_platform(), which reads
// NAME.net beside it (written by optiq.simulation.platform) and builds one zone: a host per
// vertex that is not a switch (node-<v>), one SimGrid link per directed link (its name and
// capacity, shared by the flows that cross it), a loopback per host for the messages a rank sends
// to itself, and a disk on each I/O node. The zone computes each route when SimGrid asks for it,
// with the network's own routing model, so memory grows with the links, not with the square of
// the hosts as a platform listing every route would.
#include <dlfcn.h>

#include <simgrid/kernel/routing/NetPoint.hpp>
#include <simgrid/kernel/routing/NetZoneImpl.hpp>
#include <simgrid/s4u.hpp>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "optiq/core/error.hpp"
#include "optiq/core/network.hpp"
#include "optiq/core/routing.hpp"

namespace {

namespace sg4 = simgrid::s4u;
using simgrid::kernel::routing::NetPoint;
using simgrid::kernel::routing::Route;

struct Description {
  std::string spec, digest;
  double latency = 0, disk_bandwidth = INFINITY;
  std::vector<double> capacities;
};

[[noreturn]] void fail(const std::string& what) {
  std::fprintf(stderr, "optiq platform: %s\n", what.c_str());
  std::exit(2);
}

double parse_number(const std::string& text, const std::string& what) {
  if (text == "inf") return INFINITY;
  char* end = nullptr;
  const double x = std::strtod(text.c_str(), &end);
  if (text.empty() || *end != '\0' || !(x >= 0)) fail("bad " + what + " '" + text + "'");
  return x;
}

// Lines "key value"; capacities as "capacities N" followed by "COUNT VALUE" runs.
Description read_description(const std::string& path) {
  std::ifstream in(path);
  if (!in) fail("cannot read " + path + " (the platform's description, written beside it)");
  Description d;
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    const auto space = line.find(' ');
    const std::string key = line.substr(0, space), value = space == std::string::npos ? "" : line.substr(space + 1);
    if (key == "spec") {
      d.spec = value;
    } else if (key == "digest") {
      d.digest = value;
    } else if (key == "latency") {
      d.latency = parse_number(value, "latency");
    } else if (key == "disk_bandwidth") {
      d.disk_bandwidth = parse_number(value, "disk bandwidth");
    } else if (key == "capacities") {
      const auto n = static_cast<std::size_t>(parse_number(value, "link count"));
      while (d.capacities.size() < n && std::getline(in, line)) {
        std::istringstream run(line);
        std::size_t count = 0;
        std::string cap;
        if (!(run >> count >> cap) || count == 0 || d.capacities.size() + count > n) fail("bad capacity run '" + line + "'");
        d.capacities.insert(d.capacities.end(), count, parse_number(cap, "capacity"));
      }
      if (d.capacities.size() != n) fail(path + " ends before its " + std::to_string(n) + " capacities");
    } else {
      fail("unknown line '" + line + "' in " + path);
    }
  }
  if (d.spec.empty()) fail(path + " names no network");
  return d;
}

// The zone: routes are asked of the routing model, never stored.
class OptiqZone final : public simgrid::kernel::routing::NetZoneImpl {
 public:
  OptiqZone(optiq::Network network, const Description& d)
      : NetZoneImpl("world"), net_(std::move(network)), routing_(optiq::make_routing(net_.default_routing(), net_)) {
    sg4::NetZone* zone = get_iface();
    for (optiq::LinkId l = 0; l < net_.num_links(); ++l)
      links_.push_back(zone->create_link(net_.link_name(l), net_.capacity(l))->set_latency(d.latency)->seal());
    for (optiq::NodeId v = 0; v < net_.num_vertices(); ++v) {
      if (net_.kind(v) == optiq::VertexKind::Switch) continue;
      // A network that names its hosts keeps their names, so the runtime finds each simulated
      // rank's endpoint by MPI_Get_processor_name as on the real machine.
      const bool named = net_.hosts_named() && net_.kind(v) == optiq::VertexKind::Endpoint;
      sg4::Host* host = zone->create_host(named ? net_.vertex_name(v) : "node-" + std::to_string(v), 1e9);
      if (net_.kind(v) == optiq::VertexKind::Io && std::isfinite(d.disk_bandwidth)) {
        // SMPI's MPI-IO refuses a write to a full disk: the size is far beyond any run's bytes.
        host->create_disk("disk", d.disk_bandwidth, d.disk_bandwidth)
            ->set_property("size", "1PiB")
            ->set_property("mount", "/")
            ->seal();
      }
      host->seal();
      if (host->get_netpoint()->id() != vertex_of_.size()) fail("SimGrid numbered the hosts out of order");
      vertex_of_.push_back(v);
      // Messages a rank sends to itself cross a loopback link as fast as a memory copy.
      loopback_.push_back(zone->create_link("loopback-" + std::to_string(v), 100e9)->set_latency(0)->seal());
    }
  }

  void get_local_route(const NetPoint* src, const NetPoint* dst, Route* into, double* latency) override {
    if (src->id() >= vertex_of_.size() || dst->id() >= vertex_of_.size()) fail("route asked between unknown points");
    if (src == dst) {
      add(loopback_[src->id()], into, latency);
      return;
    }
    for (const optiq::LinkId l : routing_->route(vertex_of_[src->id()], vertex_of_[dst->id()])) add(links_[l], into, latency);
  }

 private:
  static void add(const sg4::Link* link, Route* into, double* latency) {
    into->link_list_.push_back(link->get_impl());
    if (latency != nullptr) *latency += link->get_latency();
  }

  optiq::Network net_;
  std::unique_ptr<optiq::RoutingModel> routing_;
  std::vector<optiq::NodeId> vertex_of_;  // SimGrid's id of a host -> its vertex
  std::vector<sg4::Link*> links_, loopback_;
};

std::string own_path() {
  Dl_info info{};
  if (dladdr(reinterpret_cast<void*>(&read_description), &info) == 0 || info.dli_fname == nullptr)
    fail("cannot tell which file the platform library was loaded from");
  return info.dli_fname;
}

}  // namespace

extern "C" void load_platform(const sg4::Engine& /*engine*/);

void load_platform(const sg4::Engine& /*engine*/) {
  std::string path = own_path();
  if (path.size() < 3 || path.compare(path.size() - 3, 3, ".so") != 0) fail("the platform library must end in .so");
  path.replace(path.size() - 3, 3, ".net");
  const Description d = read_description(path);
  try {
    optiq::Network net = optiq::parse_network(d.spec);
    if (net.digest() != d.digest) fail(path + ": " + d.spec + " is not the network the platform was written for");
    if (d.capacities.size() != static_cast<std::size_t>(net.num_links()))
      fail(path + ": " + std::to_string(d.capacities.size()) + " capacities for " + std::to_string(net.num_links()) +
           " links");
    auto* zone = new OptiqZone(net.with_capacities(d.capacities), d);  // the engine owns the root zone
    zone->seal();
  } catch (const optiq::Error& e) {
    fail(path + ": " + e.what());
  }
}
