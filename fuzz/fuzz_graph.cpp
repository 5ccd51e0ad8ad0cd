// Graph files (parse_graph_network). Beyond not crashing: an accepted network writes out and
// reads back to the same wiring (digest), links, capacities, kinds and routing, and every
// route of its default routing between two endpoints is a chain of its links that ends at the
// destination (or one error line: a table may lack entries).
#include <cstdint>
#include <optional>
#include <string>

#include "invariant.hpp"
#include "optiq/core/error.hpp"
#include "optiq/core/network.hpp"
#include "optiq/core/routing.hpp"

using namespace optiq;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  std::optional<Network> parsed;
  try {
    parsed.emplace(parse_graph_network(text, "fuzz", "graph:fuzz"));
  } catch (const Error&) {
    return 0;
  }
  const Network& n = *parsed;
  FUZZ_CHECK(n.num_vertices() >= 1 && n.num_vertices() <= kMaxVertices && n.num_links() <= kMaxLinks, "%d vertices",
             n.num_vertices());
  const Network back = parse_graph_network(network_to_graph_json(n), "again", "graph:again");
  FUZZ_CHECK(back.digest() == n.digest() && back.num_links() == n.num_links(), "written and read back: %s -> %s",
             n.digest().c_str(), back.digest().c_str());
  for (LinkId l = 0; l < n.num_links(); ++l)
    FUZZ_CHECK(back.capacity(l) == n.capacity(l) && back.link_name(l) == n.link_name(l), "link %d", l);
  for (NodeId v = 0; v < n.num_vertices(); ++v) FUZZ_CHECK(back.kind(v) == n.kind(v), "vertex %d", v);
  FUZZ_CHECK((back.torus() != nullptr) == (n.torus() != nullptr), "the torus hint is lost");
  const auto routing = make_routing(n.default_routing(), n);
  const auto& ends = n.endpoints();
  for (std::size_t i = 0; i < ends.size() && i < 8; ++i)
    for (std::size_t j = 0; j < ends.size() && j < 8; ++j) {
      LinkPath path;
      try {
        path = routing->route(ends[i], ends[j]);
      } catch (const Error&) {
        continue;  // unreachable, or a table without the entry: refused, not broken
      }
      NodeId at = ends[i];
      for (LinkId l : path) {
        FUZZ_CHECK(n.has_link(l) && n.link_src(l) == at, "route %d->%d breaks at %d", ends[i], ends[j], at);
        at = n.link_dst(l);
      }
      FUZZ_CHECK(at == ends[j], "route %d->%d ends at %d", ends[i], ends[j], at);
    }
  return 0;
}
