#include "json.hpp"

#include <cctype>
#include <cstdio>
#include <limits>

#include "optiq/error.hpp"

namespace optiq::json {

namespace {

class Parser {
 public:
  Parser(const std::string& text, const std::string& origin) : s_(text), origin_(origin) {}

  Value document() {
    Value v = value(0);
    skip_space();
    if (pos_ != s_.size()) fail("unexpected text after the document");
    return v;
  }

 private:
  [[noreturn]] void fail(const std::string& what) const {
    int line = 1, col = 1;
    for (std::size_t i = 0; i < pos_ && i < s_.size(); ++i) {
      if (s_[i] == '\n') ++line, col = 1;
      else ++col;
    }
    throw Error(origin_ + ": invalid JSON at line " + std::to_string(line) + ", column " + std::to_string(col) +
                ": " + what);
  }
  void skip_space() {
    while (pos_ < s_.size() && (s_[pos_] == ' ' || s_[pos_] == '\n' || s_[pos_] == '\t' || s_[pos_] == '\r')) ++pos_;
  }
  bool eat(char c) {
    skip_space();
    if (pos_ < s_.size() && s_[pos_] == c) {
      ++pos_;
      return true;
    }
    return false;
  }
  void expect(char c) {
    if (!eat(c)) fail(std::string("expected '") + c + "'");
  }
  void literal(const char* word) {
    for (const char* p = word; *p; ++p, ++pos_)
      if (pos_ >= s_.size() || s_[pos_] != *p) fail(std::string("expected '") + word + "'");
  }

  Value value(int depth) {
    if (depth > 64) fail("nesting too deep");
    skip_space();
    if (pos_ >= s_.size()) fail("unexpected end of input");
    Value v;
    const char c = s_[pos_];
    if (c == '{') {
      ++pos_;
      v.type = Value::Type::Object;
      if (eat('}')) return v;
      do {
        skip_space();
        if (pos_ >= s_.size() || s_[pos_] != '"') fail("expected a member name");
        std::string key = string();
        expect(':');
        v.members.emplace_back(std::move(key), value(depth + 1));
      } while (eat(','));
      expect('}');
    } else if (c == '[') {
      ++pos_;
      v.type = Value::Type::Array;
      if (eat(']')) return v;
      do v.items.push_back(value(depth + 1));
      while (eat(','));
      expect(']');
    } else if (c == '"') {
      v.type = Value::Type::String;
      v.text = string();
    } else if (c == 't') {
      literal("true");
      v.type = Value::Type::Bool;
      v.boolean = true;
    } else if (c == 'f') {
      literal("false");
      v.type = Value::Type::Bool;
    } else if (c == 'n') {
      literal("null");
    } else if (c == '-' || std::isdigit(static_cast<unsigned char>(c))) {
      v.type = Value::Type::Number;
      const std::size_t start = pos_;
      if (s_[pos_] == '-') ++pos_;
      auto digits = [&] {
        const std::size_t d = pos_;
        while (pos_ < s_.size() && std::isdigit(static_cast<unsigned char>(s_[pos_]))) ++pos_;
        if (pos_ == d) fail("malformed number");
      };
      digits();
      if (pos_ < s_.size() && s_[pos_] == '.') ++pos_, digits();
      if (pos_ < s_.size() && (s_[pos_] == 'e' || s_[pos_] == 'E')) {
        ++pos_;
        if (pos_ < s_.size() && (s_[pos_] == '+' || s_[pos_] == '-')) ++pos_;
        digits();
      }
      v.text = s_.substr(start, pos_ - start);
    } else {
      fail(std::string("unexpected character '") + c + "'");
    }
    return v;
  }

  std::string string() {
    ++pos_;  // opening quote
    std::string out;
    while (true) {
      if (pos_ >= s_.size()) fail("unterminated string");
      const char c = s_[pos_++];
      if (c == '"') return out;
      if (static_cast<unsigned char>(c) < 0x20) fail("control character in string");
      if (c != '\\') {
        out += c;
        continue;
      }
      if (pos_ >= s_.size()) fail("unterminated string");
      const char e = s_[pos_++];
      switch (e) {
        case '"': out += '"'; break;
        case '\\': out += '\\'; break;
        case '/': out += '/'; break;
        case 'b': out += '\b'; break;
        case 'f': out += '\f'; break;
        case 'n': out += '\n'; break;
        case 'r': out += '\r'; break;
        case 't': out += '\t'; break;
        case 'u': {
          if (pos_ + 4 > s_.size()) fail("bad \\u escape");
          for (std::size_t i = pos_; i < pos_ + 4; ++i)
            if (!std::isxdigit(static_cast<unsigned char>(s_[i]))) fail("bad \\u escape");
          const unsigned code = std::stoul(s_.substr(pos_, 4), nullptr, 16);
          pos_ += 4;
          if (code < 0x80) out += static_cast<char>(code);
          else if (code < 0x800) out += static_cast<char>(0xC0 | (code >> 6)), out += static_cast<char>(0x80 | (code & 0x3F));
          else
            out += static_cast<char>(0xE0 | (code >> 12)), out += static_cast<char>(0x80 | ((code >> 6) & 0x3F)),
                out += static_cast<char>(0x80 | (code & 0x3F));
          break;
        }
        default: fail("bad escape");
      }
    }
  }

  const std::string& s_;
  const std::string& origin_;
  std::size_t pos_ = 0;
};

}  // namespace

const Value* Value::find(const std::string& key) const {
  for (const auto& m : members)
    if (m.first == key) return &m.second;
  return nullptr;
}

Value parse(const std::string& text, const std::string& origin) { return Parser(text, origin).document(); }

const Value& member(const Value& object, const std::string& key, const std::string& where) {
  if (object.type != Value::Type::Object) throw Error(where + ": expected an object");
  const Value* v = object.find(key);
  if (!v) throw Error(where + ": missing \"" + key + "\"");
  return *v;
}

const std::vector<Value>& as_array(const Value& v, const std::string& where) {
  if (v.type != Value::Type::Array) throw Error(where + ": expected an array");
  return v.items;
}

const std::string& as_string(const Value& v, const std::string& where) {
  if (v.type != Value::Type::String) throw Error(where + ": expected a string");
  return v.text;
}

std::uint64_t as_uint(const Value& v, const std::string& where) {
  if (v.type != Value::Type::Number || v.text.empty() || v.text[0] == '-' ||
      v.text.find_first_of(".eE") != std::string::npos || v.text.size() > 20)
    throw Error(where + ": expected a non-negative whole number, got " + (v.text.empty() ? "non-number" : v.text));
  try {
    return std::stoull(v.text);
  } catch (const std::exception&) {
    throw Error(where + ": number out of range: " + v.text);
  }
}

std::int64_t as_int(const Value& v, const std::string& where) {
  if (v.type != Value::Type::Number || v.text.find_first_of(".eE") != std::string::npos || v.text.size() > 20)
    throw Error(where + ": expected a whole number, got " + (v.text.empty() ? "non-number" : v.text));
  try {
    return std::stoll(v.text);
  } catch (const std::exception&) {
    throw Error(where + ": number out of range: " + v.text);
  }
}

std::string quote(const std::string& s) {
  std::string out = "\"";
  for (char c : s) {
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\t': out += "\\t"; break;
      case '\r': out += "\\r"; break;
      default:
        if (static_cast<unsigned char>(c) < 0x20) {
          char buf[8];
          std::snprintf(buf, sizeof buf, "\\u%04x", c);
          out += buf;
        } else {
          out += c;
        }
    }
  }
  return out + "\"";
}

}  // namespace optiq::json
