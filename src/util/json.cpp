#include "util/json.hpp"

#include <set>
#include <vector>

#include "optiq/core/error.hpp"

namespace optiq::json {

namespace {

constexpr int kMaxDepth = 64;

// nlohmann reports "... parse error at line L, column C: <reason>"; keep only the reason, the
// place is recomputed the same way for every message.
std::string reason_of(const std::string& what) {
  const auto column = what.find("column ");
  const auto colon = column == std::string::npos ? std::string::npos : what.find(": ", column);
  return colon == std::string::npos ? what : what.substr(colon + 2);
}

std::string place(const std::string& text, std::size_t byte) {
  const std::size_t pos = byte > 0 ? byte - 1 : 0;
  int line = 1, col = 1;
  for (std::size_t i = 0; i < pos && i < text.size(); ++i) {
    if (text[i] == '\n') ++line, col = 1;
    else ++col;
  }
  return "line " + std::to_string(line) + ", column " + std::to_string(col);
}

// The offending value for a message: numbers in full, containers only by kind.
std::string describe(const Value& v) {
  if (v.is_object()) return "an object";
  if (v.is_array()) return "an array";
  if (v.is_string()) return "a string";
  return v.dump();
}

struct Refusal {  // thrown from the parser callback, which has no position to report
  std::string what;
};

}  // namespace

Value parse(const std::string& text, const std::string& origin) {
  std::vector<std::set<std::string>> open;  // member names seen in each enclosing object
  const Value::parser_callback_t strict = [&](int depth, Value::parse_event_t event, Value& parsed) {
    using E = Value::parse_event_t;
    if ((event == E::object_start || event == E::array_start) && depth >= kMaxDepth)
      throw Refusal{"nesting deeper than " + std::to_string(kMaxDepth) + " levels"};
    if (event == E::object_start) open.emplace_back();
    if (event == E::object_end) open.pop_back();
    if (event == E::key && !open.back().insert(parsed.get_ref<const std::string&>()).second)
      throw Refusal{"member " + parsed.dump() + " appears twice in one object"};
    return true;
  };
  try {
    return Value::parse(text, strict);
  } catch (const Refusal& r) {
    throw Error(origin + ": invalid JSON: " + r.what);
  } catch (const Value::parse_error& e) {
    throw Error(origin + ": invalid JSON at " + place(text, e.byte) + ": " + reason_of(e.what()));
  } catch (const Value::exception& e) {  // a number beyond double's range
    throw Error(origin + ": invalid JSON: " + reason_of(e.what()));
  }
}

const Value& member(const Value& object, const char* key, const std::string& where) {
  if (!object.is_object()) throw Error(where + ": expected an object");
  const auto it = object.find(key);
  if (it == object.end()) throw Error(where + ": missing \"" + key + "\"");
  return *it;
}

const Value::array_t& as_array(const Value& v, const std::string& where) {
  if (!v.is_array()) throw Error(where + ": expected an array");
  return v.get_ref<const Value::array_t&>();
}

const std::string& as_string(const Value& v, const std::string& where) {
  if (!v.is_string()) throw Error(where + ": expected a string");
  return v.get_ref<const std::string&>();
}

// Integers beyond 64 bits arrive as floating-point numbers, and are refused with them.
std::uint64_t as_uint(const Value& v, const std::string& where) {
  if (!v.is_number_unsigned()) throw Error(where + ": expected a non-negative whole number, got " + describe(v));
  return v.get<std::uint64_t>();
}

std::int64_t as_int(const Value& v, const std::string& where) {
  if (v.is_number_unsigned() && v.get<std::uint64_t>() > static_cast<std::uint64_t>(INT64_MAX))
    throw Error(where + ": number out of range: " + v.dump());
  if (!v.is_number_integer()) throw Error(where + ": expected a whole number, got " + describe(v));
  return v.get<std::int64_t>();
}

double as_number(const Value& v, const std::string& where) {
  if (!v.is_number()) throw Error(where + ": expected a number, got " + describe(v));
  return v.get<double>();
}

std::string quote(const std::string& s) {
  try {
    return Value(s).dump();
  } catch (const Value::type_error&) {
    throw Error("text is not valid UTF-8: " + Value(s).dump(-1, ' ', true, Value::error_handler_t::replace));
  }
}

}  // namespace optiq::json
