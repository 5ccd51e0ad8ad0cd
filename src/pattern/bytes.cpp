#include <cctype>
#include <cmath>
#include <cstdint>
#include <map>
#include <stdexcept>

#include "optiq/core/bytes.hpp"
#include "optiq/core/error.hpp"
#include "optiq/core/pattern.hpp"

namespace optiq {

namespace {

Error too_large(const std::string& text) {
  return Error("byte size too large: '" + text + "' (at most " + std::to_string(kMaxBytes) + " bytes)");
}

}  // namespace

Bytes parse_bytes(const std::string& text) {
  static const std::map<std::string, double> units = {
      {"", 1},           {"B", 1},           {"k", 1e3},          {"K", 1e3},          {"kB", 1e3},
      {"KB", 1e3},       {"M", 1e6},         {"MB", 1e6},         {"G", 1e9},          {"GB", 1e9},
      {"T", 1e12},       {"TB", 1e12},       {"Ki", 1024.0},      {"KiB", 1024.0},     {"Mi", 1048576.0},
      {"MiB", 1048576.0}, {"Gi", 1073741824.0}, {"GiB", 1073741824.0}, {"Ti", 1099511627776.0},
      {"TiB", 1099511627776.0},
  };
  size_t i = 0;
  while (i < text.size() && (std::isdigit(static_cast<unsigned char>(text[i])) || text[i] == '.')) ++i;
  const std::string number = text.substr(0, i);
  const std::string unit = text.substr(i);
  auto it = units.find(unit);
  if (number.empty() || number == "." || it == units.end() || number.find('.') != number.rfind('.'))
    throw Error("bad byte size '" + text + "' (expected e.g. 8MiB, 64KiB, 1000000)");
  if (number.find('.') == std::string::npos) {  // exact integer arithmetic where possible
    const auto factor = static_cast<Bytes>(it->second);
    Bytes base = 0;
    try {
      base = std::stoull(number);
    } catch (const std::out_of_range&) {
      throw too_large(text);
    }
    if (base > kMaxBytes / factor) throw too_large(text);
    return base * factor;
  }
  double value = 0;
  try {
    value = std::stod(number) * it->second;
  } catch (const std::out_of_range&) {  // more digits than a double holds
    throw too_large(text);
  }
  if (!(value < 0x1p63)) throw too_large(text);  // 2^63 = kMaxBytes + 1, exactly a double
  if (value != std::floor(value)) throw Error("byte size '" + text + "' is not a whole number of bytes");
  return static_cast<Bytes>(value);
}

Bytes total_bytes(const std::vector<Job>& jobs) {
  Bytes total = 0;
  for (const Job& j : jobs) total = checked_add(total, j.bytes, "the jobs' bytes add up to more");
  return total;
}

std::string format_bytes(Bytes bytes) {
  static const char* names[] = {"TiB", "GiB", "MiB", "KiB"};
  static const Bytes factors[] = {1ULL << 40, 1ULL << 30, 1ULL << 20, 1ULL << 10};
  for (int i = 0; i < 4; ++i)
    if (bytes >= factors[i] && bytes % factors[i] == 0) return std::to_string(bytes / factors[i]) + names[i];
  return std::to_string(bytes);
}

}  // namespace optiq
