// A reader for the small part of YAML that configuration files such as Slurm's topology.yaml
// use, so that the core needs no YAML library: block mappings (`key: value`), block sequences
// (`- item`, also at the indentation of the key that holds them), plain, 'single'- and
// "double"-quoted scalars on one line, one-line flow sequences of scalars (`[a, b]`), comments,
// and a leading `---`. Everything else (anchors, aliases, tags, flow mappings, multi-line and
// block scalars, tabs in indentation, several documents) is refused with "<origin>:<line>: ..."
// rather than read differently from a real YAML parser.
#pragma once

#include <string>
#include <vector>

namespace optiq::yaml {

struct Node;
struct Member;

struct Node {
  enum class Kind { Scalar, Sequence, Mapping };
  Kind kind = Kind::Scalar;
  int line = 0;         // 1-based line the node starts on
  std::string text;     // a scalar's value
  bool null = false;    // a scalar that is empty, `~` or `null` (unquoted)
  std::vector<Node> items;                            // a sequence's
  std::vector<Member> members;  // a mapping's, in file order, keys unique

  bool is_scalar() const { return kind == Kind::Scalar; }
  bool is_sequence() const { return kind == Kind::Sequence; }
  bool is_mapping() const { return kind == Kind::Mapping; }
  const Node* find(const std::string& key) const;  // a mapping's member, or null
};

struct Member {
  std::string key;
  int line;  // the key's
  Node value;
};

const char* kind_name(Node::Kind kind);  // "a scalar", "a sequence", "a mapping"

// The document's root; an empty document is a null scalar. Throws optiq::Error
// "<origin>:<line>: <why>" at the first construct outside the subset, a duplicate key, a bad
// indentation or nesting deeper than 64 levels.
Node parse(const std::string& text, const std::string& origin);

}  // namespace optiq::yaml
