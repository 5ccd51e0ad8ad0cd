// `ibnetdiscover:FILE`: the topology file rdma-core's ibnetdiscover prints. Read in two passes:
// the blocks and their port lines first (peers may be described further down), then the cables,
// each seen from one or both of its ends. include/optiq/core/import.hpp states the model.
#include <algorithm>
#include <cctype>
#include <cstdint>
#include <cstdio>
#include <map>
#include <unordered_map>

#include "network/import_common.hpp"
#include "optiq/core/error.hpp"
#include "optiq/core/import.hpp"

namespace optiq {

namespace {

struct Device {
  char type;  // 'S' switch, 'H' channel adapter (host), 'R' router
  std::uint64_t guid;
  int ports;
  std::string description;
  int line;
};

struct Port {
  int device, port;
  char peer_type;
  std::uint64_t peer_guid;
  int peer_port;
  double capacity;
  int line;
};

const char* type_name(char type) { return type == 'S' ? "switch" : type == 'H' ? "Ca" : "router"; }

std::string guid_text(char type, std::uint64_t guid) {
  char buf[24];
  std::snprintf(buf, sizeof buf, "%c-%016llx", type, static_cast<unsigned long long>(guid));
  return buf;
}

// A cursor over one line, failing with the line's place.
class Cursor {
 public:
  Cursor(const std::string& text, std::string where) : s_(text), where_(std::move(where)) {}
  [[noreturn]] void fail(const std::string& why) const { throw Error(where_ + ": " + why); }
  bool done() const { return k_ >= s_.size(); }
  char peek() const { return done() ? '\0' : s_[k_]; }
  void blanks() {
    while (!done() && (s_[k_] == ' ' || s_[k_] == '\t')) ++k_;
  }
  bool take(char c) {
    if (peek() != c) return false;
    ++k_;
    return true;
  }
  void expect(char c, const char* what) {
    if (!take(c)) fail(std::string("malformed line: expected ") + what);
  }
  long long number(int max_digits, const char* what) {
    const std::size_t start = k_;
    while (!done() && std::isdigit(static_cast<unsigned char>(s_[k_]))) ++k_;
    if (k_ == start || k_ - start > static_cast<std::size_t>(max_digits))
      fail(std::string("malformed line: expected ") + what);
    return std::stoll(s_.substr(start, k_ - start));
  }
  std::uint64_t hex(const char* what) {
    const std::size_t start = k_;
    while (!done() && std::isxdigit(static_cast<unsigned char>(s_[k_]))) ++k_;
    if (k_ == start || k_ - start > 16) fail(std::string("malformed line: expected ") + what);
    return std::stoull(s_.substr(start, k_ - start), nullptr, 16);
  }
  // "X-<guid>" in double quotes; returns X.
  char node_id(std::uint64_t& guid) {
    expect('"', "a quoted node id like \"S-<guid>\"");
    const char type = peek();
    if (type != 'S' && type != 'H' && type != 'R')
      fail("malformed line: a node id is \"S-\", \"H-\" or \"R-\" and a guid");
    ++k_;
    expect('-', "'-' in the node id");
    guid = hex("a guid of at most 16 hex digits");
    expect('"', "the closing quote of the node id");
    return type;
  }
  // "[ext N]" after a port number, as ibnetdiscover -g prints it.
  void external_port() {
    if (s_.compare(k_, 5, "[ext ") != 0) return;
    k_ += 5;
    number(3, "an external port number");
    expect(']', "']' after the external port number");
  }
  std::string rest() const { return done() ? std::string() : s_.substr(k_); }

 private:
  const std::string& s_;
  std::string where_;
  std::size_t k_ = 0;
};

bool starts_with(const std::string& s, const char* prefix) { return s.rfind(prefix, 0) == 0; }

// The link's width and speed: the first word after the last quote (the peer's description) that
// starts with a digit and holds an 'x', e.g. "4xEDR".
double capacity_of(const std::string& comment, const std::string& where) {
  const std::size_t quote = comment.rfind('"');
  std::size_t k = quote == std::string::npos ? 0 : quote + 1;
  while (k < comment.size()) {
    while (k < comment.size() && std::isspace(static_cast<unsigned char>(comment[k]))) ++k;
    const std::size_t start = k;
    while (k < comment.size() && !std::isspace(static_cast<unsigned char>(comment[k]))) ++k;
    const std::string word = comment.substr(start, k - start);
    if (!word.empty() && std::isdigit(static_cast<unsigned char>(word[0])) && word.find('x') != std::string::npos) {
      try {
        return ib_link_bandwidth(word);
      } catch (const Error& e) {
        throw Error(where + ": " + e.what());
      }
    }
  }
  throw Error(where + ": no link width and speed (like 4xEDR) on the port line");
}

class Reader {
 public:
  explicit Reader(const std::string& origin) : origin_(origin) {}

  Network read(const std::string& text, const std::string& spec) {
    const std::vector<std::string> lines = import::split_lines(text);
    for (std::size_t k = 0; k < lines.size(); ++k) line(lines[k], static_cast<int>(k) + 1);
    if (devices_.empty()) throw Error(origin_ + ": no Switch or Ca blocks: is this ibnetdiscover's output?");
    return build(spec);
  }

 private:
  std::string where(int line) const { return origin_ + ":" + std::to_string(line); }

  void line(std::string s, int number) {
    while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.pop_back();
    std::size_t lead = 0;
    while (lead < s.size() && (s[lead] == ' ' || s[lead] == '\t')) ++lead;
    s.erase(0, lead);
    if (s.empty() || s[0] == '#') return;
    // Lines about the device that precede its block, and -g's chassis lines: nothing to read.
    static const char* const skipped[] = {"vendid=", "devid=",  "sysimgguid=", "switchguid=",
                                          "caguid=", "rtguid=", "Chassis ",    "Hostname:"};
    for (const char* skip : skipped)
      if (starts_with(s, skip)) return;
    if (starts_with(s, "Switch") || starts_with(s, "Ca") || starts_with(s, "Rt")) return header(s, number);
    if (s[0] == '[') return port(s, number);
    throw Error(where(number) + ": malformed line: '" + s.substr(0, 60) + "'");
  }

  // Switch 36 "S-0002c903000a0a22"   # "MF0;switch-6e4bf0:SX60XX/U1" enhanced port 0 lid 1 lmc 0
  // Ca     2 "H-0002c903000a0b44"    # "node01 mlx4_0"
  void header(const std::string& s, int number) {
    Cursor c(s, where(number));
    const char type = s[0] == 'S' ? 'S' : s[0] == 'C' ? 'H' : 'R';
    const std::size_t word = type == 'S' ? 6 : 2;
    if (s.size() == word || (s[word] != ' ' && s[word] != '\t'))
      throw Error(where(number) + ": malformed line: '" + s.substr(0, 60) + "'");
    for (std::size_t i = 0; i < word; ++i) c.take(s[i]);
    c.blanks();
    Device d{type, 0, static_cast<int>(c.number(3, "the number of ports")), "", number};
    c.blanks();
    const char id = c.node_id(d.guid);
    if (id != type) c.fail(std::string("a ") + type_name(type) + " block with the id of a " + type_name(id));
    c.blanks();
    const std::string comment = c.rest();
    const std::size_t open = comment.find('"'), close = comment.rfind('"');
    if (comment.empty() || comment[0] != '#' || open == std::string::npos || close == open)
      c.fail("malformed line: expected the # \"description\" after the node id");
    d.description = comment.substr(open + 1, close - open - 1);
    const auto [it, fresh] = index_.emplace(d.guid, static_cast<int>(devices_.size()));
    if (!fresh)
      throw Error(where(number) + ": " + guid_text(type, d.guid) + " is described twice (first at line " +
                  std::to_string(devices_[it->second].line) + ")");
    devices_.push_back(std::move(d));
    current_ = it->second;
  }

  // [3]             "S-0002c90300c5ba90"[35]               # "switch2" lid 5 4xQDR
  // [1](2c903000a0b45)  "S-0002c903000a0a22"[1]            # lid 3 lmc 0 "MF0;sw" lid 1 4xFDR
  // and with -g "[ext N]" after either port, with -f " s=.. w=.. v=.." at the end.
  void port(const std::string& s, int number) {
    if (current_ < 0) throw Error(where(number) + ": a port line outside a Switch or Ca block");
    Cursor c(s, where(number));
    Port p{current_, 0, 0, 0, 0, 0.0, number};
    const Device& d = devices_[current_];
    c.expect('[', "'['");
    p.port = static_cast<int>(c.number(3, "a port number"));
    c.expect(']', "']' after the port number");
    c.external_port();
    if (c.take('(')) {
      c.hex("the port guid");
      c.expect(')', "')' after the port guid");
    }
    c.blanks();
    p.peer_type = c.node_id(p.peer_guid);
    c.expect('[', "'[' before the peer's port number");
    p.peer_port = static_cast<int>(c.number(3, "the peer's port number"));
    c.expect(']', "']' after the peer's port number");
    c.external_port();
    c.blanks();
    if (c.take('(')) {
      c.hex("the peer's port guid");
      c.expect(')', "')' after the peer's port guid");
      c.blanks();
    }
    const std::string comment = c.rest();
    if (comment.empty() || comment[0] != '#')
      c.fail("malformed line: expected '#' and the peer's description, lid, width and speed");
    if (p.port < 1 || p.port > d.ports)
      c.fail("port " + std::to_string(p.port) + " of a " + std::to_string(d.ports) + "-port " + type_name(d.type));
    p.capacity = capacity_of(comment, where(number));
    const auto [it, fresh] = port_index_.emplace(std::make_pair(current_, p.port), static_cast<int>(ports_.size()));
    if (!fresh)
      c.fail("port " + std::to_string(p.port) + " of " + guid_text(d.type, d.guid) +
             " is listed twice (first at line " + std::to_string(ports_[it->second].line) + ")");
    ports_.push_back(p);
  }

  // Vertex names: hosts by the first word of their Ca's description, switches (and routers) by
  // their description, made unique with the guid where switches share one.
  std::vector<std::string> names() const {
    std::map<std::string, int> uses;
    for (const Device& d : devices_)
      if (d.type != 'H') ++uses[d.description];
    std::vector<std::string> name(devices_.size());
    for (std::size_t i = 0; i < devices_.size(); ++i) {
      const Device& d = devices_[i];
      if (d.type == 'H') {
        const std::size_t start = d.description.find_first_not_of(" \t");
        if (start == std::string::npos)
          throw Error(where(d.line) + ": " + guid_text(d.type, d.guid) + " has no description to name its host");
        name[i] = d.description.substr(start, d.description.find_first_of(" \t", start) - start);
      } else if (d.description.empty()) {
        name[i] = guid_text(d.type, d.guid);
      } else {
        name[i] = uses[d.description] > 1 ? d.description + " " + guid_text(d.type, d.guid) : d.description;
      }
    }
    return name;
  }

  Network build(const std::string& spec) {
    const std::vector<std::string> name = names();
    import::Fabric f;
    std::vector<NodeId> vertex(devices_.size(), -1);
    for (std::size_t i = 0; i < devices_.size(); ++i)
      if (devices_[i].type == 'H') vertex[i] = f.host(name[i]);
    for (std::size_t i = 0; i < devices_.size(); ++i)
      if (devices_[i].type != 'H') vertex[i] = f.add_switch(name[i]);

    // Each cable once: from the end whose (device, port) comes first, or from the only end
    // listed. Switch-to-switch cables first (see slurm_topology.cpp: ties in "shortest").
    std::vector<std::pair<int, double>> cables;  // (the port line it is read from, capacity)
    for (const Port& p : ports_) {
      const auto peer = index_.find(p.peer_guid);
      if (peer == index_.end())
        throw Error(where(p.line) + ": port " + std::to_string(p.port) + " leads to " +
                    guid_text(p.peer_type, p.peer_guid) + ", which the file does not describe (is it cut short?)");
      const Device& q = devices_[peer->second];
      if (q.type != p.peer_type)
        throw Error(where(p.line) + ": " + guid_text(p.peer_type, p.peer_guid) + " is described as a " +
                    type_name(q.type) + " at line " + std::to_string(q.line));
      if (p.peer_port < 1 || p.peer_port > q.ports)
        throw Error(where(p.line) + ": port " + std::to_string(p.peer_port) + " of " + guid_text(q.type, q.guid) +
                    ", a " + std::to_string(q.ports) + "-port " + type_name(q.type));
      const auto back = port_index_.find({peer->second, p.peer_port});
      double capacity = p.capacity;
      if (back != port_index_.end()) {
        const Port& r = ports_[back->second];
        if (r.peer_guid != devices_[p.device].guid || r.peer_port != p.port)
          throw Error(where(p.line) + ": port " + std::to_string(p.port) + " leads to port " +
                      std::to_string(p.peer_port) + " of " + guid_text(q.type, q.guid) + ", but line " +
                      std::to_string(r.line) + " has that port lead to port " + std::to_string(r.peer_port) + " of " +
                      guid_text(r.peer_type, r.peer_guid));
        // Read from the other end, the one whose (device, port) comes first.
        if (std::make_pair(peer->second, p.peer_port) < std::make_pair(p.device, p.port)) continue;
        capacity = std::min(capacity, r.capacity);  // the two ends agree but for rounding; the slower counts
      }
      if (vertex[p.device] == vertex[peer->second])
        throw Error(where(p.line) + ": a cable from '" + name[p.device] + "' to itself");
      cables.push_back({static_cast<int>(&p - ports_.data()), capacity});
    }
    if (!f.has_hosts()) throw Error(origin_ + ": no Ca blocks: a network without hosts");
    for (int pass = 0; pass < 2; ++pass)
      for (const auto& [k, capacity] : cables) {
        const Port& p = ports_[k];
        const bool hosts = devices_[p.device].type == 'H' || p.peer_type == 'H';
        if (hosts == (pass == 1)) f.cable(vertex[p.device], vertex[index_.at(p.peer_guid)], capacity);
      }
    const std::vector<int> part = f.components();
    for (NodeId v = 1; v < f.num_vertices(); ++v)
      if (part[v] != part[0])
        throw Error(origin_ + ": '" + f.name(0) + "' and '" + f.name(v) +
                    "' are not joined by any route (no cables, or only through a host, and hosts do not forward; optiq "
                    "plans on one connected network)");
    return std::move(f).build(spec, origin_);
  }

  const std::string& origin_;
  std::vector<Device> devices_;
  std::unordered_map<std::uint64_t, int> index_;  // guid to device
  std::vector<Port> ports_;
  std::map<std::pair<int, int>, int> port_index_;  // (device, port) to its port line
  int current_ = -1;
};

struct Speed {
  const char* name;
  double gbps;        // signalling rate per lane
  double efficiency;  // of the line encoding
};

}  // namespace

double ib_link_bandwidth(const std::string& text) {
  static const Speed speeds[] = {
      {"SDR", 2.5, 0.8},           {"DDR", 5.0, 0.8},           {"QDR", 10.0, 0.8},
      {"FDR10", 10.3125, 64.0 / 66}, {"FDR", 14.0625, 64.0 / 66}, {"EDR", 25.78125, 64.0 / 66},
      {"HDR", 53.125, 64.0 / 66},  {"NDR", 106.25, 64.0 / 66},  {"XDR", 212.5, 64.0 / 66},
  };
  const std::size_t x = text.find('x');
  const std::string width = text.substr(0, x), speed = x == std::string::npos ? "" : text.substr(x + 1);
  int lanes = 0;
  for (int w : {1, 2, 4, 8, 12})
    if (width == std::to_string(w)) lanes = w;
  if (!lanes) throw Error("unknown link width in '" + text + "' (known: 1x, 2x, 4x, 8x, 12x)");
  for (const Speed& s : speeds)
    if (speed == s.name) return lanes * s.gbps * s.efficiency * 1e9 / 8;
  throw Error("unknown link speed in '" + text + "' (known: SDR, DDR, QDR, FDR10, FDR, EDR, HDR, NDR, XDR)");
}

Network parse_ibnetdiscover(const std::string& text, const std::string& origin, const std::string& spec) {
  return Reader(origin).read(text, spec);
}

Network read_ibnetdiscover(const std::string& path) {
  return parse_ibnetdiscover(import::read_file(path, "ibnetdiscover file"), path, "ibnetdiscover:" + path);
}

}  // namespace optiq
