#include "runtime/engine/engine.hpp"

#include "runtime/engine/cpu_costs.hpp"

#include <sched.h>

#include <algorithm>
#include <cstring>
#include <limits>

namespace optiq::rt {

namespace {

std::uint64_t key(Rank peer, std::int64_t x) {
  return (static_cast<std::uint64_t>(static_cast<std::uint32_t>(peer)) << 32) | static_cast<std::uint32_t>(x);
}

std::uint64_t chunks_of(Bytes bytes, Bytes chunk) { return (bytes + chunk - 1) / chunk; }

// Longest a paced rank sleeps before it looks at its requests again: forwarded chunks that
// arrive meanwhile wait at most this long (a chunk of 32 KiB takes 18 us on a BG/Q link).
constexpr double kPacingTick = 20e-6;

Bytes chunk_len(Bytes bytes, Bytes chunk, std::uint64_t index) {
  const Bytes off = index * chunk;
  return off >= bytes ? 0 : std::min(chunk, bytes - off);
}

}  // namespace

Engine::Engine(const RankSchedule& schedule, Transport& transport, Buffers buffers, EngineOptions options,
               const Comms& comms)
    : s_(schedule), t_(transport), b_(std::move(buffers)), o_(options), comms_(comms) {
  prefer_forward_ = o_.discipline != Discipline::LocalFirst;
}

int Engine::pool_for(Rank peer, int cls) {
  auto it = pool_index_.find(key(peer, cls));
  if (it != pool_index_.end()) return it->second;
  pools_.push_back({peer, cls, {}});
  return pool_index_[key(peer, cls)] = static_cast<int>(pools_.size() - 1);
}

void Engine::set_held(bool held) {
  if (held && !yielding_ && held_rate_ > 0) held_allowance_ = 0, held_clock_ = MPI_Wtime();
  yielding_ = held;
}

void Engine::start() {
  pace_seconds_ = o_.dispatch == Dispatch::Paced ? s_.planned_seconds : 0;
  if (o_.held_share > 0 && s_.predicted_seconds > 0) {
    Bytes own = 0;
    for (const SendFlow& f : s_.sends) own += f.bytes;
    for (const ForwardEntry& f : s_.forwards) own += f.bytes;
    held_rate_ = o_.held_share * static_cast<double>(own) / s_.predicted_seconds;
  }
  start_time_ = now_ = last_activity_ = MPI_Wtime();
  t_.begin(s_, b_);
  const bool announced = t_.announces_initial_credits();

  for (const Stream& o : s_.out_streams) {
    Pool& p = pools_[pool_for(o.peer, o.cls)];
    if (!announced)
      for (std::uint32_t i = 0; i < o.initial; ++i) p.slots.push_back(static_cast<std::int32_t>(o.first_slot + i));
  }
  for (const SendFlow& f : s_.sends) {
    const std::uint64_t n = chunks_of(f.bytes, f.chunk);
    locals_.push_back({&f, 0, n, f.next_class == 0 ? -1 : pool_for(f.next, f.next_class)});
    local_left_ += n;
  }
  // Start with the destination just after this rank and go round, as a pairwise exchange
  // does, so that not every rank aims at the same destination at once.
  std::stable_sort(locals_.begin(), locals_.end(), [&](const Local& a, const Local& b) {
    const int p = s_.num_ranks;
    return (a.flow->dst - s_.rank + p) % p < (b.flow->dst - s_.rank + p) % p;
  });

  queue_of_entry_.resize(s_.forwards.size());
  for (std::size_t i = 0; i < s_.forwards.size(); ++i) {
    const ForwardEntry& f = s_.forwards[i];
    entry_index_[key(f.upstream, f.tag_in)] = static_cast<int>(i);
    forward_left_ += chunks_of(f.bytes, f.chunk);
    const std::uint64_t qk = key(f.next, f.next_class);
    auto it = std::find_if(queues_.begin(), queues_.end(),
                           [&](const Queue& q) { return key(q.next, q.cls) == qk; });
    if (it == queues_.end()) {
      queues_.push_back({f.next, f.next_class, f.next_class == 0 ? -1 : pool_for(f.next, f.next_class), {}});
      it = queues_.end() - 1;
    }
    queue_of_entry_[i] = static_cast<int>(it - queues_.begin());
  }
  for (const RecvFlow& r : s_.recvs) final_left_ += chunks_of(r.bytes, r.chunk);

  slot_stream_.assign(s_.num_slots, 0);
  slot_len_.assign(s_.num_slots, 0);
  stats_.slot_bytes_lent = s_.slot_bytes * s_.num_slots;
  for (const Stream& in : s_.in_streams) {
    lent_index_[key(in.peer, in.cls)] = lent_.size();
    lent_.push_back({in.peer, in.cls, in.initial, in.chunks});
    for (std::uint32_t i = 0; i < in.initial; ++i) {
      const auto slot = static_cast<std::int32_t>(in.first_slot + i);
      slot_stream_[slot] = lent_.size() - 1;
      t_.grant(in.peer, slot);
      if (announced) t_.credit(in.peer, in.cls, slot);
    }
  }
  issue_sends();
  // Copy to itself only once receives are posted and sends started, so that peers are not
  // kept waiting for this rank while it copies.
  for (const SelfCopy& c : s_.self)
    std::memcpy(b_.recv_at(s_.rank, c.offset), b_.send_at(s_.rank, c.offset), c.bytes);
}

void Engine::on_arrival(const Arrival& a) {
  auto it = entry_index_.find(key(a.upstream, a.tag));
  if (it == entry_index_.end()) fatal(comms_, "a chunk arrived for a flow this rank does not forward");
  const ForwardEntry& f = s_.forwards[it->second];
  if (a.slot < 0 || a.slot >= static_cast<int>(s_.num_slots) || a.len == 0 ||
      a.len != chunk_len(f.bytes, f.chunk, a.index))
    fatal(comms_, "a forwarded chunk does not match its flow's layout");
  auto stream = lent_index_.find(key(a.upstream, f.in_class));
  if (stream == lent_index_.end()) fatal(comms_, "a chunk arrived on a stream this rank does not serve");
  // The chunk consumed a credit of its own stream, whichever slot the transport put it in.
  slot_stream_[a.slot] = stream->second;
  slot_len_[a.slot] = a.len;
  held_ += a.len;
  stats_.held_peak = std::max(stats_.held_peak, held_);
  queues_[queue_of_entry_[it->second]].chunks.push_back({a.slot, it->second, a.index, a.len});
  ++queued_;
}

void Engine::give(std::int32_t slot, std::size_t stream) {
  Lent& l = lent_[stream];
  ++l.granted;
  slot_stream_[slot] = stream;
  t_.grant(l.upstream, slot);
  t_.credit(l.upstream, l.cls, slot);
}

void Engine::release(std::int32_t slot) {
  held_ -= slot_len_[slot];
  slot_len_[slot] = 0;
  const std::size_t own = slot_stream_[slot];
  if (lent_[own].granted < lent_[own].total) return give(slot, own);
  // Its stream needs no more: lend the slot to another stream that still does.
  for (std::size_t i = 0; i < lent_.size(); ++i) {
    const std::size_t j = (hungry_cursor_ + i) % lent_.size();
    if (lent_[j].granted < lent_[j].total) {
      hungry_cursor_ = j + 1;
      return give(slot, j);
    }
  }
}

bool Engine::issue_local() {
  if (local_left_ == 0) return false;
  // The sendable flow that is least far along goes next. A plan's paths carry different
  // shares, and the network splits a link evenly between the messages on it; round-robin
  // would let small shares finish early and leave the large ones to a slow tail, while this
  // keeps every path of the rank moving in proportion to its bytes, as the plan assumes.
  std::size_t best = locals_.size();
  for (std::size_t i = 0; i < locals_.size(); ++i) {
    const std::size_t k = (local_cursor_ + i) % locals_.size();
    const Local& l = locals_[k];
    if (l.next == l.chunks || (l.pool >= 0 && pools_[l.pool].slots.empty())) continue;
    if (pace_seconds_ > 0) {
      const double due = l.due(l.next, start_time_, pace_seconds_);
      if (due > now_) {
        next_due_ = std::min(next_due_, due);
        continue;
      }
    }
    if (best == locals_.size() || l.next * locals_[best].chunks < locals_[best].next * l.chunks) best = k;
  }
  if (best == locals_.size()) return false;
  Local& l = locals_[best];
  std::int32_t slot = -1;
  if (l.pool >= 0) {
    slot = pools_[l.pool].slots.front();
    pools_[l.pool].slots.pop_front();
  }
  const SendFlow& f = *l.flow;
  const Bytes off = l.next * f.chunk;
  const Bytes len = chunk_len(f.bytes, f.chunk, l.next);
  t_.send({f.next, f.tag, slot, l.next, off, b_.send_at(f.dst, f.offset + off), len, 0});
  ++l.next;
  --local_left_;
  ++inflight_;
  stats_.injected_bytes += len;
  local_cursor_ = (best + 1) % locals_.size();  // ties rotate
  return true;
}

bool Engine::issue_forward() {
  if (queued_ == 0) return false;
  for (std::size_t i = 0; i < queues_.size(); ++i) {
    Queue& q = queues_[(queue_cursor_ + i) % queues_.size()];
    if (q.chunks.empty()) continue;
    std::int32_t slot = -1;
    if (q.pool >= 0) {
      auto& free = pools_[q.pool].slots;
      if (free.empty()) continue;
      slot = free.front();
      free.pop_front();
    }
    const Held h = q.chunks.front();
    q.chunks.pop_front();
    const ForwardEntry& f = s_.forwards[h.entry];
    copying_ += charge_copy(h.len);  // in a simulation: the copy through this rank's slot
    t_.send({f.next, f.tag_out, slot, h.index, h.index * f.chunk, t_.slot(h.slot), h.len,
             static_cast<std::uint64_t>(h.slot) + 1});
    // A rank busy copying a backlog leaves its requests alone no longer than a paced rank
    // sleeps: what arrived meanwhile starts moving, and the chunks copied so far leave.
    if (copying_ >= kPacingTick) {
      t_.progress();
      copying_ = 0;
    }
    --queued_;
    --forward_left_;
    ++inflight_;
    stats_.forwarded_bytes += h.len;
    ++stats_.forwarded_chunks;
    queue_cursor_ = (queue_cursor_ + i + 1) % queues_.size();
    return true;
  }
  return false;
}

// One message at a time, when the bytes accrued at the held rate cover what the last one took.
void Engine::issue_held_share() {
  const double now = MPI_Wtime();
  held_allowance_ += (now - held_clock_) * held_rate_;
  held_clock_ = now;
  if (held_allowance_ < 0 || inflight_ > 0) return;
  if (pace_seconds_ > 0) now_ = now;
  const Bytes before = stats_.injected_bytes + stats_.forwarded_bytes;
  if (!issue_forward()) issue_local();
  held_allowance_ -= static_cast<double>(stats_.injected_bytes + stats_.forwarded_bytes - before);
}

void Engine::issue_sends() {
  next_due_ = std::numeric_limits<double>::infinity();
  if (yielding_) {
    if (held_rate_ > 0) issue_held_share();
    return;
  }
  if (pace_seconds_ > 0) now_ = MPI_Wtime();
  while (inflight_ < static_cast<std::uint64_t>(o_.max_inflight)) {
    const bool first = prefer_forward_;
    if ((first ? issue_forward() : issue_local())) {
      if (o_.discipline == Discipline::RoundRobin) prefer_forward_ = !first;
      continue;
    }
    if ((first ? issue_local() : issue_forward())) {
      if (o_.discipline == Discipline::RoundRobin) prefer_forward_ = first;
      continue;
    }
    break;
  }
}

double Engine::seconds_since_activity() const { return MPI_Wtime() - last_activity_; }

bool Engine::step(Idle when_idle) {
  if (done_) return true;
  events_.clear();
  t_.poll(events_);
  for (const Credit& c : events_.credits) {
    auto it = pool_index_.find(key(c.peer, c.cls));
    if (it == pool_index_.end()) fatal(comms_, "a credit arrived for a stream this rank does not send on");
    pools_[it->second].slots.push_back(c.slot);
  }
  for (const Arrival& a : events_.arrivals) on_arrival(a);
  if (events_.delivered > final_left_) fatal(comms_, "more chunks arrived than the schedule expects");
  final_left_ -= events_.delivered;
  for (std::uint64_t cookie : events_.sent) {
    --inflight_;
    if (cookie > 0) release(static_cast<std::int32_t>(cookie - 1));
  }
  const std::uint64_t before = inflight_;
  issue_sends();
  const bool idle = events_.credits.empty() && events_.arrivals.empty() && events_.delivered == 0 &&
                    events_.sent.empty() && inflight_ == before;
  if (!idle) last_activity_ = MPI_Wtime();

  if (local_left_ == 0 && forward_left_ == 0 && final_left_ == 0 && inflight_ == 0 && t_.quiet()) {
    t_.end();
    done_ = true;
    return true;
  }
  // Nothing changes until one of the transport's requests completes. Waiting for it inside
  // MPI, rather than spinning, leaves the core to the ranks this one waits for and keeps an
  // SMPI simulation from charging (and computing) thousands of empty polls.
  if (idle && when_idle != Idle::Return) {
    // A chunk held back for its due time wakes the rank then, or earlier if a request
    // completes (waiting for one could sleep past the due time).
    if (next_due_ < std::numeric_limits<double>::infinity()) pause_for(std::min(next_due_ - now_, kPacingTick));
    else if (when_idle == Idle::Block) t_.block();
    else sched_yield();
  }
  return false;
}

}  // namespace optiq::rt
