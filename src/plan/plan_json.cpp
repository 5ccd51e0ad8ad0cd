#include <algorithm>
#include <cmath>
#include <fstream>
#include <sstream>

#include "util/json.hpp"
#include "optiq/core/error.hpp"
#include "optiq/core/metrics.hpp"
#include "optiq/core/paths.hpp"
#include "optiq/core/plan_io.hpp"
#include "optiq/core/routing.hpp"

namespace optiq {

std::string plan_to_json(const Plan& plan, const Network& topo) {
  // One job per line keeps large plans readable and diffable; each line is a compact document.
  std::ostringstream out;
  out << "{\"format\":\"optiq-plan\",\"version\":" << kPlanFormatVersion << ",\n \"topology\":"
      << json::quote(plan.topology) << ",\"network\":" << json::quote(topo.digest())
      << ",\"routing\":" << json::quote(plan.routing)
      << ",\"planner\":" << json::quote(plan.planner);
  if (plan.seconds > 0) out << ",\"seconds\":" << json::Ordered(plan.seconds).dump();
  out << ",\n \"jobs\":[";
  for (std::size_t j = 0; j < plan.jobs.size(); ++j) {
    const JobPlan& jp = plan.jobs[j];
    json::Ordered paths = json::Ordered::array();
    for (const PathShare& share : jp.paths) {
      json::Ordered links = json::Ordered::array();
      for (LinkId l : share.links) links.push_back(topo.link_name(l));
      paths.push_back(json::Ordered::object({{"bytes", share.bytes},
                                           {"nodes", path_nodes(topo, jp.job.src, share.links)},
                                           {"links", std::move(links)}}));
    }
    out << (j ? ",\n  " : "\n  ")
        << json::Ordered::object({{"src", jp.job.src}, {"dst", jp.job.dst}, {"bytes", jp.job.bytes}, {"paths", std::move(paths)}})
               .dump();
  }
  out << "\n]}\n";
  return out.str();
}

namespace {

NodeId node_value(const json::Value& v, const Network& topo, const std::string& where) {
  const auto id = json::as_int(v, where);
  if (id < 0 || id >= topo.num_vertices())
    throw Error(where + ": node " + std::to_string(id) + " is outside the topology (0.." +
                std::to_string(topo.num_vertices() - 1) + ")");
  return static_cast<NodeId>(id);
}

// Version 1 names each hop by the port it leaves by ("D+"), which only a torus has; version 2
// by the link's name.
PathShare read_path(const json::Value& v, const Network& topo, const Job& job, int version, const std::string& where) {
  PathShare share;
  share.bytes = json::as_uint(json::member(v, "bytes", where), where + ".bytes");
  const char* hop_key = version == 1 ? "ports" : "links";
  const auto& nodes = json::as_array(json::member(v, "nodes", where), where + ".nodes");
  const auto& hops = json::as_array(json::member(v, hop_key, where), where + "." + hop_key);
  if (nodes.empty() || hops.size() + 1 != nodes.size())
    throw Error(where + ": a path needs one more node than " + hop_key + " (" + std::to_string(nodes.size()) +
                " nodes, " + std::to_string(hops.size()) + " " + hop_key + ")");
  if (hops.size() > static_cast<std::size_t>(topo.num_links()))  // before reading what validation refuses
    throw Error(where + ": " + std::to_string(hops.size()) + " hops, more than the network's " +
                std::to_string(topo.num_links()) + " links");
  NodeId at = node_value(nodes[0], topo, where + ".nodes[0]");
  if (at != job.src) throw Error(where + ": path starts at node " + std::to_string(at) + ", not at the job's source");
  for (std::size_t i = 0; i < hops.size(); ++i) {
    const std::string hw = where + "." + hop_key + "[" + std::to_string(i) + "]";
    const std::string& label = json::as_string(hops[i], hw);
    LinkId l = -1;
    if (version == 1) {
      if (label.size() == 2 && (label[1] == '+' || label[1] == '-') && label[0] >= 'A' &&
          label[0] - 'A' < topo.torus()->dims())
        l = topo.torus()->link(at, label[0] - 'A', label[1] == '+' ? +1 : -1);
      if (l < 0) throw Error(hw + ": node " + std::to_string(at) + " has no port '" + label + "'");
    } else {
      l = topo.link_named(label);
      if (l < 0) throw Error(hw + ": the network has no link named '" + label + "'");
      if (topo.link_src(l) != at)
        throw Error(hw + ": link " + label + " leaves node " + std::to_string(topo.link_src(l)) + ", not " +
                    std::to_string(at));
    }
    const NodeId next = node_value(nodes[i + 1], topo, where + ".nodes[" + std::to_string(i + 1) + "]");
    if (topo.link_dst(l) != next)
      throw Error(hw + ": " + (version == 1 ? "port " : "link ") + label + " of node " + std::to_string(at) +
                  " leads to node " + std::to_string(topo.link_dst(l)) + ", not " + std::to_string(next));
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
  if (version != 1 && version != kPlanFormatVersion)
    throw Error(origin + ": plan format version " + std::to_string(version) + " is not supported (expected 1 or " +
                std::to_string(kPlanFormatVersion) + ")");
  Plan plan;
  plan.topology = json::as_string(json::member(doc, "topology", origin), origin + ": topology");
  plan.routing = json::as_string(json::member(doc, "routing", origin), origin + ": routing");
  plan.planner = json::as_string(json::member(doc, "planner", origin), origin + ": planner");
  if (doc.contains("seconds")) {
    plan.seconds = json::as_number(doc["seconds"], origin + ": seconds");
    if (!(plan.seconds >= 0) || !std::isfinite(plan.seconds))
      throw Error(origin + ": seconds must be a finite number of seconds, at least 0");
  }
  const Network topo = [&] {
    try {
      Network t = parse_network(plan.topology);
      make_routing(plan.routing, t);  // rejects an unknown routing name
      return t;
    } catch (const Error& e) {
      throw Error(origin + ": " + e.what());
    }
  }();
  if (version == 1 && !topo.torus())
    throw Error(origin + ": a version 1 plan names ports, which only tori and meshes have");
  if (version >= 2) {
    const std::string& digest = json::as_string(json::member(doc, "network", origin), origin + ": network");
    if (digest != topo.digest())
      throw Error(origin + ": the plan was made for another network (digest " + digest + "; '" + plan.topology +
                  "' is " + topo.digest() + " here)");
  }
  const auto& jobs = json::as_array(json::member(doc, "jobs", origin), origin + ": jobs");
  if (jobs.size() > kMaxFileJobs)
    throw Error(origin + ": jobs: " + std::to_string(jobs.size()) + " jobs, more than the limit of " +
                std::to_string(kMaxFileJobs) + " a plan file may hold");
  std::size_t path_count = 0;  // every path is a flow of the schedules: bounded as jobs are
  for (std::size_t j = 0; j < jobs.size(); ++j) {
    const std::string where = origin + ": jobs[" + std::to_string(j) + "]";
    JobPlan jp;
    jp.job.src = node_value(json::member(jobs[j], "src", where), topo, where + ".src");
    jp.job.dst = node_value(json::member(jobs[j], "dst", where), topo, where + ".dst");
    jp.job.bytes = json::as_uint(json::member(jobs[j], "bytes", where), where + ".bytes");
    const auto& paths = json::as_array(json::member(jobs[j], "paths", where), where + ".paths");
    path_count += paths.size();
    if (path_count > kMaxFileJobs)
      throw Error(where + ".paths: more than " + std::to_string(kMaxFileJobs) +
                  " paths in all, the limit of a plan file");
    for (std::size_t p = 0; p < paths.size(); ++p)
      jp.paths.push_back(read_path(paths[p], topo, jp.job, static_cast<int>(version),
                                   where + ".paths[" + std::to_string(p) + "]"));
    plan.jobs.push_back(std::move(jp));
  }
  try {
    validate_plan(plan, topo);
  } catch (const Error& e) {
    throw Error(origin + ": " + e.what());
  }
  if (plan.seconds > 0) {
    const double predicted = compute_metrics(plan, topo).predicted_seconds;
    const double most = std::max(kMaxStatedSecondsFactor * predicted, kMaxStatedSecondsFloor);
    if (plan.seconds > most)
      throw Error(origin + ": seconds " + json::Ordered(plan.seconds).dump() + " is more than a plan may state: " +
                  json::Ordered(most).dump() + " s, 1000 times its predicted " + json::Ordered(predicted).dump() +
                  " s on its links or 1 s");
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

void save_plan(const Plan& plan, const Network& topo, const std::string& path) {
  std::ofstream out(path, std::ios::binary);
  if (!out) throw Error("cannot write plan file '" + path + "'");
  out << plan_to_json(plan, topo);
  if (!out.flush()) throw Error("failed writing plan file '" + path + "'");
}

}  // namespace optiq
