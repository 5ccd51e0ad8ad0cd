// Reading SimGrid's topo_parameters of FAT_TREE and DRAGONFLY clusters from a topology spec.
#include <vector>

#include "optiq/core/dragonfly.hpp"
#include "optiq/core/error.hpp"
#include "optiq/core/fat_tree.hpp"

namespace optiq {

namespace {

std::vector<std::string> split(const std::string& text, char sep) {
  std::vector<std::string> parts;
  std::size_t pos = 0;
  while (true) {
    const std::size_t end = text.find(sep, pos);
    parts.push_back(text.substr(pos, end == std::string::npos ? std::string::npos : end - pos));
    if (end == std::string::npos) return parts;
    pos = end + 1;
  }
}

// A decimal number, optionally signed and surrounded by blanks. Values beyond nine digits are
// refused here: no count that large fits the network limits.
int number(const std::string& field, const std::string& what, const std::string& spec) {
  std::size_t a = field.find_first_not_of(" \t"), b = field.find_last_not_of(" \t");
  const std::string s = a == std::string::npos ? "" : field.substr(a, b - a + 1);
  std::size_t digits = s.size() > 0 && (s[0] == '-' || s[0] == '+') ? 1 : 0;
  bool ok = s.size() > digits && s.size() - digits <= 9;
  for (std::size_t i = digits; ok && i < s.size(); ++i) ok = s[i] >= '0' && s[i] <= '9';
  if (!ok) throw Error("bad " + what + " '" + field + "' in topology '" + spec + "'");
  return std::stoi(s);
}

std::vector<int> numbers(const std::string& field, const std::string& what, const std::string& spec) {
  std::vector<int> out;
  for (const std::string& part : split(field, ',')) out.push_back(number(part, what, spec));
  return out;
}

}  // namespace

FatTreeParams parse_fat_tree_params(const std::string& text, const std::string& spec) {
  const std::vector<std::string> fields = split(text, ';');
  if (fields.size() != 4)
    throw Error("topology '" + spec + "' needs 4 fields separated by ';' (levels; children per switch; parents per " +
                "node; parallel cables, one number per level each), got " + std::to_string(fields.size()));
  const int levels = number(fields[0], "level count", spec);
  if (levels < 1) throw Error("topology '" + spec + "' needs at least 1 level, got " + std::to_string(levels));
  if (levels > kMaxFatTreeLevels)
    throw Error("topology '" + spec + "' has more than " + std::to_string(kMaxFatTreeLevels) + " levels");
  FatTreeParams p;
  const char* names[] = {"children count", "parents count", "parallel cable count"};
  std::vector<int>* vectors[] = {&p.down, &p.up, &p.cables};
  for (int k = 0; k < 3; ++k) {
    const std::vector<std::string> parts = split(fields[k + 1], ',');
    if (static_cast<int>(parts.size()) != levels)
      throw Error("topology '" + spec + "': " + std::to_string(levels) + " levels but " +
                  std::to_string(parts.size()) + " " + names[k] + "s");
    *vectors[k] = numbers(fields[k + 1], names[k], spec);
  }
  return p;
}

DragonflyParams parse_dragonfly_params(const std::string& text, const std::string& spec) {
  const std::vector<std::string> fields = split(text, ';');
  const std::string usage = " (groups,blue cables; chassis,black cables; routers,green cables; hosts per router)";
  if (fields.size() != 4)
    throw Error("topology '" + spec + "' needs 4 fields separated by ';'" + usage + ", got " +
                std::to_string(fields.size()));
  int* slots[3][2];
  DragonflyParams p;
  slots[0][0] = &p.groups, slots[0][1] = &p.blue;
  slots[1][0] = &p.chassis, slots[1][1] = &p.black;
  slots[2][0] = &p.routers, slots[2][1] = &p.green;
  const char* names[3][2] = {{"group count", "blue cable count"},
                             {"chassis count", "black cable count"},
                             {"router count", "green cable count"}};
  for (int k = 0; k < 3; ++k) {
    const std::vector<std::string> parts = split(fields[k], ',');
    if (parts.size() != 2)
      throw Error("topology '" + spec + "': field " + std::to_string(k + 1) + " ('" + fields[k] +
                  "') needs two numbers separated by ','" + usage);
    for (int i = 0; i < 2; ++i) *slots[k][i] = number(parts[i], names[k][i], spec);
  }
  p.nodes = number(fields[3], "hosts per router", spec);
  return p;
}

}  // namespace optiq
