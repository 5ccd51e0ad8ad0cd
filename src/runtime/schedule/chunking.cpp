// Chunk sizes: large enough to keep per-message overhead low, small enough to pipeline
// through forwarders and to fit the forwarding budget.
#include <algorithm>
#include <string>

#include "optiq/core/error.hpp"
#include "runtime/schedule/streams.hpp"

namespace optiq {

namespace {

constexpr Bytes kMinAutoChunk = 4 << 10;
constexpr Bytes kMaxAutoChunk = 32 << 10;
constexpr Bytes kPieces = 8;

Bytes floor_pow2(Bytes x) {
  Bytes p = 1;
  while (p <= x / 2) p *= 2;
  return p;
}

}  // namespace

std::vector<Bytes> choose_chunks(const std::vector<Flow>& flows, int num_ranks, const ScheduleOptions& options) {
  if (options.chunk > kMaxMessage)
    throw Error("chunk size " + std::to_string(options.chunk) + " is above the largest message (" +
                std::to_string(kMaxMessage) + " bytes)");
  const auto streams = detail::forwarding_streams(flows);
  std::vector<std::size_t> streams_at(num_ranks, 0);
  for (const auto& [key, members] : streams) ++streams_at[std::get<0>(key)];
  const std::size_t most_streams = streams.empty() ? 0 : *std::max_element(streams_at.begin(), streams_at.end());

  Bytes forwarded_chunk = options.chunk;
  if (options.chunk == 0 && most_streams > 0) {
    // The largest forwarded flow in at least kPieces pieces, so that it pipelines through its
    // forwarders, and no piece above kMaxAutoChunk: smaller chunks pay per-message and
    // per-poll costs more often, larger ones keep a forwarder waiting longer for a whole chunk
    // before it passes it on and a paced path further from its rate (docs/runtime.md, "Chunks, tags and the schedule").
    Bytes largest = 0;
    for (const Flow& f : flows)
      if (detail::is_forwarded(f)) largest = std::max(largest, f.bytes);
    Bytes c = floor_pow2(std::max<Bytes>(1, largest / kPieces));
    c = std::clamp(c, kMinAutoChunk, kMaxAutoChunk);
    const Bytes two_slots = options.budget / (2 * most_streams), one_slot = options.budget / most_streams;
    if (c > two_slots) c = two_slots >= kMinAutoChunk ? floor_pow2(two_slots) : std::min(c, one_slot);
    forwarded_chunk = std::max<Bytes>(1, c);
  }

  std::vector<Bytes> chunk(flows.size());
  for (std::size_t f = 0; f < flows.size(); ++f) {
    const Bytes whole = std::min(flows[f].bytes, kMaxMessage);
    if (options.chunk > 0) chunk[f] = std::min(options.chunk, whole);
    // In a plan that forwards, direct flows are cut as finely: a paced path can only keep its
    // rate if it is sent a chunk at a time, and a whole message takes what the network gives it.
    else chunk[f] = most_streams > 0 ? std::min(forwarded_chunk, whole) : whole;
  }

  // Every stream needs at least one slot, each as large as the largest chunk its rank forwards.
  std::vector<Bytes> slot(num_ranks, 0);
  for (const auto& [key, members] : streams)
    for (std::size_t f : members) slot[std::get<0>(key)] = std::max(slot[std::get<0>(key)], chunk[f]);
  for (int r = 0; r < num_ranks; ++r)
    if (streams_at[r] > 0 && (slot[r] == 0 || streams_at[r] > options.budget / slot[r]))
      throw Error("the forwarding budget of " + std::to_string(options.budget) + " bytes cannot hold one " +
                  std::to_string(slot[r]) + "-byte chunk for each of the " + std::to_string(streams_at[r]) +
                  " streams rank " + std::to_string(r) + " forwards; raise the budget or lower the chunk size");
  return chunk;
}

}  // namespace optiq
