// Adjacency of a directed multigraph in compressed sparse row form: the arcs leaving each
// vertex, in ascending arc id, with their heads beside them so the hot loops read one array.
//
// Arc ids belong to whoever builds the graph; an id may be absent (tail or head < 0), so a
// generator can keep a numbering with holes (a mesh's missing boundary ports).
#pragma once

#include <cstddef>
#include <vector>

namespace optiq::graph {

class Csr {
 public:
  Csr() = default;
  // tails[a] and heads[a] are arc a's endpoints in [0, vertices), or negative when a is absent.
  Csr(int vertices, std::vector<int> tails, std::vector<int> heads);

  int vertices() const { return static_cast<int>(begin_.size()) - 1; }
  int arc_ids() const { return static_cast<int>(tail_.size()); }  // absent ids included
  int arcs() const { return static_cast<int>(arc_.size()); }      // present arcs only
  bool present(int arc) const { return tail_[arc] >= 0; }
  int tail(int arc) const { return tail_[arc]; }
  int head(int arc) const { return head_[arc]; }

  // Positions [out_begin(v), out_end(v)) index arc_at/head_at: v's arcs in ascending id.
  int out_begin(int v) const { return begin_[v]; }
  int out_end(int v) const { return begin_[v + 1]; }
  int arc_at(int i) const { return arc_[i]; }
  int head_at(int i) const { return out_head_[i]; }

  // The same arcs with every direction turned round (arc ids kept).
  Csr reversed() const;

 private:
  std::vector<int> begin_ = {0};  // per vertex, then one past the last
  std::vector<int> arc_, out_head_;
  std::vector<int> tail_, head_;  // per arc id
};

}  // namespace optiq::graph
