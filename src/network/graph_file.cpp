// `graph:FILE`: a network in networkx's node-link JSON (docs/graph-format.md, with its schema
// docs/graph.schema.json).
#include <algorithm>
#include <cmath>
#include <fstream>
#include <map>
#include <sstream>

#include "util/json.hpp"
#include "optiq/core/error.hpp"
#include "optiq/core/network.hpp"
#include "optiq/core/routing.hpp"

namespace optiq {

namespace {

// A forwarding table whose entries for one destination run in a circle would send a packet
// round forever: refused when the file is read, so every command that reads it refuses it alike.
// Each vertex is walked once per destination (stamps instead of clearing per destination).
void check_no_loops(const std::vector<std::vector<std::pair<NodeId, LinkId>>>& next, const Network& net,
                    const std::string& where) {
  std::vector<std::pair<NodeId, NodeId>> starts;  // (destination, vertex with an entry for it)
  for (NodeId v = 0; v < static_cast<NodeId>(next.size()); ++v)
    for (const auto& [dst, link] : next[v]) starts.push_back({dst, v});
  std::sort(starts.begin(), starts.end());
  std::vector<NodeId> stamp(next.size(), -1);   // the destination a vertex was last walked for
  std::vector<char> open(next.size(), 0);       // on the walk being made now
  std::vector<NodeId> walk;
  for (const auto& [dst, start] : starts) {
    walk.clear();
    NodeId v = start;
    bool looped = false;
    while (v != dst) {
      if (stamp[v] == dst) {  // walked before: on this walk, a loop; on an earlier one, known to end
        looped = open[v];
        break;
      }
      stamp[v] = dst;
      open[v] = 1;
      walk.push_back(v);
      const auto& row = next[v];
      const auto it = std::lower_bound(row.begin(), row.end(), std::make_pair(dst, LinkId{-1}));
      if (it == row.end() || it->first != dst) break;  // no entry: a route through here fails when asked for
      v = net.link_dst(it->second);
    }
    if (looped)
      throw Error(where + ": the routes to node " + net.vertex_name(dst) + " loop through node " + net.vertex_name(v));
    for (NodeId w : walk) open[w] = 0;
  }
}

VertexKind kind_value(const json::Value& v, const std::string& where) {
  const std::string& k = json::as_string(v, where);
  if (k == "endpoint") return VertexKind::Endpoint;
  if (k == "switch") return VertexKind::Switch;
  if (k == "io") return VertexKind::Io;
  throw Error(where + ": unknown kind '" + k + "' (known: endpoint, switch, io)");
}

// networkx writes node ids as numbers or strings; both name a vertex, the file's order numbers them.
std::string id_key(const json::Value& v, const std::string& where) {
  if (v.is_string()) return "s" + v.get<std::string>();
  if (v.is_number_integer()) return "i" + v.dump();
  throw Error(where + ": a node id is a whole number or a string, got " + (v.is_null() ? "null" : v.dump()));
}

std::string id_text(const json::Value& v) { return v.is_string() ? v.get<std::string>() : v.dump(); }

}  // namespace

Network parse_graph_network(const std::string& text, const std::string& origin, const std::string& spec) {
  const json::Value doc = json::parse(text, origin);
  if (!doc.is_object()) throw Error(origin + ": expected a JSON object with \"nodes\" and \"links\"");
  const bool directed = [&] {
    const auto it = doc.find("directed");
    if (it == doc.end()) return true;
    if (!it->is_boolean()) throw Error(origin + ": directed: expected true or false");
    return it->get<bool>();
  }();
  const char* links_key = doc.contains("links") ? "links" : doc.contains("edges") ? "edges" : "links";

  Network::Builder b;
  std::map<std::string, NodeId> vertex;
  const auto& nodes = json::as_array(json::member(doc, "nodes", origin), origin + ": nodes");
  if (nodes.empty()) throw Error(origin + ": nodes: a network needs at least one vertex");
  if (static_cast<long long>(nodes.size()) > kMaxVertices)
    throw Error(origin + ": nodes: more than " + std::to_string(kMaxVertices) + " vertices");
  for (std::size_t i = 0; i < nodes.size(); ++i) {
    const std::string where = origin + ": nodes[" + std::to_string(i) + "]";
    const std::string key = id_key(json::member(nodes[i], "id", where), where + ".id");
    const auto kind = nodes[i].find("kind");
    const VertexKind k = kind == nodes[i].end() ? VertexKind::Endpoint : kind_value(*kind, where + ".kind");
    const NodeId v = b.add_vertex(k, id_text(nodes[i]["id"]));
    if (!vertex.emplace(key, v).second)
      throw Error(where + ".id: node " + id_text(nodes[i]["id"]) + " is listed twice");
  }
  auto vertex_of = [&](const json::Value& v, const std::string& where) {
    const auto it = vertex.find(id_key(v, where));
    if (it == vertex.end()) throw Error(where + ": no node has the id " + id_text(v));
    return it->second;
  };

  const auto& links = json::as_array(json::member(doc, links_key, origin), origin + ": " + links_key);
  for (std::size_t i = 0; i < links.size(); ++i) {
    const std::string where = origin + ": " + links_key + "[" + std::to_string(i) + "]";
    const NodeId s = vertex_of(json::member(links[i], "source", where), where + ".source");
    const NodeId t = vertex_of(json::member(links[i], "target", where), where + ".target");
    const json::Value& c = json::member(links[i], "capacity", where);
    if (!c.is_number() || !(c.get<double>() > 0) || !std::isfinite(c.get<double>()))
      throw Error(where + ".capacity: expected a positive number of bytes/s, got " + c.dump());
    std::string name;
    if (const auto n = links[i].find("name"); n != links[i].end()) {
      name = json::as_string(*n, where + ".name");
      if (name.empty()) throw Error(where + ".name: a link name is not empty");
    }
    try {
      if (directed) {
        b.add_link(s, t, c.get<double>(), name);
      } else {  // one link each way, named NAME> and NAME< when the file names it
        b.add_link(s, t, c.get<double>(), name.empty() ? "" : name + ">");
        b.add_link(t, s, c.get<double>(), name.empty() ? "" : name + "<");
      }
    } catch (const Error& e) {
      throw Error(where + ": " + e.what());
    }
  }

  if (const auto g = doc.find("graph"); g != doc.end() && g->is_object() && g->contains("torus")) {
    const std::string where = origin + ": graph.torus";
    const json::Value& t = (*g)["torus"];
    std::vector<int> sizes;
    std::vector<bool> wrap;
    for (const auto& v : json::as_array(json::member(t, "sizes", where), where + ".sizes")) {
      const auto size = json::as_int(v, where + ".sizes");
      if (size < 1 || size > kMaxVertices) throw Error(where + ".sizes: " + std::to_string(size) + " is not a dimension size");
      sizes.push_back(static_cast<int>(size));
    }
    for (const auto& v : json::as_array(json::member(t, "wrap", where), where + ".wrap")) {
      if (!v.is_boolean()) throw Error(where + ".wrap: expected true or false per dimension");
      wrap.push_back(v.get<bool>());
    }
    try {
      b.set_torus_hint(std::make_shared<const TorusShape>(sizes, wrap));
    } catch (const Error& e) {
      throw Error(where + ": " + e.what());
    }
  }

  if (const auto g = doc.find("graph"); g != doc.end() && g->is_object() && g->contains("hosts")) {
    const json::Value& h = (*g)["hosts"];
    if (!h.is_boolean()) throw Error(origin + ": graph.hosts: expected true or false");
    if (h.get<bool>()) b.set_hosts_named();
  }

  std::string routing = "shortest";
  if (const auto r = doc.find("routing"); r != doc.end()) {
    if (r->is_string()) {
      routing = r->get<std::string>();
      if (routing == "table") throw Error(origin + ": routing: a table is given as {\"table\": {...}}");
    } else {
      const std::string where = origin + ": routing.table";
      const json::Value& table = json::member(*r, "table", origin + ": routing");
      if (!table.is_object()) throw Error(where + ": expected an object of nodes");
      std::vector<std::vector<std::pair<NodeId, LinkId>>> next(b.num_vertices());
      // Link names are known once the network is built; read the table against a first build.
      const Network names = [&] {
        try {
          return Network::Builder(b).build(spec, "shortest");
        } catch (const Error& e) {
          throw Error(origin + ": " + e.what());
        }
      }();
      for (const auto& [at, row] : table.items()) {
        const std::string rw = where + "." + at;
        const auto v = vertex.find("s" + at) != vertex.end() ? vertex.find("s" + at) : vertex.find("i" + at);
        if (v == vertex.end()) throw Error(rw + ": no node has the id " + at);
        if (!row.is_object()) throw Error(rw + ": expected an object of destination: link name");
        for (const auto& [dest, link] : row.items()) {
          const auto d = vertex.find("s" + dest) != vertex.end() ? vertex.find("s" + dest) : vertex.find("i" + dest);
          if (d == vertex.end()) throw Error(rw + "." + dest + ": no node has the id " + dest);
          const LinkId l = names.link_named(json::as_string(link, rw + "." + dest));
          if (l < 0) throw Error(rw + "." + dest + ": no link is named '" + link.get<std::string>() + "'");
          if (names.link_src(l) != v->second)
            throw Error(rw + "." + dest + ": link '" + link.get<std::string>() + "' does not leave node " + at);
          next[v->second].push_back({d->second, l});
        }
        std::sort(next[v->second].begin(), next[v->second].end());
      }
      check_no_loops(next, names, where);
      b.set_forwarding_table(std::move(next));
      routing = "table";
    }
  }
  try {
    Network net = std::move(b).build(spec, routing);
    make_routing(routing, net);  // a routing the network can have: bgq, dor, simgrid need the torus hint
    return net;
  } catch (const Error& e) {
    throw Error(origin + ": " + e.what());
  }
}

std::string network_to_graph_json(const Network& net, const RoutingModel* routing) {
  // A network that names its hosts keeps every vertex's name as its id (the runtime places
  // ranks by them); any other is written by vertex number.
  std::vector<std::string> ids(net.num_vertices());
  if (net.hosts_named()) {
    std::map<std::string, NodeId> seen;
    for (NodeId v = 0; v < net.num_vertices(); ++v) {
      ids[v] = net.vertex_name(v).empty() ? std::to_string(v) : net.vertex_name(v);
      if (!seen.emplace(ids[v], v).second)
        throw Error("vertices " + std::to_string(seen[ids[v]]) + " and " + std::to_string(v) + " are both named '" +
                    ids[v] + "'; a graph file needs unique node ids");
    }
  }
  auto id = [&](NodeId v) { return net.hosts_named() ? json::Ordered(ids[v]) : json::Ordered(v); };
  auto key = [&](NodeId v) { return net.hosts_named() ? ids[v] : std::to_string(v); };
  json::Ordered nodes = json::Ordered::array(), links = json::Ordered::array();
  for (NodeId v = 0; v < net.num_vertices(); ++v)
    nodes.push_back(json::Ordered::object({{"id", id(v)}, {"kind", kind_name(net.kind(v))}}));
  for (LinkId l = 0; l < net.num_links(); ++l)
    links.push_back(json::Ordered::object({{"source", id(net.link_src(l))}, {"target", id(net.link_dst(l))},
                                          {"capacity", net.capacity(l)}, {"name", net.link_name(l)}}));
  json::Ordered graph = json::Ordered::object();
  if (net.hosts_named()) graph["hosts"] = true;
  if (const TorusShape* t = net.torus()) {
    std::vector<bool> wrap;
    for (int d = 0; d < t->dims(); ++d) wrap.push_back(t->wraps(d));
    graph["torus"] = json::Ordered::object({{"sizes", t->sizes()}, {"wrap", wrap}});
  }
  json::Ordered doc = json::Ordered::object({{"directed", true}, {"multigraph", true}, {"graph", std::move(graph)},
                                             {"nodes", std::move(nodes)}, {"links", std::move(links)}});
  if (routing) {
    // The routes as a table: every vertex on a route to t forwards by the link the route takes
    // there, which reproduces every route only when that link depends on (vertex, t) alone.
    std::vector<std::map<NodeId, LinkId>> next(net.num_vertices());
    for (NodeId t : net.endpoints())
      for (NodeId s : net.endpoints()) {
        NodeId at = s;
        for (LinkId l : routing->route(s, t)) {
          if (net.link_src(l) != at)  // a table reproduces paths only (docs/model.md)
            throw Error("routing '" + routing->name() + "' is not a table: its route from " + std::to_string(s) +
                        " to " + std::to_string(t) + " is not a path (link " + net.link_name(l) +
                        " does not leave vertex " + std::to_string(at) + ")");
          at = net.link_dst(l);
          const auto [it, fresh] = next[net.link_src(l)].emplace(t, l);
          if (!fresh && it->second != l)
            throw Error("routing '" + routing->name() + "' is not a table: vertex " + std::to_string(net.link_src(l)) +
                        " forwards packets for " + std::to_string(t) + " by more than one link");
        }
      }
    json::Ordered table = json::Ordered::object();
    for (NodeId v = 0; v < net.num_vertices(); ++v) {
      if (next[v].empty()) continue;
      json::Ordered row = json::Ordered::object();
      for (const auto& [t, l] : next[v]) row[key(t)] = net.link_name(l);
      table[key(v)] = std::move(row);
    }
    doc["routing"] = json::Ordered::object({{"table", std::move(table)}});
  } else {
    doc["routing"] = "shortest";
  }
  return doc.dump(1) + "\n";
}

Network read_graph_network(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw Error("cannot read graph file '" + path + "'");
  std::ostringstream buf;
  buf << in.rdbuf();
  return parse_graph_network(buf.str(), path, "graph:" + path);
}

}  // namespace optiq
