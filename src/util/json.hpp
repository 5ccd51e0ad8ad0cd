// Just enough JSON for optiq's own file formats: a strict parser with line/column errors and
// exact 64-bit integers, and a string escaper for writers.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace optiq::json {

struct Value {
  enum class Type { Null, Bool, Number, String, Array, Object };
  Type type = Type::Null;
  bool boolean = false;
  std::string text;  // string contents, or the literal of a number
  std::vector<Value> items;
  std::vector<std::pair<std::string, Value>> members;

  const Value* find(const std::string& key) const;
};

// Throws optiq::Error("<origin>: invalid JSON at line L, column C: ...").
Value parse(const std::string& text, const std::string& origin);

// Accessors that throw optiq::Error naming `where` when the value has the wrong shape.
const Value& member(const Value& object, const std::string& key, const std::string& where);
const std::vector<Value>& as_array(const Value& v, const std::string& where);
const std::string& as_string(const Value& v, const std::string& where);
std::uint64_t as_uint(const Value& v, const std::string& where);
std::int64_t as_int(const Value& v, const std::string& where);

std::string quote(const std::string& s);

}  // namespace optiq::json
