// The YAML subset of util/yaml_subset.hpp: lines are cut into (indentation, content) first,
// comments dropped, then read by recursive descent on indentation. A sequence item that starts
// on its dash's line (`- key: v`) is read as a node at the column after the dash, which is
// what YAML's compact nested notation means.
#include "util/yaml_subset.hpp"

#include <set>

#include "optiq/core/error.hpp"

namespace optiq::yaml {

namespace {

constexpr int kMaxDepth = 64;

struct Line {
  int number;
  int indent;
  std::string text;  // without indentation, comment and trailing blanks; never empty
};

bool is_blank(char c) { return c == ' ' || c == '\t'; }

bool starts_item(const std::string& text) { return text == "-" || text.compare(0, 2, "- ") == 0; }

class Reader {
 public:
  Reader(const std::string& text, const std::string& origin) : origin_(origin) { split(text); }

  Node document() {
    if (lines_.empty()) {
      Node empty;
      empty.null = true;
      empty.line = 1;
      return empty;
    }
    Node root = node(lines_[0].indent, 0);
    if (i_ < lines_.size()) fail(lines_[i_].number, "unexpected indentation (the document ended at a shallower level)");
    return root;
  }

 private:
  [[noreturn]] void fail(int line, const std::string& why) const {
    throw Error(origin_ + ":" + std::to_string(line) + ": " + why);
  }

  // Lines with content, their comments removed; document markers checked here.
  void split(const std::string& text) {
    bool started = false, ended = false;
    std::size_t pos = 0;
    for (int number = 1; pos <= text.size(); ++number) {
      std::size_t end = text.find('\n', pos);
      if (end == std::string::npos) end = text.size();
      std::string raw = text.substr(pos, end - pos);
      pos = end + 1;
      if (!raw.empty() && raw.back() == '\r') raw.pop_back();
      int indent = 0;
      while (indent < static_cast<int>(raw.size()) && raw[indent] == ' ') ++indent;
      std::string content = strip_comment(raw.substr(indent));
      while (!content.empty() && is_blank(content.back())) content.pop_back();
      if (content.empty()) continue;
      if (content[0] == '\t') fail(number, "a tab in the indentation (YAML indents with spaces)");
      if (ended) fail(number, "text after the end of the document ('...')");
      if (indent == 0 && (content == "---" || content.compare(0, 4, "--- ") == 0)) {
        if (started) fail(number, "a second document ('---'); one document per file");
        started = true;
        if (content != "---") fail(number, "content on the '---' line is not supported");
        continue;
      }
      if (indent == 0 && content == "...") {
        ended = true;
        continue;
      }
      if (content[0] == '%') fail(number, "directives ('%') are not supported");
      started = true;
      lines_.push_back({number, indent, std::move(content)});
    }
  }

  // The text before a comment: '#' at the start or after a blank, outside quotes. A quote opens
  // only where a scalar can start (after the start, a blank, '[' or ','), so "it's" is plain.
  static std::string strip_comment(const std::string& s) {
    char quote = 0;
    for (std::size_t k = 0; k < s.size(); ++k) {
      const char c = s[k];
      if (quote) {
        if (quote == '"' && c == '\\') ++k;
        else if (c == quote) {
          if (quote == '\'' && k + 1 < s.size() && s[k + 1] == '\'') ++k;
          else quote = 0;
        }
        continue;
      }
      const bool after_start = k == 0 || is_blank(s[k - 1]) || s[k - 1] == '[' || s[k - 1] == ',';
      if (c == '#' && (k == 0 || is_blank(s[k - 1]))) return s.substr(0, k);
      if ((c == '"' || c == '\'') && after_start) quote = c;
    }
    return s;  // an unclosed quote is reported where the scalar is read
  }

  // The node whose first line is lines_[i_], at `indent`.
  Node node(int indent, int depth) {
    if (depth > kMaxDepth) fail(lines_[i_].number, "nesting deeper than " + std::to_string(kMaxDepth) + " levels");
    const Line& l = lines_[i_];
    if (starts_item(l.text)) return sequence(indent, depth);
    std::string key, rest;
    if (split_key(l.text, l.number, key, rest)) return mapping(indent, depth);
    Node value = inline_value(l.text, l.number);
    ++i_;
    if (i_ < lines_.size() && lines_[i_].indent > indent)
      fail(lines_[i_].number, "a scalar continued on the next line (multi-line scalars are not supported)");
    return value;
  }

  Node sequence(int indent, int depth) {
    Node seq;
    seq.kind = Node::Kind::Sequence;
    seq.line = lines_[i_].number;
    while (i_ < lines_.size() && lines_[i_].indent == indent && starts_item(lines_[i_].text)) {
      Line& l = lines_[i_];
      std::size_t k = 1;
      while (k < l.text.size() && l.text[k] == ' ') ++k;
      if (k == l.text.size()) {  // "-" alone: the item is below, or null
        const int number = l.number;
        ++i_;
        if (i_ < lines_.size() && lines_[i_].indent > indent) {
          seq.items.push_back(node(lines_[i_].indent, depth + 1));
        } else {
          Node null;
          null.null = true;
          null.line = number;
          seq.items.push_back(std::move(null));
        }
      } else {  // "- item": the item starts at the column after the dash
        l.indent += static_cast<int>(k);
        l.text.erase(0, k);
        seq.items.push_back(node(l.indent, depth + 1));
      }
      if (i_ < lines_.size() && lines_[i_].indent > indent)
        fail(lines_[i_].number, "unexpected indentation inside a sequence");
    }
    return seq;
  }

  Node mapping(int indent, int depth) {
    Node map;
    map.kind = Node::Kind::Mapping;
    map.line = lines_[i_].number;
    std::set<std::string> keys;
    while (i_ < lines_.size() && lines_[i_].indent == indent) {
      const Line& l = lines_[i_];
      const int number = l.number;
      std::string key, rest;
      if (starts_item(l.text)) fail(number, "a sequence item where a mapping key was expected");
      if (!split_key(l.text, number, key, rest)) fail(number, "expected 'key: value', got '" + l.text + "'");
      if (!keys.insert(key).second) fail(number, "the key '" + key + "' appears twice in one mapping");
      Node value;
      if (rest.empty()) {
        ++i_;
        if (i_ < lines_.size() && lines_[i_].indent > indent) {
          value = node(lines_[i_].indent, depth + 1);
        } else if (i_ < lines_.size() && lines_[i_].indent == indent && starts_item(lines_[i_].text)) {
          value = sequence(indent, depth + 1);  // "key:" with its items at the key's own column
        } else {
          value.null = true;
          value.line = number;
        }
      } else {
        value = inline_value(rest, number);
        ++i_;
      }
      if (i_ < lines_.size() && lines_[i_].indent > indent)
        fail(lines_[i_].number, "unexpected indentation inside a mapping");
      map.members.push_back({std::move(key), number, std::move(value)});
    }
    return map;
  }

  // "key: rest" or "key:" (rest empty); false when the line is not a mapping entry.
  bool split_key(const std::string& text, int number, std::string& key, std::string& rest) const {
    std::size_t colon;
    if (text[0] == '"' || text[0] == '\'') {
      std::size_t end = 0;
      key = quoted(text, 0, number, end);
      colon = end;
      while (colon < text.size() && text[colon] == ' ') ++colon;
      if (colon >= text.size() || text[colon] != ':') return false;
    } else {
      if (text[0] == '[' || text[0] == '{') return false;
      colon = 0;
      while (true) {
        colon = text.find(':', colon);
        if (colon == std::string::npos) return false;
        if (colon + 1 == text.size() || text[colon + 1] == ' ') break;
        ++colon;
      }
      key = text.substr(0, colon);
      while (!key.empty() && key.back() == ' ') key.pop_back();
      if (key.empty()) fail(number, "a mapping key is empty");
      check_plain(key, number);
    }
    std::size_t v = colon + 1;
    while (v < text.size() && text[v] == ' ') ++v;
    rest = text.substr(v);
    return true;
  }

  // A scalar or flow sequence written on one line.
  Node inline_value(const std::string& text, int number) const {
    Node n;
    n.line = number;
    if (text[0] == '[') return flow_sequence(text, number);
    if (text[0] == '"' || text[0] == '\'') {
      std::size_t end = 0;
      n.text = quoted(text, 0, number, end);
      if (end != text.size()) fail(number, "text after a quoted scalar");
      return n;
    }
    check_plain(text, number);
    if (text.find(": ") != std::string::npos || text.back() == ':')
      fail(number, "a mapping inside a one-line value is not supported ('" + text + "')");
    n.text = text;
    n.null = text == "~" || text == "null" || text == "Null" || text == "NULL";
    return n;
  }

  Node flow_sequence(const std::string& text, int number) const {
    Node seq;
    seq.kind = Node::Kind::Sequence;
    seq.line = number;
    if (text.back() != ']') fail(number, "a flow sequence must end with ']' on its line");
    std::size_t k = 1;
    const std::size_t close = text.size() - 1;
    auto skip = [&] {
      while (k < close && text[k] == ' ') ++k;
    };
    skip();
    if (k == close) return seq;  // []
    while (true) {
      skip();
      Node item;
      item.line = number;
      if (k < close && (text[k] == '"' || text[k] == '\'')) {
        std::size_t end = 0;
        item.text = quoted(text, k, number, end);
        k = end;
      } else {
        const std::size_t start = k;
        while (k < close && text[k] != ',') {
          if (text[k] == '[' || text[k] == ']' || text[k] == '{' || text[k] == '}')
            fail(number,
                 "a bracket inside a flow sequence item (nested collections are not supported; quote the item)");
          ++k;
        }
        item.text = text.substr(start, k - start);
        while (!item.text.empty() && item.text.back() == ' ') item.text.pop_back();
        if (item.text.empty()) fail(number, "an empty item in a flow sequence");
        check_plain(item.text, number);
        item.null = item.text == "~" || item.text == "null" || item.text == "Null" || item.text == "NULL";
      }
      seq.items.push_back(std::move(item));
      skip();
      if (k == close) return seq;
      if (text[k] != ',') fail(number, "expected ',' or ']' in a flow sequence");
      ++k;
    }
  }

  // The quoted scalar starting at text[start]; `end` is set past its closing quote.
  std::string quoted(const std::string& text, std::size_t start, int number, std::size_t& end) const {
    const char q = text[start];
    std::string out;
    for (std::size_t k = start + 1; k < text.size(); ++k) {
      const char c = text[k];
      if (c == q) {
        if (q == '\'' && k + 1 < text.size() && text[k + 1] == '\'') {
          out += '\'';
          ++k;
          continue;
        }
        end = k + 1;
        return out;
      }
      if (q == '"' && c == '\\') {
        if (++k == text.size()) break;
        switch (text[k]) {
          case '\\': out += '\\'; break;
          case '"': out += '"'; break;
          case '/': out += '/'; break;
          case 't': out += '\t'; break;
          case 'n': out += '\n'; break;
          default: fail(number, std::string("the escape '\\") + text[k] + "' is not supported");
        }
        continue;
      }
      out += c;
    }
    fail(number, "a quoted scalar must end on its line");
  }

  // Plain scalars may not start with YAML's indicators this reader does not implement.
  void check_plain(const std::string& s, int number) const {
    switch (s[0]) {
      case '&': fail(number, "anchors ('&') are not supported");
      case '*': fail(number, "aliases ('*') are not supported");
      case '!': fail(number, "tags ('!') are not supported");
      case '|':
      case '>': fail(number, "block scalars ('|', '>') are not supported");
      case '{': fail(number, "flow mappings ('{...}') are not supported");
      case '@':
      case '`': fail(number, std::string("'") + s[0] + "' cannot start a plain scalar");
      case '?': if (s.size() == 1 || s[1] == ' ') fail(number, "complex keys ('? ') are not supported"); break;
      default: break;
    }
  }

  const std::string& origin_;
  std::vector<Line> lines_;
  std::size_t i_ = 0;
};

}  // namespace

const Node* Node::find(const std::string& key) const {
  for (const Member& m : members)
    if (m.key == key) return &m.value;
  return nullptr;
}

const char* kind_name(Node::Kind kind) {
  switch (kind) {
    case Node::Kind::Scalar: return "a scalar";
    case Node::Kind::Sequence: return "a sequence";
    case Node::Kind::Mapping: return "a mapping";
  }
  return "?";
}

Node parse(const std::string& text, const std::string& origin) { return Reader(text, origin).document(); }

}  // namespace optiq::yaml
