// Reading optiq's own JSON files strictly: errors name the file, line and column, or the
// member that has the wrong shape, as optiq::Error. The parser itself is nlohmann-json's.
#pragma once

#include <cstdint>
#include <string>

#include <nlohmann/json.hpp>

namespace optiq::json {

using Value = nlohmann::json;
using Ordered = nlohmann::ordered_json;  // for writers: members in the order they are added

// Strict RFC 8259 JSON (no leading zeros, valid UTF-8, nothing after the document), with two
// further refusals: a member name repeated within one object (which value would count is a
// matter of parser taste) and nesting deeper than 64 levels.
// Throws optiq::Error("<origin>: invalid JSON at line L, column C: ...").
Value parse(const std::string& text, const std::string& origin);

// Accessors that throw optiq::Error naming `where` when the value has the wrong shape.
const Value& member(const Value& object, const char* key, const std::string& where);
const Value::array_t& as_array(const Value& v, const std::string& where);
const std::string& as_string(const Value& v, const std::string& where);
std::uint64_t as_uint(const Value& v, const std::string& where);
std::int64_t as_int(const Value& v, const std::string& where);
double as_number(const Value& v, const std::string& where);  // any JSON number

// A JSON string literal for s; throws optiq::Error when s is not valid UTF-8.
std::string quote(const std::string& s);

}  // namespace optiq::json
