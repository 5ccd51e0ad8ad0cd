// Flows become per-rank schedules: tags per rank pair, forwarding tables, expected receives,
// and the forwarding slots every rank lends to each of its upstream streams.
#include <algorithm>
#include <cmath>
#include <map>
#include <string>

#include "optiq/core/error.hpp"
#include "runtime/schedule/streams.hpp"

namespace optiq {

namespace {

std::uint64_t chunks_of(Bytes bytes, Bytes chunk) { return (bytes + chunk - 1) / chunk; }

// Initial credits per stream: at least one each, the rest in proportion to demand, never more
// than a stream's own chunk count. Returns the slot count used.
std::uint32_t lend_slots(std::vector<Stream>& in, Bytes slot_bytes, Bytes budget, Rank rank) {
  std::uint64_t demand = 0;
  for (const Stream& s : in) demand += s.chunks;
  const std::uint64_t affordable = std::min<std::uint64_t>(budget / slot_bytes, UINT32_MAX);
  const std::uint64_t slots = std::min(affordable, demand);
  if (slots < in.size())
    throw Error("the forwarding budget of " + std::to_string(budget) + " bytes cannot hold one " +
                std::to_string(slot_bytes) + "-byte chunk for each of the " + std::to_string(in.size()) +
                " streams rank " + std::to_string(rank) + " forwards; raise the budget or lower the chunk size");
  std::uint64_t used = 0;
  for (Stream& s : in) {
    const long double share = static_cast<long double>(slots) * s.chunks / demand;
    s.initial = static_cast<std::uint32_t>(std::min<std::uint64_t>(
        s.chunks, std::max<std::uint64_t>(1, static_cast<std::uint64_t>(std::floor(share)))));
    used += s.initial;
  }
  while (used > slots) {  // rounding a share up to one may overshoot by at most one per stream
    auto most = std::max_element(in.begin(), in.end(), [](const Stream& a, const Stream& b) {
      return a.initial < b.initial;
    });
    OPTIQ_CHECK(most->initial > 1, "slots >= streams leaves a stream with more than one credit");
    --most->initial;
    --used;
  }
  std::uint32_t next = 0;
  for (Stream& s : in) {
    s.first_slot = next;
    s.slot_bytes = slot_bytes;
    next += s.initial;
  }
  return next;
}

void add_bytes(std::map<Rank, Bytes>& m, Rank peer, Bytes b) {
  if (b > 0) m[peer] += b;
}

}  // namespace

std::vector<RankSchedule> build_schedules(const std::vector<RankJob>& jobs, const std::vector<Flow>& flows,
                                          int num_ranks, const ScheduleOptions& options) {
  const std::vector<Bytes> chunk = choose_chunks(flows, num_ranks, options);
  std::vector<RankSchedule> out(num_ranks);
  for (int r = 0; r < num_ranks; ++r) {
    out[r].rank = r;
    out[r].num_ranks = num_ranks;
  }

  std::map<std::pair<Rank, Rank>, std::int32_t> used_tags;
  auto next_tag = [&](Rank a, Rank b) {
    std::int32_t& n = used_tags[{a, b}];
    if (n > options.max_tag - kDataTagBase)
      throw Error("more flows from rank " + std::to_string(a) + " to rank " + std::to_string(b) +
                  " than the communicator has tags (" + std::to_string(options.max_tag) + ")");
    return kDataTagBase + n++;
  };

  for (std::size_t f = 0; f < flows.size(); ++f) {
    const Flow& flow = flows[f];
    const auto& hops = flow.hops;
    const Rank src = hops.front(), dst = hops.back();
    OPTIQ_CHECK(flow.bytes > 0 && !hops.empty(), "flows carry bytes");
    if (hops.size() == 1) {
      out[src].self.push_back({flow.offset, flow.bytes});
      continue;
    }
    const std::size_t last = hops.size() - 1;
    auto cls = [&](std::size_t k) { return k == last ? 0 : static_cast<std::int32_t>(k); };
    std::vector<std::int32_t> tag(last);
    for (std::size_t k = 0; k < last; ++k) tag[k] = next_tag(hops[k], hops[k + 1]);

    out[src].sends.push_back({hops[1], tag[0], cls(1), dst, flow.offset, flow.bytes, chunk[f]});
    for (std::size_t k = 1; k < last; ++k)
      out[hops[k]].forwards.push_back(
          {hops[k - 1], tag[k - 1], cls(k), hops[k + 1], tag[k], cls(k + 1), flow.bytes, chunk[f]});
    out[dst].recvs.push_back({hops[last - 1], tag[last - 1], src, flow.offset, flow.bytes, chunk[f]});
    if (flow.off_plan) out[src].off_plan_bytes += flow.bytes;
  }

  // Slots: each forwarder sizes its slots to the largest chunk it forwards.
  for (const auto& [key, members] : detail::forwarding_streams(flows)) {
    const auto [at, upstream, k] = key;
    std::uint64_t n = 0;
    for (std::size_t f : members) {
      n += chunks_of(flows[f].bytes, chunk[f]);
      out[at].slot_bytes = std::max(out[at].slot_bytes, chunk[f]);
    }
    out[at].in_streams.push_back({upstream, k, n, 0, 0, 0});
  }
  for (RankSchedule& s : out) {
    if (s.in_streams.empty()) continue;
    s.num_slots = lend_slots(s.in_streams, s.slot_bytes, options.budget, s.rank);
    for (const Stream& in : s.in_streams)
      out[in.peer].out_streams.push_back({s.rank, in.cls, in.chunks, in.first_slot, in.initial, in.slot_bytes});
  }

  std::vector<std::map<Rank, Bytes>> sent(num_ranks), received(num_ranks);
  for (const RankJob& j : jobs) {
    add_bytes(sent[j.src], j.dst, j.bytes);
    add_bytes(received[j.dst], j.src, j.bytes);
  }
  for (int r = 0; r < num_ranks; ++r) {
    for (const auto& [peer, b] : sent[r]) out[r].send_bytes.push_back({peer, b});
    for (const auto& [peer, b] : received[r]) out[r].recv_bytes.push_back({peer, b});
  }
  return out;
}

}  // namespace optiq
