#include "optiq/core/graph/csr.hpp"

#include <string>

#include "optiq/core/error.hpp"

namespace optiq::graph {

Csr::Csr(int vertices, std::vector<int> tails, std::vector<int> heads)
    : begin_(static_cast<std::size_t>(vertices) + 1, 0), tail_(std::move(tails)), head_(std::move(heads)) {
  OPTIQ_CHECK(tail_.size() == head_.size(), "one head per tail");
  for (std::size_t a = 0; a < tail_.size(); ++a) {
    if (tail_[a] < 0 || head_[a] < 0) {
      tail_[a] = head_[a] = -1;
      continue;
    }
    if (tail_[a] >= vertices || head_[a] >= vertices)
      throw Error("arc " + std::to_string(a) + " names a vertex outside 0.." + std::to_string(vertices - 1));
    ++begin_[tail_[a] + 1];
  }
  for (int v = 0; v < vertices; ++v) begin_[v + 1] += begin_[v];
  arc_.resize(begin_[vertices]);
  out_head_.resize(begin_[vertices]);
  std::vector<int> fill(begin_.begin(), begin_.end() - 1);
  for (std::size_t a = 0; a < tail_.size(); ++a)  // ascending id within each vertex
    if (tail_[a] >= 0) {
      const int i = fill[tail_[a]]++;
      arc_[i] = static_cast<int>(a);
      out_head_[i] = head_[a];
    }
}

Csr Csr::reversed() const { return Csr(vertices(), head_, tail_); }

}  // namespace optiq::graph
