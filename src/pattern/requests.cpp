// Request files: one "src dst bytes [priority]" line per job, '#' comments, blank lines ignored.
#include <fstream>
#include <sstream>

#include "optiq/core/bytes.hpp"
#include "optiq/core/error.hpp"
#include "optiq/core/pattern.hpp"

namespace optiq {

namespace {

NodeId parse_node(const std::string& token, int num_nodes, const std::string& where) {
  size_t used = 0;
  long long v = -1;
  try {
    v = std::stoll(token, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (used != token.size() || token.empty()) throw Error(where + ": bad node '" + token + "'");
  if (v < 0 || v >= num_nodes)
    throw Error(where + ": node " + token + " is outside the topology (0.." + std::to_string(num_nodes - 1) + ")");
  return static_cast<NodeId>(v);
}

int parse_priority(const std::string& token, const std::string& where) {
  const bool digits = !token.empty() && token.size() <= 2 &&
                      token.find_first_not_of("0123456789") == std::string::npos;
  if (!digits || std::stoi(token) > kMaxPriority)
    throw Error(where + ": bad priority '" + token + "' (a class from 0, the most urgent, to " +
                std::to_string(kMaxPriority) + ")");
  return std::stoi(token);
}

}  // namespace

std::vector<Job> parse_requests(const std::string& text, int num_nodes, const std::string& origin,
                                std::size_t max_jobs) {
  std::vector<Job> jobs;
  std::istringstream in(text);
  std::string line;
  int lineno = 0;
  Bytes total = 0;
  while (std::getline(in, line)) {
    ++lineno;
    const auto hash = line.find('#');
    if (hash != std::string::npos) line.resize(hash);
    std::istringstream fields(line);
    std::vector<std::string> tok;
    for (std::string t; fields >> t;) tok.push_back(t);
    if (tok.empty()) continue;
    const std::string where = origin + ":" + std::to_string(lineno);
    if (tok.size() != 3 && tok.size() != 4)
      throw Error(where + ": expected 'src dst bytes [priority]', got '" + line + "'");
    Job job;
    job.src = parse_node(tok[0], num_nodes, where);
    job.dst = parse_node(tok[1], num_nodes, where);
    try {
      job.bytes = parse_bytes(tok[2]);
    } catch (const Error& e) {
      throw Error(where + ": " + e.what());
    }
    if (tok.size() == 4) job.priority = parse_priority(tok[3], where);
    total = checked_add(total, job.bytes, where + ": the requests' bytes add up to more");
    if (jobs.size() == max_jobs)
      throw Error(where + ": more than " + std::to_string(max_jobs) + " requests (the limit of a request file)");
    jobs.push_back(job);
  }
  if (jobs.empty()) throw Error(origin + ": no requests found");
  return jobs;
}

std::vector<Job> read_requests(const std::string& path, int num_nodes) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw Error("cannot read request file '" + path + "'");
  std::ostringstream buf;
  buf << in.rdbuf();
  return parse_requests(buf.str(), num_nodes, path);
}

}  // namespace optiq
