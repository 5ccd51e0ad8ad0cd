// Checking option values against their records, and finding records by layer and name.
#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstdlib>

#include "optiq/core/pattern.hpp"
#include "options/table.hpp"

namespace optiq {

namespace {

std::string quoted(const std::string& text) {
  std::string out = "'";
  for (std::size_t i = 0; i < text.size() && i < 40; ++i) {
    const unsigned char c = static_cast<unsigned char>(text[i]);
    if (std::isprint(c)) {
      out += text[i];
    } else {
      char hex[8];
      std::snprintf(hex, sizeof hex, "\\x%02x", c);
      out += hex;
    }
  }
  return out + (text.size() > 40 ? "'..." : "'");
}

// Plain ASCII decimals only: what strtod would also take (nan, inf, hex, spaces) is refused.
bool is_integer_text(const std::string& t) {
  std::size_t i = (!t.empty() && (t[0] == '+' || t[0] == '-')) ? 1 : 0;
  if (i == t.size()) return false;
  for (; i < t.size(); ++i)
    if (t[i] < '0' || t[i] > '9') return false;
  return true;
}

bool is_real_text(const std::string& t) {
  std::size_t i = (!t.empty() && (t[0] == '+' || t[0] == '-')) ? 1 : 0;
  std::size_t digits = 0;
  while (i < t.size() && t[i] >= '0' && t[i] <= '9') ++i, ++digits;
  if (i < t.size() && t[i] == '.') {
    ++i;
    while (i < t.size() && t[i] >= '0' && t[i] <= '9') ++i, ++digits;
  }
  if (digits == 0) return false;
  if (i < t.size() && (t[i] == 'e' || t[i] == 'E')) {
    ++i;
    if (i < t.size() && (t[i] == '+' || t[i] == '-')) ++i;
    const std::size_t start = i;
    while (i < t.size() && t[i] >= '0' && t[i] <= '9') ++i;
    if (i == start) return false;
  }
  return i == t.size();
}

std::string range_text(const OptionRecord& r) {
  const std::string lo = options::format_number(r.lo), hi = options::format_number(r.hi);
  std::string out = r.kind == OptionKind::real ? std::string(r.lo_open ? "(" : "[") + lo + ", " + hi + (r.hi_open ? ")" : "]")
                                               : "between " + lo + " and " + hi;
  if (!r.special.empty()) out += " (or " + r.special + " for " + r.special_help + ")";
  return out;
}

bool in_range(const OptionRecord& r, double v) {
  const bool above = r.lo_open ? v > r.lo : v >= r.lo;
  const bool below = r.hi_open ? v < r.hi : v <= r.hi;
  return above && below;
}

// The number a text stands for, by kind, without range checks.
double raw_number(const OptionRecord& r, const std::string& text) {
  switch (r.kind) {
    case OptionKind::integer:
      if (!is_integer_text(text)) throw Error("not a whole number: " + quoted(text));
      return std::strtod(text.c_str(), nullptr);
    case OptionKind::real: {
      if (!is_real_text(text)) throw Error("not a finite decimal number: " + quoted(text));
      const double v = std::strtod(text.c_str(), nullptr);
      if (!std::isfinite(v)) throw Error("not a finite decimal number: " + quoted(text));
      return v;
    }
    case OptionKind::bytes:
      if (text.empty()) throw Error("empty size (expected e.g. 8MiB, 64KiB, 1000000)");
      return static_cast<double>(parse_bytes(text));
    case OptionKind::flag:
      if (text == "1" || text == "yes" || text == "true" || text == "on") return 1;
      if (text == "0" || text == "no" || text == "false" || text == "off") return 0;
      throw Error("expected 1 or 0 (yes or no, true or false), got " + quoted(text));
    case OptionKind::choice:
      for (std::size_t i = 0; i < r.choices.size(); ++i)
        if (r.choices[i] == text) return static_cast<double>(i);
      {
        std::string known;
        for (const auto& c : r.choices) known += (known.empty() ? "" : ", ") + c;
        throw Error("must be one of " + known + ", got " + quoted(text));
      }
    case OptionKind::text:
      return 0;
  }
  return 0;
}

// A special value is a number too ("-1", "0") or, for a real, "inf".
double special_number(const OptionRecord& r) {
  return r.special == "inf" ? HUGE_VAL : raw_number(r, r.special);
}

}  // namespace

std::string OptionRecord::environment_name() const {
  std::string out = "OPTIQ_";
  for (char c : name) out += c == '-' ? '_' : static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return out;
}

std::vector<std::string> option_layers() { return {"planner", "runtime", "io", "simulation"}; }

const std::vector<OptionRecord>& option_records(const std::string& layer) {
  if (layer == "planner") return options::planner_table().records();
  if (layer == "runtime") return options::runtime_table().records();
  if (layer == "io") return options::io_table().records();
  if (layer == "simulation") return options::simulation_records();
  throw Error("no option layer '" + layer + "' (known: planner, runtime, io, simulation)");
}

const OptionRecord& option_record(const std::string& layer, const std::string& name) {
  const auto& records = option_records(layer);
  for (const auto& r : records)
    if (r.name == name) return r;
  std::string known;
  for (const auto& r : records) known += (known.empty() ? "" : ", ") + r.name;
  throw Error("no " + layer + " option '" + name + "' (known: " + known + ")");
}

void check_option_value(const OptionRecord& r, const std::string& text) { option_number(r, text); }

double option_number(const OptionRecord& r, const std::string& text) {
  if (!r.special.empty() && text == r.special) return special_number(r);
  const double v = raw_number(r, text);
  if (r.kind != OptionKind::integer && r.kind != OptionKind::real && r.kind != OptionKind::bytes) return v;
  if (!r.special.empty() && v == special_number(r)) return v;
  if (!in_range(r, v)) throw Error("must be " + std::string(r.kind == OptionKind::real ? "in " : "") + range_text(r) +
                                   ", got " + quoted(text));
  return v;
}

double option_default(const std::string& layer, const std::string& name) {
  const OptionRecord& r = option_record(layer, name);
  return option_number(r, r.default_value);
}

namespace options {

namespace {
OptionRecord make(std::string name, OptionKind kind, std::string def, std::string help) {
  OptionRecord r;
  r.name = std::move(name);
  r.kind = kind;
  r.default_value = std::move(def);
  r.help = std::move(help);
  return r;
}
}  // namespace

OptionRecord integer(std::string name, std::string def, double lo, double hi, std::string help) {
  OptionRecord r = make(std::move(name), OptionKind::integer, std::move(def), std::move(help));
  r.lo = lo, r.hi = hi;
  return r;
}

OptionRecord real(std::string name, std::string def, double lo, double hi, std::string help, bool lo_open,
                  bool hi_open) {
  OptionRecord r = make(std::move(name), OptionKind::real, std::move(def), std::move(help));
  r.lo = lo, r.hi = hi, r.lo_open = lo_open, r.hi_open = hi_open;
  return r;
}

OptionRecord bytes(std::string name, std::string def, double lo, double hi, std::string help) {
  OptionRecord r = make(std::move(name), OptionKind::bytes, std::move(def), std::move(help));
  r.lo = lo, r.hi = hi;
  return r;
}

OptionRecord choice(std::string name, std::string def, std::vector<std::string> choices, std::string help) {
  OptionRecord r = make(std::move(name), OptionKind::choice, std::move(def), std::move(help));
  r.choices = std::move(choices);
  return r;
}

OptionRecord text(std::string name, std::string def, std::string help) {
  return make(std::move(name), OptionKind::text, std::move(def), std::move(help));
}

OptionRecord flag(std::string name, bool def, std::string help) {
  return make(std::move(name), OptionKind::flag, def ? "1" : "0", std::move(help));
}

OptionRecord with_special(OptionRecord record, std::string value, std::string meaning) {
  record.special = std::move(value);
  record.special_help = std::move(meaning);
  return record;
}

std::string format_number(double value) {
  char text[32];
  if (value == std::floor(value) && std::fabs(value) < 1e15) {  // whole numbers as whole numbers: "50", not "5e+01"
    std::snprintf(text, sizeof text, "%.0f", value);
    return text;
  }
  for (int digits = 1; digits <= 17; ++digits) {
    std::snprintf(text, sizeof text, "%.*g", digits, value);
    if (std::strtod(text, nullptr) == value) break;
  }
  return text;
}

std::string bytes_text(Bytes bytes) { return format_bytes(bytes); }

}  // namespace options

}  // namespace optiq
