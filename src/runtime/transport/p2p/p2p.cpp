// Two-sided transport. Forwarders pre-post one receive per lent slot, matched by source (the
// tag names the flow); destinations pre-post receives straight into the application's buffer,
// matched by source and the flow's tag, a window of chunks at a time. MPI's non-overtaking
// rule keeps every flow's chunks in order, which is what lets a tag alone place them.
#include <algorithm>
#include <deque>
#include <unordered_map>

#include "runtime/transport/channel.hpp"
#include "runtime/transport/control.hpp"
#include "runtime/transport/requests.hpp"
#include "runtime/transport/slot_pool.hpp"

namespace optiq::rt {

namespace {

constexpr std::uint64_t kWindow = 16;  // receives posted ahead per destination flow

std::uint64_t pair_key(Rank peer, int tag) {
  return (static_cast<std::uint64_t>(static_cast<std::uint32_t>(peer)) << 32) | static_cast<std::uint32_t>(tag);
}

class P2P final : public Transport {
 public:
  P2P(const Comms& comms, Bytes budget) : comms_(comms), budget_(budget), credits_(comms, kTagCredit) {}

  void begin(const RankSchedule& s, const Buffers& b) override {
    slot_bytes_ = s.slot_bytes;
    const Bytes need = s.slot_bytes * s.num_slots;
    if (need > budget_) fatal(comms_, "the schedule lends more slot memory than the budget");
    pool_.reserve(need);
    upstream_.clear();
    arrived_.clear();
    finals_.clear();
    sent_to_.assign(comms_.size, 0);
    received_from_.assign(comms_.size, 0);
    for (const RecvFlow& r : s.recvs) {
      finals_.push_back({b.recv_at(r.src, r.offset), r.bytes, r.chunk, (r.bytes + r.chunk - 1) / r.chunk, 0,
                         r.upstream, r.tag, {}});
      for (std::uint64_t i = 0; i < kWindow; ++i) post_final(finals_.size() - 1);
    }
    std::map<Rank, std::uint64_t> due;
    for (const Stream& o : s.out_streams) due[o.peer] += o.chunks - o.initial;
    credits_.reset();
    for (const auto& [peer, n] : due) credits_.expect(peer, n);
  }

  char* slot(int index) override { return pool_.data() + static_cast<Bytes>(index) * slot_bytes_; }

  void grant(Rank upstream, int index) override {
    auto& fifo = upstream_[upstream];
    fifo.push_back({index, MPI_REQUEST_NULL, Early{}});
    MPI_Irecv(slot(index), static_cast<int>(slot_bytes_), MPI_BYTE, upstream, MPI_ANY_TAG, comms_.fwd,
              &fifo.back().request);
  }

  void send(const OutChunk& c) override {
    MPI_Request r;
    MPI_Isend(c.data, static_cast<int>(c.len), MPI_BYTE, c.peer, c.tag, c.slot >= 0 ? comms_.fwd : comms_.data, &r);
    sends_.add(r, c.cookie);
    if (c.slot < 0) ++sent_to_[c.peer];
  }

  void credit(Rank peer, std::int32_t cls, std::int32_t slot) override { credits_.push(peer, {cls, slot}); }

  void poll(Events& ev) override {
    // Slot receives from one upstream complete in the order they were posted: take them in
    // that order so each flow's chunks leave in the order they came.
    for (auto& [upstream, fifo] : upstream_) {
      while (!fifo.empty()) {
        int done = fifo.front().early.done;
        MPI_Status st = fifo.front().early.status;
        if (!done) MPI_Test(&fifo.front().request, &done, &st);
        if (!done) break;
        int len = 0;
        MPI_Get_count(&st, MPI_BYTE, &len);
        const std::uint64_t index = arrived_[pair_key(upstream, st.MPI_TAG)]++;
        ev.arrivals.push_back({upstream, st.MPI_TAG, fifo.front().slot, index, static_cast<Bytes>(len)});
        fifo.pop_front();
      }
    }
    // A flow's chunks come from one upstream with one tag, so its receives match, and
    // complete, in the order they were posted: testing each flow's oldest receive finds every
    // completion while touching one request per flow rather than a window of them.
    for (std::size_t f = 0; f < finals_.size(); ++f) {
      auto& posted = finals_[f].posted_recvs;
      while (!posted.empty()) {
        FinalRecv& head = posted.front();
        int done = head.early.done;
        MPI_Status st = head.early.status;
        if (!done) MPI_Test(&head.request, &done, &st);
        if (!done) break;
        int len = 0;
        MPI_Get_count(&st, MPI_BYTE, &len);
        if (static_cast<Bytes>(len) != head.len) fatal(comms_, "a chunk arrived shorter than its flow's layout");
        ++ev.delivered;
        ++received_from_[finals_[f].upstream];
        posted.pop_front();
        post_final(f);
      }
    }
    sends_.test([&](std::uint64_t cookie, const MPI_Status&) { ev.sent.push_back(cookie); });
    credits_.poll([&](Rank peer, const CreditEntry& e) { ev.credits.push_back({peer, e.cls, e.slot}); });
    credits_.flush();
  }

  void block() override {
    waits_.clear();
    for (auto& [upstream, fifo] : upstream_)
      for (SlotRecv& r : fifo) waits_.add(&r.request, &r.early);
    for (Final& fl : finals_)
      if (!fl.posted_recvs.empty()) waits_.add(&fl.posted_recvs.front().request, &fl.posted_recvs.front().early);
    sends_.watch(waits_);
    credits_.watch(waits_);
    waits_.wait();
  }

  bool quiet() override { return credits_.quiet(); }

  void end() override {
    for (const auto& [upstream, fifo] : upstream_)
      if (!fifo.empty()) fatal(comms_, "a forwarding slot is still posted after the operation");
    for (const Final& fl : finals_)
      if (!fl.posted_recvs.empty()) fatal(comms_, "a receive is still posted after the operation");
    if (!sends_.empty()) fatal(comms_, "a message is still in flight after the operation");
  }

  Bytes reserved() const override { return pool_.size(); }
  // A send can only land in a receive posted for this operation, so initial credits are safe.
  bool announces_initial_credits() const override { return false; }

  // A peer that starts early sends on the data communicator only, with the tags the agreed
  // schedule would use: if the agreement confirms the schedule, late peers' receives match
  // these sends (and early receives their sends) exactly as in an operation begun together.
  bool starts_early() const override { return true; }

  void withdraw(bool started) override {
    const auto n = static_cast<std::size_t>(comms_.size);
    std::vector<std::uint64_t> sent(n, 0), got(n, 0), received(n, 0);
    if (started) {
      if (!upstream_.empty() || slot_bytes_ > 0) fatal(comms_, "an operation that forwards started early");
      sent = sent_to_;
      received = received_from_;
    }
    // Receives first, then the counts: a peer that has the counts has left the alltoall, so
    // may send the next operation's messages, which a receive still posted here would take.
    if (started)
      for (Final& fl : finals_)
        for (FinalRecv& r : fl.posted_recvs) {
          int cancelled = 0;
          if (!r.early.done && r.request != MPI_REQUEST_NULL) {
            MPI_Status st;
            MPI_Cancel(&r.request);
            MPI_Wait(&r.request, &st);
            MPI_Test_cancelled(&st, &cancelled);
          }
          if (!cancelled) ++received[fl.upstream];
        }
    MPI_Alltoall(sent.data(), 1, MPI_UINT64_T, got.data(), 1, MPI_UINT64_T, comms_.ctrl);
    // Messages that found no receive (the peer did not start early, or its receive was
    // cancelled first) are taken now and dropped; then every send of this rank can complete.
    std::vector<char> scratch;
    for (int p = 0; p < comms_.size; ++p)
      for (; received[p] < got[p]; ++received[p]) {
        MPI_Status st;
        MPI_Probe(p, MPI_ANY_TAG, comms_.data, &st);
        int len = 0;
        MPI_Get_count(&st, MPI_BYTE, &len);
        if (scratch.size() < static_cast<std::size_t>(len)) scratch.resize(len);
        MPI_Recv(scratch.data(), len, MPI_BYTE, p, st.MPI_TAG, comms_.data, MPI_STATUS_IGNORE);
      }
    sends_.wait_all();
    finals_.clear();
    sent_to_.assign(n, 0);
    received_from_.assign(n, 0);
  }

 private:
  struct FinalRecv {
    MPI_Request request;
    Bytes len;
    Early early;
  };
  struct Final {
    char* base;
    Bytes bytes, chunk;
    std::uint64_t chunks, posted;
    Rank upstream;
    int tag;
    std::deque<FinalRecv> posted_recvs;  // oldest first
  };
  struct SlotRecv {
    int slot;
    MPI_Request request;
    Early early;
  };

  void post_final(std::size_t f) {
    Final& fl = finals_[f];
    if (fl.posted == fl.chunks) return;
    const Bytes off = fl.posted * fl.chunk;
    const Bytes len = std::min(fl.chunk, fl.bytes - off);
    fl.posted_recvs.push_back({MPI_REQUEST_NULL, len, Early{}});
    MPI_Irecv(fl.base + off, static_cast<int>(len), MPI_BYTE, fl.upstream, fl.tag, comms_.data,
              &fl.posted_recvs.back().request);
    ++fl.posted;
  }

  const Comms& comms_;
  Bytes budget_;
  Bytes slot_bytes_ = 0;
  SlotPool pool_;
  std::map<Rank, std::deque<SlotRecv>> upstream_;
  std::unordered_map<std::uint64_t, std::uint64_t> arrived_;  // (upstream, tag) -> chunks so far
  std::vector<Final> finals_;
  Requests<std::uint64_t> sends_;
  std::vector<std::uint64_t> sent_to_, received_from_;  // data messages per peer in this operation
  Channel<CreditEntry> credits_;
  WaitSet waits_;
};

}  // namespace

std::unique_ptr<Transport> make_p2p_transport(const Comms& comms, Bytes budget) {
  return std::make_unique<P2P>(comms, budget);
}

}  // namespace optiq::rt
