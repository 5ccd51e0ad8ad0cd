// Dijkstra's search, the one used by every cheapest-path computation of the core.
//
// Keys are any totally ordered type with non-negative increments along arcs: a weight, or a
// (weight, hops) pair when fewer hops should win among equally cheap paths. Vertices settle in
// order of (key, vertex id), so a result never depends on thread timing or on the order arcs
// are offered. One object serves many searches: start() forgets only what the last one touched.
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

#include "optiq/core/graph/csr.hpp"
#include "optiq/core/graph/heaps.hpp"

namespace optiq::graph {

template <class Key>
class Dijkstra {
 public:
  explicit Dijkstra(int vertices)
      : key_(vertices), via_(vertices, -1), seen_(vertices, 0), done_(vertices, 0), heap_(key_, vertices) {}

  void start() {
    heap_.clear();
    ++stamp_;
  }
  // A source, reached at key k (several sources make a multi-source search).
  void seed(int v, const Key& k) { offer(v, k, -1); }
  // Settles the cheapest open vertex and returns it; -1 when nothing is open.
  int settle_next() {
    if (heap_.empty()) return -1;
    const int v = heap_.pop();
    done_[v] = stamp_;
    return v;
  }
  // Key k for w, arriving by `arc`: kept when w is unsettled and k is below its key.
  void offer(int w, const Key& k, int arc) {
    if (done_[w] == stamp_) return;
    if (seen_[w] == stamp_ && !(k < key_[w])) return;
    seen_[w] = stamp_;
    key_[w] = k;
    via_[w] = arc;
    heap_.push_or_decrease(w);
  }
  bool reached(int v) const { return seen_[v] == stamp_; }
  bool settled(int v) const { return done_[v] == stamp_; }
  const Key& key(int v) const { return key_[v]; }
  int via(int v) const { return via_[v]; }  // arc into v on its best path; -1 at a source

  // Arc ids from the source to v, in order; v must have been reached.
  template <class Path>
  void path_to(int v, const Csr& g, Path& out) const {
    out.clear();
    for (int a; (a = via_[v]) >= 0; v = g.tail(a)) out.push_back(a);
    std::reverse(out.begin(), out.end());
  }

 private:
  std::vector<Key> key_;
  std::vector<int> via_;
  std::vector<std::uint32_t> seen_, done_;  // stamps: equal to stamp_ in the current search
  std::uint32_t stamp_ = 1;
  IndexedHeap<Key> heap_;
};

}  // namespace optiq::graph
