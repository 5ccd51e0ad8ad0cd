#include <fstream>
#include <sstream>

#include "../util/json.hpp"
#include "optiq/error.hpp"
#include "optiq/paths.hpp"
#include "optiq/plan_io.hpp"
#include "optiq/routing.hpp"

namespace optiq {

std::string plan_to_json(const Plan& plan, const Topology& topo) {
  // One job per line keeps large plans readable and diffable; each line is a compact document.
  std::ostringstream out;
  out << "{\"format\":\"optiq-plan\",\"version\":" << kPlanFormatVersion << ",\n \"topology\":"
      << json::quote(plan.topology) << ",\"routing\":" << json::quote(plan.routing)
      << ",\"planner\":" << json::quote(plan.planner) << ",\n \"jobs\":[";
  for (std::size_t j = 0; j < plan.jobs.size(); ++j) {
    const JobPlan& jp = plan.jobs[j];
    json::Ordered paths = json::Ordered::array();
    for (const PathShare& share : jp.paths) {
      json::Ordered ports = json::Ordered::array();
      for (LinkId l : share.links) ports.push_back(topo.port_label(l));
      paths.push_back(json::Ordered::object({{"bytes", share.bytes},
                                           {"nodes", path_nodes(topo, jp.job.src, share.links)},
                                           {"ports", std::move(ports)}}));
    }
    out << (j ? ",\n  " : "\n  ")
        << json::Ordered::object({{"src", jp.job.src}, {"dst", jp.job.dst}, {"bytes", jp.job.bytes}, {"paths", std::move(paths)}})
               .dump();
  }
  out << "\n]}\n";
  return out.str();
}

namespace {

NodeId node_value(const json::Value& v, const Topology& topo, const std::string& where) {
  const auto id = json::as_int(v, where);
  if (id < 0 || id >= topo.num_nodes())
    throw Error(where + ": node " + std::to_string(id) + " is outside the topology (0.." +
                std::to_string(topo.num_nodes() - 1) + ")");
  return static_cast<NodeId>(id);
}

PathShare read_path(const json::Value& v, const Topology& topo, const Job& job, const std::string& where) {
  PathShare share;
  share.bytes = json::as_uint(json::member(v, "bytes", where), where + ".bytes");
  const auto& nodes = json::as_array(json::member(v, "nodes", where), where + ".nodes");
  const auto& ports = json::as_array(json::member(v, "ports", where), where + ".ports");
  if (nodes.empty() || ports.size() + 1 != nodes.size())
    throw Error(where + ": a path needs one more node than ports (" + std::to_string(nodes.size()) + " nodes, " +
                std::to_string(ports.size()) + " ports)");
  if (ports.size() >= static_cast<std::size_t>(topo.num_nodes()))  // before reading what validation refuses
    throw Error(where + ": " + std::to_string(ports.size()) + " hops cannot be a simple path in " +
                std::to_string(topo.num_nodes()) + " nodes");
  NodeId at = node_value(nodes[0], topo, where + ".nodes[0]");
  if (at != job.src) throw Error(where + ": path starts at node " + std::to_string(at) + ", not at the job's source");
  for (std::size_t i = 0; i < ports.size(); ++i) {
    const std::string pw = where + ".ports[" + std::to_string(i) + "]";
    const std::string& label = json::as_string(ports[i], pw);
    const LinkId l = topo.link_from_label(at, label);
    if (l < 0 || !topo.link_exists(l)) throw Error(pw + ": node " + std::to_string(at) + " has no port '" + label + "'");
    const NodeId next = node_value(nodes[i + 1], topo, where + ".nodes[" + std::to_string(i + 1) + "]");
    if (topo.link_dst(l) != next)
      throw Error(pw + ": port " + label + " of node " + std::to_string(at) + " leads to node " +
                  std::to_string(topo.link_dst(l)) + ", not " + std::to_string(next));
    share.links.push_back(l);
    at = next;
  }
  return share;
}

}  // namespace

Plan plan_from_json(const std::string& text, const std::string& origin) {
  const json::Value doc = json::parse(text, origin);
  const std::string& format = json::as_string(json::member(doc, "format", origin), origin + ": format");
  if (format != "optiq-plan") throw Error(origin + ": not an optiq plan (format '" + format + "')");
  const auto version = json::as_int(json::member(doc, "version", origin), origin + ": version");
  if (version != kPlanFormatVersion)
    throw Error(origin + ": plan format version " + std::to_string(version) + " is not supported (expected " +
                std::to_string(kPlanFormatVersion) + ")");
  Plan plan;
  plan.topology = json::as_string(json::member(doc, "topology", origin), origin + ": topology");
  plan.routing = json::as_string(json::member(doc, "routing", origin), origin + ": routing");
  plan.planner = json::as_string(json::member(doc, "planner", origin), origin + ": planner");
  const Topology topo = [&] {
    try {
      Topology t = parse_topology(plan.topology);
      make_routing(plan.routing, t);  // rejects an unknown routing name
      return t;
    } catch (const Error& e) {
      throw Error(origin + ": " + e.what());
    }
  }();
  const auto& jobs = json::as_array(json::member(doc, "jobs", origin), origin + ": jobs");
  for (std::size_t j = 0; j < jobs.size(); ++j) {
    const std::string where = origin + ": jobs[" + std::to_string(j) + "]";
    JobPlan jp;
    jp.job.src = node_value(json::member(jobs[j], "src", where), topo, where + ".src");
    jp.job.dst = node_value(json::member(jobs[j], "dst", where), topo, where + ".dst");
    jp.job.bytes = json::as_uint(json::member(jobs[j], "bytes", where), where + ".bytes");
    const auto& paths = json::as_array(json::member(jobs[j], "paths", where), where + ".paths");
    for (std::size_t p = 0; p < paths.size(); ++p)
      jp.paths.push_back(read_path(paths[p], topo, jp.job, where + ".paths[" + std::to_string(p) + "]"));
    plan.jobs.push_back(std::move(jp));
  }
  try {
    validate_plan(plan, topo);
  } catch (const Error& e) {
    throw Error(origin + ": " + e.what());
  }
  return plan;
}

Plan load_plan(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw Error("cannot read plan file '" + path + "'");
  std::ostringstream buf;
  buf << in.rdbuf();
  return plan_from_json(buf.str(), path);
}

void save_plan(const Plan& plan, const Topology& topo, const std::string& path) {
  std::ofstream out(path, std::ios::binary);
  if (!out) throw Error("cannot write plan file '" + path + "'");
  out << plan_to_json(plan, topo);
  if (!out.flush()) throw Error("failed writing plan file '" + path + "'");
}

}  // namespace optiq
