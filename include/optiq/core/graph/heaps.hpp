// Priority queues of the graph searches.
#pragma once

#include <cstdint>
#include <limits>
#include <utility>
#include <vector>

namespace optiq::graph {

// Monotone priority queue of (key, item) for integer keys: every pop returns a key no smaller
// than the previous pop's, as a search with a consistent potential guarantees. Items may be
// pushed several times; the caller skips the stale ones. Among equal keys the last pushed pops
// first.
class RadixHeap {
 public:
  using Key = std::uint64_t;

  void clear() {
    for (auto& b : buckets_) b.clear();
    size_ = 0;
    last_ = 0;
  }
  bool empty() const { return size_ == 0; }
  void push(Key k, int item) {
    buckets_[bucket(k)].push_back({k, item});
    ++size_;
  }
  // The item pop() returns next if that needs no search of the buckets, else -1.
  int peek() const { return buckets_[0].empty() ? -1 : buckets_[0].back().second; }
  std::pair<Key, int> pop() {
    if (buckets_[0].empty()) {
      std::size_t i = 1;
      while (buckets_[i].empty()) ++i;
      Key lo = std::numeric_limits<Key>::max();
      for (const auto& e : buckets_[i]) lo = lo < e.first ? lo : e.first;
      last_ = lo;
      for (const auto& e : buckets_[i]) buckets_[bucket(e.first)].push_back(e);
      buckets_[i].clear();
    }
    const auto top = buckets_[0].back();
    buckets_[0].pop_back();
    --size_;
    return top;
  }

 private:
  std::size_t bucket(Key k) const { return k == last_ ? 0 : 64 - static_cast<std::size_t>(__builtin_clzll(k ^ last_)); }
  std::vector<std::pair<Key, int>> buckets_[65];
  std::size_t size_ = 0;
  Key last_ = 0;
};

// Binary heap of vertices 0..n-1 ordered by (keys[v], v), with decrease-key: every vertex sits
// in it at most once. The keys live with the caller and may only decrease while a vertex is in
// the heap (then call push_or_decrease again).
template <class Key>
class IndexedHeap {
 public:
  IndexedHeap(const std::vector<Key>& keys, int vertices) : keys_(keys), pos_(vertices, -1) {}

  bool empty() const { return heap_.empty(); }
  void clear() {
    for (int v : heap_) pos_[v] = -1;
    heap_.clear();
  }
  void push_or_decrease(int v) {
    if (pos_[v] < 0) {
      heap_.push_back(v);
      sift_up(heap_.size() - 1);
    } else {
      sift_up(static_cast<std::size_t>(pos_[v]));
    }
  }
  int pop() {
    const int top = heap_[0];
    pos_[top] = -1;
    const int last = heap_.back();
    heap_.pop_back();
    if (!heap_.empty()) {
      std::size_t i = 0;
      while (true) {
        const std::size_t l = 2 * i + 1, r = l + 1;
        std::size_t m = i;
        int mv = last;
        if (l < heap_.size() && before(heap_[l], mv)) m = l, mv = heap_[l];
        if (r < heap_.size() && before(heap_[r], mv)) m = r, mv = heap_[r];
        if (m == i) break;
        place(i, heap_[m]);
        i = m;
      }
      place(i, last);
    }
    return top;
  }

 private:
  bool before(int a, int b) const { return keys_[a] < keys_[b] || (!(keys_[b] < keys_[a]) && a < b); }
  void place(std::size_t i, int v) {
    heap_[i] = v;
    pos_[v] = static_cast<int>(i);
  }
  void sift_up(std::size_t i) {
    const int v = heap_[i];
    while (i > 0 && before(v, heap_[(i - 1) / 2])) {
      place(i, heap_[(i - 1) / 2]);
      i = (i - 1) / 2;
    }
    place(i, v);
  }

  const std::vector<Key>& keys_;
  std::vector<int> pos_;  // heap position of a vertex, -1 when not in the heap
  std::vector<int> heap_;
};

}  // namespace optiq::graph
