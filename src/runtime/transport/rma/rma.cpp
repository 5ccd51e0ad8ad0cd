// One-sided transport: every hop is an MPI_Put into the next rank's memory, exposed through
// one dynamic window per context: the forwarding pool (attached for the context's lifetime)
// and, during an operation, the receive buffer. A destination tells each last-hop sender where
// every flow lands; after a batch of puts the sender flushes them to the target and sends one
// notification listing the chunks, so the target learns of data only once it is in place.
#include <algorithm>
#include <map>
#include <unordered_map>

#include "optiq/error.hpp"
#include "../channel.hpp"
#include "../control.hpp"

namespace optiq::rt {

namespace {

std::uint64_t pair_key(Rank peer, std::int64_t tag) {
  return (static_cast<std::uint64_t>(static_cast<std::uint32_t>(peer)) << 32) | static_cast<std::uint32_t>(tag);
}

class Rma final : public Transport {
 public:
  Rma(const Comms& comms, Bytes budget)
      : comms_(comms), pool_(std::max<Bytes>(budget, 1)), notify_(comms, kTagNotify), credits_(comms, kTagCredit),
        addresses_(comms, kTagAddress) {
    MPI_Win_create_dynamic(MPI_INFO_NULL, comms.ctrl, &win_);
    MPI_Win_attach(win_, pool_.data(), static_cast<MPI_Aint>(pool_.size()));
    MPI_Aint mine;
    MPI_Get_address(pool_.data(), &mine);
    pool_base_.resize(comms.size);
    MPI_Allgather(&mine, 1, MPI_AINT, pool_base_.data(), 1, MPI_AINT, comms.ctrl);
    // One passive-target epoch to every rank for the context's lifetime.
    MPI_Win_lock_all(MPI_MODE_NOCHECK, win_);
  }

  ~Rma() override {
    MPI_Win_unlock_all(win_);
    MPI_Win_detach(win_, pool_.data());
    MPI_Win_free(&win_);
  }

  void begin(const RankSchedule& s, const Buffers& b) override {
    slot_bytes_ = s.slot_bytes;
    if (s.slot_bytes * s.num_slots > pool_.size()) fatal(comms_, "the schedule lends more slot memory than the budget");
    peer_slot_bytes_.clear();
    for (const Stream& o : s.out_streams) peer_slot_bytes_[o.peer] = o.slot_bytes;
    where_.clear();

    // Expose the part of the receive buffer remote ranks write, and tell them where.
    char* lo = nullptr;
    char* hi = nullptr;
    for (const RecvFlow& r : s.recvs) {
      char* at = b.recv_at(r.src, r.offset);
      lo = lo ? std::min(lo, at) : at;
      hi = hi ? std::max(hi, at + r.bytes) : at + r.bytes;
    }
    attached_ = lo;
    if (attached_) MPI_Win_attach(win_, attached_, static_cast<MPI_Aint>(hi - lo));
    for (const RecvFlow& r : s.recvs) {
      MPI_Aint a;
      MPI_Get_address(b.recv_at(r.src, r.offset), &a);
      addresses_.push(r.upstream, {r.tag, static_cast<std::int64_t>(a)});
    }

    std::map<Rank, std::uint64_t> addresses_due, chunks_due, credits_due;
    for (const SendFlow& f : s.sends)
      if (f.next_class == 0) ++addresses_due[f.next];
    for (const ForwardEntry& f : s.forwards) {
      if (f.next_class == 0) ++addresses_due[f.next];
      chunks_due[f.upstream] += (f.bytes + f.chunk - 1) / f.chunk;
    }
    for (const RecvFlow& r : s.recvs) chunks_due[r.upstream] += (r.bytes + r.chunk - 1) / r.chunk;
    for (const Stream& o : s.out_streams) credits_due[o.peer] += o.chunks;  // initial ones come as messages too
    addresses_.reset();
    notify_.reset();
    credits_.reset();
    for (const auto& [peer, n] : addresses_due) addresses_.expect(peer, n);
    for (const auto& [peer, n] : chunks_due) notify_.expect(peer, n);
    for (const auto& [peer, n] : credits_due) credits_.expect(peer, n);
    addresses_.flush();
  }

  char* slot(int index) override { return pool_.data() + static_cast<Bytes>(index) * slot_bytes_; }

  void grant(Rank, int) override {}  // the slot is already exposed; the credit says so

  void send(const OutChunk& c) override {
    if (c.slot < 0 && !where_.count(pair_key(c.peer, c.tag))) {
      waiting_.push_back(c);  // the destination has not said where yet
      return;
    }
    put(c);
  }

  void credit(Rank peer, std::int32_t cls, std::int32_t slot) override { credits_.push(peer, {cls, slot}); }

  void poll(Events& ev) override {
    addresses_.poll([&](Rank peer, const AddressEntry& e) { where_[pair_key(peer, e.tag)] = e.address; });
    if (!waiting_.empty()) {
      std::vector<OutChunk> still;
      for (const OutChunk& c : waiting_) {
        if (where_.count(pair_key(c.peer, c.tag))) put(c);
        else still.push_back(c);
      }
      waiting_.swap(still);
    }
    bool landed = false;
    notify_.poll([&](Rank peer, const NotifyEntry& e) {
      landed = true;
      if (e.slot < 0) ++ev.delivered;
      else ev.arrivals.push_back({peer, e.tag, e.slot, e.index, e.len});
    });
    // Make the puts the notifications announce visible to this rank's loads.
    if (landed) MPI_Win_sync(win_);
    credits_.poll([&](Rank peer, const CreditEntry& e) { ev.credits.push_back({peer, e.cls, e.slot}); });
    for (auto& [target, done] : unflushed_) {
      if (done.empty()) continue;
      MPI_Win_flush(target, win_);
      for (const auto& [n, cookie] : done) {
        notify_.push(target, n);
        ev.sent.push_back(cookie);
      }
      done.clear();
    }
    notify_.flush();
    credits_.flush();
    addresses_.flush();  // also completes the sends begin() started
  }

  // poll flushed every completed put, so what is left to wait for are control messages.
  void block() override {
    waits_.clear();
    addresses_.watch(waits_);
    notify_.watch(waits_);
    credits_.watch(waits_);
    waits_.wait();
  }

  bool quiet() override {
    return waiting_.empty() && notify_.quiet() && credits_.quiet() && addresses_.quiet();
  }

  void end() override {
    if (!waiting_.empty()) fatal(comms_, "a chunk was never put");
#ifndef OPTIQ_SMPI
    if (attached_) MPI_Win_detach(win_, attached_);
#endif
    // SimGrid SMPI 3.32's MPI_Win_detach forgets every attachment (the window's size becomes -1
    // and each later put into it fails with MPI_ERR_RMA_RANGE). Its dynamic windows take
    // absolute addresses and check only the attached total, so there the buffer stays attached.
    attached_ = nullptr;
  }

  Bytes reserved() const override { return pool_.size(); }
  bool announces_initial_credits() const override { return true; }
  void withdraw(bool) override { throw InternalError("the rma transport never starts an operation early"); }

 private:
  void put(const OutChunk& c) {
    MPI_Aint target;
    if (c.slot >= 0) {
      target = pool_base_[c.peer] + static_cast<MPI_Aint>(c.slot * peer_slot_bytes_.at(c.peer));
    } else {
      target = static_cast<MPI_Aint>(where_.at(pair_key(c.peer, c.tag)) + static_cast<std::int64_t>(c.flow_offset));
    }
    MPI_Put(c.data, static_cast<int>(c.len), MPI_BYTE, c.peer, target, static_cast<int>(c.len), MPI_BYTE, win_);
    unflushed_[c.peer].push_back({NotifyEntry{c.tag, c.slot, c.index, c.len}, c.cookie});
  }

  const Comms& comms_;
  MPI_Win win_ = MPI_WIN_NULL;
  std::vector<char> pool_;
  std::vector<MPI_Aint> pool_base_;
  Bytes slot_bytes_ = 0;
  std::map<Rank, Bytes> peer_slot_bytes_;
  char* attached_ = nullptr;
  std::unordered_map<std::uint64_t, std::int64_t> where_;  // (destination, tag) -> address
  std::vector<OutChunk> waiting_;
  std::map<Rank, std::vector<std::pair<NotifyEntry, std::uint64_t>>> unflushed_;
  Channel<NotifyEntry> notify_;
  Channel<CreditEntry> credits_;
  Channel<AddressEntry> addresses_;
  WaitSet waits_;
};

}  // namespace

std::unique_ptr<Transport> make_rma_transport(const Comms& comms, Bytes budget) {
  return std::make_unique<Rma>(comms, budget);
}

}  // namespace optiq::rt
