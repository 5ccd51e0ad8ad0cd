// `slurm:FILE`: Slurm's topology.conf read into a slurm::Topology (network/slurm_topology.hpp),
// and the choice between it and topology.yaml by the file's name.
#include <cctype>

#include "network/import_common.hpp"
#include "network/slurm_topology.hpp"
#include "optiq/core/error.hpp"
#include "optiq/core/import.hpp"

namespace optiq {

namespace {

std::string lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

// Slurm's configuration lines, as its parser reads them: '#' starts a comment unless a backslash
// escapes it, a backslash at the end of a line continues it on the next, and a backslash before
// any other character stands for that character.
std::string without_comment(const std::string& line) {
  int escapes = 0;  // backslashes just before
  for (std::size_t i = 0; i < line.size(); ++i) {
    if (line[i] == '#' && escapes % 2 == 0) return line.substr(0, i);
    escapes = line[i] == '\\' ? escapes + 1 : 0;
  }
  return line;
}

bool continues(const std::string& content) {
  std::size_t escapes = 0;
  while (escapes < content.size() && content[content.size() - 1 - escapes] == '\\') ++escapes;
  return escapes % 2 == 1;
}

std::string unescaped(const std::string& content) {
  std::string out;
  for (std::size_t i = 0; i < content.size(); ++i) {
    if (content[i] == '\\' && i + 1 < content.size()) ++i;
    out += content[i];
  }
  return out;
}

struct Pair {
  std::string key, value;
};

// KEY=VALUE pairs separated by blanks; a value may be double-quoted to hold blanks, as Slurm's
// configuration parser allows.
std::vector<Pair> pairs_of(const std::string& line, const std::string& where) {
  std::vector<Pair> pairs;
  std::size_t k = 0;
  auto blank = [&](std::size_t i) { return std::isspace(static_cast<unsigned char>(line[i])); };
  while (true) {
    while (k < line.size() && blank(k)) ++k;
    if (k == line.size()) return pairs;
    const std::size_t start = k;
    while (k < line.size() && !blank(k) && line[k] != '=') ++k;
    if (k == line.size() || line[k] != '=')
      throw Error(where + ": expected KEY=VALUE, got '" + line.substr(start, k - start) + "'");
    Pair p{line.substr(start, k - start), ""};
    if (p.key.empty()) throw Error(where + ": '=' without a key");
    ++k;
    if (k < line.size() && line[k] == '"') {
      const std::size_t close = line.find('"', k + 1);
      if (close == std::string::npos) throw Error(where + ": " + p.key + ": the quote is never closed");
      p.value = line.substr(k + 1, close - k - 1);
      k = close + 1;
      if (k < line.size() && !blank(k)) throw Error(where + ": " + p.key + ": text after the closing quote");
    } else {
      const std::size_t v = k;
      while (k < line.size() && !blank(k)) ++k;
      p.value = line.substr(v, k - v);
    }
    if (p.value.empty()) throw Error(where + ": " + p.key + " has no value");
    pairs.push_back(std::move(p));
  }
}

long long whole_number(const std::string& text, const std::string& where, const std::string& what) {
  if (text.empty() || text.size() > 10)
    throw Error(where + ": " + what + ": expected a whole number, got '" + text + "'");
  for (char c : text)
    if (!std::isdigit(static_cast<unsigned char>(c)))
      throw Error(where + ": " + what + ": expected a whole number, got '" + text + "'");
  return std::stoll(text);
}

void read_switch(std::vector<Pair>& pairs, int line, const std::string& where, slurm::Topology& t) {
  slurm::Switch s;
  s.name = pairs[0].value;
  s.line = line;
  bool speed = false;
  for (std::size_t i = 1; i < pairs.size(); ++i) {
    const std::string key = lower(pairs[i].key);
    auto once = [&](bool& seen) {
      if (seen) throw Error(where + ": " + pairs[i].key + " is given twice");
      seen = true;
    };
    if (key == "nodes") {
      once(s.has_nodes);
      s.nodes = pairs[i].value;
    } else if (key == "switches") {
      once(s.has_switches);
      s.switches = pairs[i].value;
    } else if (key == "linkspeed") {
      once(speed);
      s.link_speed = whole_number(pairs[i].value, where, "LinkSpeed");
      if (s.link_speed < 1 || s.link_speed > 0xffffffffLL)
        throw Error(where + ": LinkSpeed must be from 1 to 4294967295, got " + pairs[i].value);
    } else {
      throw Error(where + ": unknown key '" + pairs[i].key +
                  "' on a SwitchName line (known: Nodes, Switches, LinkSpeed)");
    }
  }
  t.switches.push_back(std::move(s));
}

void read_block(std::vector<Pair>& pairs, int line, const std::string& where, slurm::Topology& t) {
  slurm::Block b;
  b.name = pairs[0].value;
  b.line = line;
  bool nodes = false;
  for (std::size_t i = 1; i < pairs.size(); ++i) {
    if (lower(pairs[i].key) != "nodes")
      throw Error(where + ": unknown key '" + pairs[i].key + "' on a BlockName line (known: Nodes)");
    if (nodes) throw Error(where + ": " + pairs[i].key + " is given twice");
    nodes = true;
    b.nodes = pairs[i].value;
  }
  if (!nodes) throw Error(where + ": block '" + b.name + "' has no Nodes");
  t.blocks.push_back(std::move(b));
}

void read_block_sizes(const std::vector<Pair>& pairs, int line, const std::string& where, slurm::Topology& t) {
  if (pairs.size() > 1)
    throw Error(where + ": BlockSizes stands on a line of its own, found '" + pairs[1].key + "' after it");
  if (t.block_sizes_line)
    throw Error(where + ": BlockSizes is given twice (first at line " + std::to_string(t.block_sizes_line) + ")");
  t.block_sizes_line = line;
  const std::string& v = pairs[0].value;
  std::size_t pos = 0;
  while (true) {
    const std::size_t comma = v.find(',', pos);
    const std::string item = v.substr(pos, comma == std::string::npos ? std::string::npos : comma - pos);
    t.block_sizes.push_back(whole_number(item, where, "BlockSizes"));
    if (comma == std::string::npos) break;
    pos = comma + 1;
  }
}

slurm::Topology read_conf(const std::string& text, const std::string& origin) {
  slurm::Topology t;
  const std::vector<std::string> lines = import::split_lines(text);
  for (std::size_t k = 0; k < lines.size(); ++k) {
    const int line = static_cast<int>(k) + 1;  // errors name a continued line by its first line
    const std::string where = origin + ":" + std::to_string(line);
    std::string content = without_comment(lines[k]);
    while (continues(content) && k + 1 < lines.size()) {
      content.pop_back();
      content += without_comment(lines[++k]);
    }
    std::vector<Pair> pairs = pairs_of(unescaped(content), where);
    if (pairs.empty()) continue;
    const std::string first = lower(pairs[0].key);
    if (first == "switchname") read_switch(pairs, line, where, t);
    else if (first == "blockname") read_block(pairs, line, where, t);
    else if (first == "blocksizes") read_block_sizes(pairs, line, where, t);
    else if (first == "ringname")
      throw Error(where + ": RingName (topology/ring) is not imported: a ring orders nodes for allocation and "
                          "describes no switches");
    else
      throw Error(where + ": unknown key '" + pairs[0].key +
                  "' (a line starts with SwitchName, BlockName or BlockSizes)");
  }
  return t;
}

bool ends_with(const std::string& s, const std::string& suffix) {
  return s.size() >= suffix.size() && lower(s.substr(s.size() - suffix.size())) == suffix;
}

}  // namespace

Network parse_slurm_topology_conf(const std::string& text, const std::string& origin, double link_bandwidth,
                                  const std::string& spec) {
  return slurm::build_network(read_conf(text, origin), origin, link_bandwidth, spec);
}

Network read_slurm_topology(const std::string& path, double link_bandwidth) {
  const std::string text = import::read_file(path, "Slurm topology file");
  const std::string spec = "slurm:" + path;
  if (ends_with(path, ".yaml") || ends_with(path, ".yml"))
    return parse_slurm_topology_yaml(text, path, link_bandwidth, spec);
  return parse_slurm_topology_conf(text, path, link_bandwidth, spec);
}

}  // namespace optiq
