#include "runtime/io/layout.hpp"

#include <algorithm>

#include "optiq/core/error.hpp"

namespace optiq::rt::io {

namespace {

// Offsets past this leave room to add a block without overflowing Bytes or off_t.
constexpr Bytes kMaxOffset = Bytes(1) << 62;

std::string where(std::size_t v, std::size_t i) {
  return "variable " + std::to_string(v) + ", extent " + std::to_string(i);
}

}  // namespace

std::vector<Block> flatten(const std::vector<std::vector<optiq_io_extent>>& vars, std::vector<Bytes>* var_bytes) {
  std::vector<Block> blocks;
  var_bytes->assign(vars.size(), 0);
  for (std::size_t v = 0; v < vars.size(); ++v) {
    Bytes src = 0;
    for (std::size_t i = 0; i < vars[v].size(); ++i) {
      const optiq_io_extent& e = vars[v][i];
      if (e.offset < 0 || e.bytes < 0 || e.count < 0 || e.stride < 0)
        throw Error(where(v, i) + ": offset, bytes, count and stride must be >= 0");
      if (e.bytes == 0 || e.count == 0) continue;
      if (e.count > 1 && e.stride < e.bytes)
        throw Error(where(v, i) + ": stride " + std::to_string(e.stride) + " is shorter than the block (" +
                    std::to_string(e.bytes) + " bytes), so its repetitions overlap");
      const Bytes bytes = Bytes(e.bytes);
      const Bytes count = Bytes(e.count);
      const Bytes last = count > 1 ? Bytes(e.stride) : 0;
      if (Bytes(e.offset) > kMaxOffset || bytes > kMaxOffset || (count > 1 && last > kMaxOffset / (count - 1)) ||
          Bytes(e.offset) + (count - 1) * last + bytes > kMaxOffset || count > kMaxOffset / bytes)
        throw Error(where(v, i) + ": reaches beyond 2^62 bytes");
      for (Bytes c = 0; c < count; ++c) {
        blocks.push_back({static_cast<int>(v), src, Bytes(e.offset) + c * last, bytes});
        src += bytes;
      }
    }
    (*var_bytes)[v] = src;
  }
  return blocks;
}

Bytes GroupLayout::round_end(int k, int round) const {
  const Bytes domain_end = lo + Bytes(k + 1) * span;
  return std::min(domain_end, round_start(k, round) + buffer);
}

int GroupLayout::slot(int k) const {
  return static_cast<int>(std::count(aggregator.begin(), aggregator.begin() + k, aggregator[k]));
}

GroupLayout shape(Bytes lo, Bytes hi, int aggregators, Bytes buffer) {
  if (hi <= lo || aggregators < 1 || buffer == 0) throw Error("io layout: empty file range, no aggregator or no buffer");
  GroupLayout g;
  g.lo = lo;
  const Bytes size = hi - lo;
  g.span = (size + Bytes(aggregators) - 1) / Bytes(aggregators);
  g.domains = static_cast<int>((size + g.span - 1) / g.span);
  g.buffer = std::min(buffer, std::max(kMinRoundBytes, (g.span + kPipelineRounds - 1) / kPipelineRounds));
  g.buffer = std::min(g.buffer, g.span);
  g.rounds_per_domain = static_cast<int>((g.span + g.buffer - 1) / g.buffer);
  g.aggregator.assign(g.domains, -1);
  return g;
}

std::pair<int, int> locate(const GroupLayout& g, Bytes offset) {
  const Bytes rel = offset - g.lo;
  const int k = static_cast<int>(rel / g.span);
  return {k, static_cast<int>((rel - Bytes(k) * g.span) / g.buffer)};
}

std::vector<Part> split(const std::vector<Block>& blocks, const GroupLayout& g) {
  std::vector<Part> parts;
  for (const Block& b : blocks) {
    Bytes at = b.offset;
    const Bytes end = b.offset + b.bytes;
    while (at < end) {
      const auto [k, round] = locate(g, at);
      const auto e = std::lower_bound(g.active_rounds.begin(), g.active_rounds.end(), round);
      if (e == g.active_rounds.end() || *e != round || k >= g.domains || g.aggregator[k] < 0)
        throw Error("io layout: a block at file offset " + std::to_string(at) + " falls outside the group's plan");
      const Bytes piece = std::min(end, g.round_end(k, round)) - at;
      parts.push_back({static_cast<int>(e - g.active_rounds.begin()), k, at - g.round_start(k, round), b.var,
                       b.src + (at - b.offset), piece});
      at += piece;
    }
  }
  // Within one (epoch, domain) in buffer order: what lies side by side in the aggregator's buffer
  // (an AoS rank's variables, record by record) then travels as one block.
  std::sort(parts.begin(), parts.end(), [](const Part& a, const Part& b) {
    if (a.epoch != b.epoch) return a.epoch < b.epoch;
    return a.domain != b.domain ? a.domain < b.domain : a.target < b.target;
  });
  return parts;
}

void check_disjoint(const std::vector<std::vector<Interval>>& ranks) {
  struct Tagged {
    Interval iv;
    int rank;
  };
  std::vector<Tagged> all;
  for (std::size_t r = 0; r < ranks.size(); ++r)
    for (const Interval& iv : ranks[r]) all.push_back({iv, static_cast<int>(r)});
  std::sort(all.begin(), all.end(), [](const Tagged& a, const Tagged& b) { return a.iv.offset < b.iv.offset; });
  for (std::size_t i = 1; i < all.size(); ++i) {
    const Tagged& a = all[i - 1];
    const Tagged& b = all[i];
    if (b.iv.offset < a.iv.end()) {
      const std::string who = a.rank == b.rank ? "rank " + std::to_string(a.rank) + " declares"
                                               : "ranks " + std::to_string(a.rank) + " and " +
                                                     std::to_string(b.rank) + " declare";
      throw Error(who + " file byte " + std::to_string(b.iv.offset) + " twice (overlapping writes)");
    }
  }
}

std::vector<std::vector<std::vector<Interval>>> covered(const std::vector<std::vector<Interval>>& ranks,
                                                         GroupLayout* g) {
  // Per domain and round, the intervals; then only the rounds some domain uses become epochs.
  std::vector<std::vector<std::vector<Interval>>> by_round(
      g->domains, std::vector<std::vector<Interval>>(g->rounds_per_domain));
  for (const auto& list : ranks)
    for (const Interval& iv : list) {
      Bytes at = iv.offset;
      while (at < iv.end()) {
        const auto [k, round] = locate(*g, at);
        const Bytes piece = std::min(iv.end(), g->round_end(k, round)) - at;
        by_round[k][round].push_back({at, piece});
        at += piece;
      }
    }
  g->active_rounds.clear();
  for (int r = 0; r < g->rounds_per_domain; ++r)
    for (int k = 0; k < g->domains; ++k)
      if (!by_round[k][r].empty()) {
        g->active_rounds.push_back(r);
        break;
      }
  std::vector<std::vector<std::vector<Interval>>> out(g->domains);
  for (int k = 0; k < g->domains; ++k)
    for (int r : g->active_rounds) {
      std::vector<Interval> list = std::move(by_round[k][r]);
      std::sort(list.begin(), list.end(), [](const Interval& a, const Interval& b) { return a.offset < b.offset; });
      std::vector<Interval> merged;
      for (const Interval& iv : list) {
        if (!merged.empty() && merged.back().end() == iv.offset)
          merged.back().bytes += iv.bytes;
        else
          merged.push_back(iv);
      }
      out[k].push_back(std::move(merged));
    }
  return out;
}

}  // namespace optiq::rt::io
