// `slingshot:FILE[;key=value...]`: a dragonfly built from the xnames of a Slingshot machine's
// hosts, one group per cabinet. include/optiq/core/import.hpp states the model and options.
#include <algorithm>
#include <array>
#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <map>
#include <set>

#include "network/import_common.hpp"
#include "optiq/core/error.hpp"
#include "optiq/core/import.hpp"

namespace optiq {

namespace {

struct Options {
  long long routers = 32, hosts = 0, global = 1;  // hosts 0: from the largest group
  double host_bandwidth = 0, local_bandwidth = 0, global_bandwidth = 0;
};

// x<cabinet>c<chassis>s<slot>b<board>n<node>: the five numbers, in that order.
using Xname = std::array<long long, 5>;

bool parse_xname(const std::string& text, Xname& x) {
  static const char letters[] = {'x', 'c', 's', 'b', 'n'};
  std::size_t k = 0;
  for (int i = 0; i < 5; ++i) {
    if (k >= text.size() || text[k] != letters[i]) return false;
    const std::size_t start = ++k;
    while (k < text.size() && std::isdigit(static_cast<unsigned char>(text[k]))) ++k;
    if (k == start || k - start > 9) return false;
    x[i] = std::stoll(text.substr(start, k - start));
  }
  return k == text.size();
}

Options parse_options(const std::string& text, double link_bandwidth, const std::string& what) {
  Options o;
  double bandwidth = link_bandwidth;
  std::set<std::string> seen;
  bool given_host = false, given_local = false, given_global = false;
  std::size_t pos = 0;
  while (!text.empty()) {
    const std::size_t end = text.find(';', pos);
    const std::string item = text.substr(pos, end == std::string::npos ? std::string::npos : end - pos);
    const std::size_t eq = item.find('=');
    if (item.empty() || eq == std::string::npos || eq == 0 || eq + 1 == item.size())
      throw Error(what + ": expected key=value, got '" + item + "'");
    const std::string key = item.substr(0, eq), value = item.substr(eq + 1);
    if (!seen.insert(key).second) throw Error(what + ": option '" + key + "' is given twice");
    auto whole = [&](long long max) {
      bool digits = value.size() <= 9;
      for (char c : value) digits = digits && std::isdigit(static_cast<unsigned char>(c));
      const long long v = digits ? std::stoll(value) : 0;
      if (!digits || v < 1 || v > max)
        throw Error(what + ": " + key + " must be a whole number from 1 to " + std::to_string(max) + ", got '" + value +
                    "'");
      return v;
    };
    auto rate = [&] {
      errno = 0;
      char* stop = nullptr;
      const double v = std::strtod(value.c_str(), &stop);
      if (errno || stop != value.c_str() + value.size() || !(v > 0) || !std::isfinite(v))
        throw Error(what + ": " + key + " must be a positive number of bytes/s, got '" + value + "'");
      return v;
    };
    if (key == "routers") o.routers = whole(kMaxVertices);
    else if (key == "hosts") o.hosts = whole(kMaxVertices);
    else if (key == "global") o.global = whole(kMaxLinks);
    else if (key == "bandwidth") bandwidth = rate();
    else if (key == "host_bandwidth") o.host_bandwidth = rate(), given_host = true;
    else if (key == "local_bandwidth") o.local_bandwidth = rate(), given_local = true;
    else if (key == "global_bandwidth") o.global_bandwidth = rate(), given_global = true;
    else
      throw Error(what + ": unknown option '" + key +
                  "' (known: routers, hosts, global, bandwidth, host_bandwidth, local_bandwidth, global_bandwidth)");
    if (end == std::string::npos) break;
    pos = end + 1;
  }
  if (!(bandwidth > 0) || !std::isfinite(bandwidth)) throw Error(what + ": the link bandwidth must be positive");
  if (!given_host) o.host_bandwidth = bandwidth;
  if (!given_local) o.local_bandwidth = bandwidth;
  if (!given_global) o.global_bandwidth = bandwidth;
  return o;
}

struct Host {
  Xname x;
  std::string name;
  int line;
};

}  // namespace

Network parse_slingshot(const std::string& text, const std::string& origin, const std::string& options,
                        double link_bandwidth, const std::string& spec) {
  const Options o = parse_options(options, link_bandwidth, "slingshot options '" + options + "'");

  std::map<long long, std::vector<Host>> cabinets;  // by cabinet number: groups in that order
  std::map<Xname, int> xnames;                      // to the line naming them
  std::map<std::string, int> names;
  const std::vector<std::string> lines = import::split_lines(text);
  for (std::size_t k = 0; k < lines.size(); ++k) {
    const int line = static_cast<int>(k) + 1;
    const std::string where = origin + ":" + std::to_string(line);
    std::vector<std::string> words;
    const std::string content = lines[k].substr(0, lines[k].find('#'));
    for (std::size_t i = 0; i < content.size();) {
      while (i < content.size() && std::isspace(static_cast<unsigned char>(content[i]))) ++i;
      const std::size_t start = i;
      while (i < content.size() && !std::isspace(static_cast<unsigned char>(content[i]))) ++i;
      if (i > start) words.push_back(content.substr(start, i - start));
    }
    if (words.empty()) continue;
    if (words.size() > 2)
      throw Error(where + ": expected an xname, or a host name and its xname, got " + std::to_string(words.size()) +
                  " words");
    Host h{{}, words[0], line};
    if (!parse_xname(words.back(), h.x))
      throw Error(where + ": '" + words.back() +
                  "' is not a node's xname like x1000c0s0b0n0 (cabinet, chassis, slot, board, node)");
    if (const auto [it, fresh] = xnames.emplace(h.x, line); !fresh)
      throw Error(where + ": xname " + words.back() + " is listed twice (first at line " + std::to_string(it->second) +
                  ")");
    if (const auto [it, fresh] = names.emplace(h.name, line); !fresh)
      throw Error(where + ": host " + h.name + " is listed twice (first at line " + std::to_string(it->second) + ")");
    if (static_cast<long long>(names.size()) > kMaxVertices)
      throw Error(where + ": more than " + std::to_string(kMaxVertices) + " hosts");
    cabinets[h.x[0]].push_back(std::move(h));
  }
  if (cabinets.empty()) throw Error(origin + ": no hosts (one xname, or a host name and its xname, per line)");

  const long long groups = static_cast<long long>(cabinets.size()), r = o.routers;
  long long largest = 0, hosts = 0;
  for (const auto& [cabinet, list] : cabinets) {
    largest = std::max<long long>(largest, static_cast<long long>(list.size()));
    hosts += static_cast<long long>(list.size());
  }
  const long long per_router = o.hosts ? o.hosts : (largest + r - 1) / r;
  for (const auto& [cabinet, list] : cabinets)
    if (static_cast<long long>(list.size()) > r * per_router)  // r, per_router <= 2^22: no overflow
      throw Error(origin + ": cabinet x" + std::to_string(cabinet) + " has " + std::to_string(list.size()) +
                  " hosts, more than " + std::to_string(r) + " routers x " + std::to_string(per_router) +
                  " hosts per router");
  // Sizes before anything is built: vertices, and cables within groups, between them, to hosts.
  const std::string too_large = origin + ": the dragonfly is too large (at most " + std::to_string(kMaxVertices) +
                                " vertices and " + std::to_string(kMaxLinks) + " links)";
  if (r > (kMaxVertices - hosts) / groups) throw Error(too_large);
  const long long pairs = groups * (groups - 1) / 2;
  if (pairs > 0 && o.global > kMaxLinks / pairs) throw Error(too_large);
  if (2 * (hosts + groups * (r * (r - 1) / 2) + pairs * o.global) > kMaxLinks) throw Error(too_large);

  import::Fabric f;
  std::vector<std::vector<NodeId>> host(groups);
  int g = 0;
  for (auto& [cabinet, list] : cabinets) {
    std::sort(list.begin(), list.end(), [](const Host& a, const Host& b) { return a.x < b.x; });
    for (const Host& h : list) host[g].push_back(f.host(h.name));
    ++g;
  }
  std::vector<std::vector<NodeId>> router(groups);
  g = 0;
  for (const auto& [cabinet, list] : cabinets) {
    for (long long k = 0; k < r; ++k)
      router[g].push_back(f.add_switch("x" + std::to_string(cabinet) + "r" + std::to_string(k)));
    ++g;
  }
  for (g = 0; g < groups; ++g)
    for (long long a = 0; a < r; ++a)
      for (long long b = a + 1; b < r; ++b) f.cable(router[g][a], router[g][b], o.local_bandwidth);
  // Group a's cables to its other groups, in their order, take its routers round-robin; so do b's.
  for (long long a = 0; a < groups; ++a)
    for (long long b = a + 1; b < groups; ++b)
      for (long long k = 0; k < o.global; ++k)
        f.cable(router[a][((b - 1) * o.global + k) % r], router[b][(a * o.global + k) % r], o.global_bandwidth);
  for (g = 0; g < groups; ++g)
    for (std::size_t j = 0; j < host[g].size(); ++j)
      f.cable(router[g][static_cast<long long>(j) / per_router], host[g][j], o.host_bandwidth);
  return std::move(f).build(spec, origin);
}

// The options in key order, so that one network has one spec whichever order they were typed in
// (plan files record the spec and are refused on any other).
std::string canonical_options(const std::string& options) {
  std::vector<std::string> items;
  for (std::size_t pos = 0; !options.empty();) {
    const std::size_t end = options.find(';', pos);
    items.push_back(options.substr(pos, end == std::string::npos ? std::string::npos : end - pos));
    if (end == std::string::npos) break;
    pos = end + 1;
  }
  std::sort(items.begin(), items.end());
  std::string out;
  for (const std::string& item : items) out += ";" + item;
  return out;
}

Network read_slingshot(const std::string& path, const std::string& options, double link_bandwidth) {
  return parse_slingshot(import::read_file(path, "Slingshot host file"), path, options, link_bandwidth,
                         "slingshot:" + path + canonical_options(options));
}

}  // namespace optiq
