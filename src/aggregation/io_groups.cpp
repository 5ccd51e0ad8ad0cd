// Which I/O node each compute node writes through, and where its ranks' bytes land in the
// file of that I/O node's group.
#include <algorithm>
#include <cmath>
#include <map>
#include <numeric>

#include "optiq/core/aggregation.hpp"
#include "optiq/core/bytes.hpp"
#include "optiq/core/error.hpp"
#include "optiq/core/rng.hpp"

namespace optiq {

Bytes IoGroup::file_bytes() const {
  Bytes end = 0;
  for (const auto& list : extents)
    for (const Extent& e : list) end = std::max(end, e.offset + e.bytes);
  return end;
}

namespace {

std::vector<NodeId> io_vertices(const Network& net) {
  std::vector<NodeId> ios;
  for (NodeId v = 0; v < net.num_vertices(); ++v)
    if (net.kind(v) == VertexKind::Io) ios.push_back(v);
  if (ios.empty())
    throw Error("'" + net.spec() + "' has no I/O nodes (BG/Q's I/O side is mira:N+io or bgq:AxBxCxDxE+io)");
  return ios;
}

NodeId nearest_io(const Network& net, const RoutingModel& routing, const std::vector<NodeId>& ios, NodeId node) {
  NodeId best = -1;
  std::size_t best_hops = 0;
  for (NodeId io : ios) {
    const std::size_t hops = routing.route(node, io).size();
    if (hops == 0) continue;  // no route
    if (best < 0 || hops < best_hops) best = io, best_hops = hops;
  }
  if (best < 0) throw Error("node " + std::to_string(node) + " of '" + net.spec() + "' reaches no I/O node");
  return best;
}

}  // namespace

std::vector<NodeId> io_nodes_of_endpoints(const Network& net, const RoutingModel& routing) {
  const std::vector<NodeId> ios = io_vertices(net);
  std::vector<NodeId> of;
  of.reserve(net.endpoints().size());
  for (NodeId node : net.endpoints()) of.push_back(nearest_io(net, routing, ios, node));
  return of;
}

NodeId io_node_of_endpoint(const Network& net, const RoutingModel& routing, NodeId endpoint) {
  if (!net.contains(endpoint) || net.kind(endpoint) != VertexKind::Endpoint)
    throw Error("vertex " + std::to_string(endpoint) + " is not an endpoint of '" + net.spec() + "'");
  return nearest_io(net, routing, io_vertices(net), endpoint);
}

namespace {

// Sorted, with touching pieces joined: a node's ranks are consecutive, so in AoS their bytes
// form one extent.
std::vector<Extent> merged(std::vector<Extent> list) {
  std::sort(list.begin(), list.end(), [](const Extent& a, const Extent& b) { return a.offset < b.offset; });
  std::vector<Extent> out;
  for (const Extent& e : list) {
    if (e.bytes == 0) continue;
    if (!out.empty() && out.back().offset + out.back().bytes == e.offset)
      out.back().bytes += e.bytes;
    else
      out.push_back(e);
  }
  return out;
}

}  // namespace

std::vector<IoGroup> make_io_groups(const Network& net, const RoutingModel& routing, int ranks_per_node,
                                    const std::vector<Bytes>& rank_items, const std::vector<int>& item_sizes,
                                    FileLayout layout) {
  if (ranks_per_node < 1) throw Error("ranks per node must be at least 1, got " + std::to_string(ranks_per_node));
  if (item_sizes.empty()) throw Error("no item sizes given");
  for (int s : item_sizes)
    if (s < 1) throw Error("item sizes must be positive, got " + std::to_string(s));
  const auto& endpoints = net.endpoints();
  const std::size_t ranks = rank_items.size();
  if (ranks > endpoints.size() * static_cast<std::size_t>(ranks_per_node))
    throw Error(std::to_string(ranks) + " ranks at " + std::to_string(ranks_per_node) + " per node need more than the " +
                std::to_string(endpoints.size()) + " nodes of '" + net.spec() + "'");
  const std::vector<NodeId> io_of = io_nodes_of_endpoints(net, routing);

  // Ranks of each group in rank order: the order of the group's file.
  std::map<NodeId, std::vector<std::size_t>> group_ranks;
  for (std::size_t r = 0; r < ranks; ++r) group_ranks[io_of[r / ranks_per_node]].push_back(r);

  std::vector<IoGroup> groups;
  for (const auto& [io, members] : group_ranks) {
    IoGroup g;
    g.io = io;
    std::map<NodeId, std::vector<Extent>> pieces;
    for (std::size_t r : members) pieces[endpoints[r / ranks_per_node]];
    if (layout == FileLayout::Aos) {
      Bytes record = 0;
      for (int s : item_sizes) record = checked_add(record, static_cast<Bytes>(s), "record size");
      Bytes offset = 0;
      for (std::size_t r : members) {
        const Bytes b = checked_mul(rank_items[r], record, "rank " + std::to_string(r) + "'s bytes");
        pieces[endpoints[r / ranks_per_node]].push_back({offset, b});
        offset = checked_add(offset, b, "a group's file");
      }
    } else {
      Bytes items = 0;
      for (std::size_t r : members) items = checked_add(items, rank_items[r], "a group's items");
      Bytes section = 0;
      for (int s : item_sizes) {
        Bytes offset = section;
        for (std::size_t r : members) {
          const Bytes b = checked_mul(rank_items[r], static_cast<Bytes>(s), "rank " + std::to_string(r) + "'s bytes");
          pieces[endpoints[r / ranks_per_node]].push_back({offset, b});
          offset += b;
        }
        section = checked_add(section, checked_mul(items, static_cast<Bytes>(s), "a group's file"), "a group's file");
      }
    }
    for (auto& [node, list] : pieces) {
      g.nodes.push_back(node);
      g.extents.push_back(merged(std::move(list)));
    }
    groups.push_back(std::move(g));
  }
  return groups;
}

std::vector<Bytes> sparse_rank_amounts(int nodes, int ranks_per_node, const std::string& law, double holders,
                                       std::uint64_t seed) {
  if (nodes < 1) throw Error("need at least one node, got " + std::to_string(nodes));
  if (ranks_per_node < 1) throw Error("ranks per node must be at least 1, got " + std::to_string(ranks_per_node));
  if (!(holders > 0 && holders <= 1))
    throw Error("the fraction of nodes holding data must be in (0, 1], got " + std::to_string(holders));
  const std::size_t ranks = static_cast<std::size_t>(nodes) * ranks_per_node;
  // The size law draws per rank through the pattern generator's own code, so "2MiB",
  // "uniform:..." and "pareto:..." mean here what they mean for `optiq plan --bytes`.
  const std::vector<Job> drawn = assign_sizes(std::vector<Pair>(ranks, Pair{0, 0}), law, seed);
  const int holding = std::max(1, static_cast<int>(std::lround(holders * nodes)));
  std::vector<int> order(nodes);
  std::iota(order.begin(), order.end(), 0);
  Rng rng(seed ^ 0x401d3c5ULL);
  for (int i = nodes - 1; i > 0; --i) std::swap(order[i], order[rng.below(static_cast<std::uint64_t>(i) + 1)]);
  std::vector<char> holds(nodes, 0);
  for (int i = 0; i < holding; ++i) holds[order[i]] = 1;
  std::vector<Bytes> amounts(ranks, 0);
  for (std::size_t r = 0; r < ranks; ++r)
    if (holds[r / ranks_per_node]) amounts[r] = drawn[r].bytes;
  return amounts;
}

}  // namespace optiq
