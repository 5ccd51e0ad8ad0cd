// One-sided transport, receiver-driven: every hop is an MPI_Rget by the next rank. A rank that
// holds a complete chunk (in the application's send buffer, or in a forwarding slot it filled)
// announces it to the next hop with its address; the next hop fetches it into its own slot or
// straight into its receive buffer and, once the get has completed, tells the holder that the
// memory is free again. Announces and releases are small two-sided messages, batched per peer
// and round. Nothing waits for remote completion: the completion of a get request means the
// data is in place, and the holder learns that the source was read from the release.
//
// The window is dynamic: the forwarding pool is attached for the context's lifetime, and
// during an operation the part of the send buffer the schedule sends from. The receive buffer
// is never exposed: only its owner writes into it.
#include <algorithm>
#include <deque>
#include <map>
#include <unordered_map>

#include "optiq/core/error.hpp"
#include "runtime/transport/channel.hpp"
#include "runtime/transport/control.hpp"
#include "runtime/transport/requests.hpp"
#include "runtime/transport/slot_pool.hpp"

namespace optiq::rt {

namespace {

std::uint64_t pair_key(Rank peer, std::int32_t tag) {
  return (static_cast<std::uint64_t>(static_cast<std::uint32_t>(peer)) << 32) | static_cast<std::uint32_t>(tag);
}

// Bytes of gets in flight from one upstream; its further announces wait in order, and one get
// always may start. Gets that share the holder's links share its bandwidth, so with every
// announced chunk fetched at once each ends late, together: the chunks forwarded from them, and
// the slots their release frees, come in a burst instead of a stream. A few chunks in flight
// keep the link busy (256 KiB is several times the bandwidth-delay product of a BG/Q link, and
// of an HDR InfiniBand one, 25 GB/s x 2 us) and let the first ones move on early. On a simulated
// 512-node BG/Q 1:8 exchange this took heu2 from 89.7% to 108% of the two-sided transport's
// bandwidth (docs/simulation.md, "One-sided transport").
constexpr Bytes kGetBytesPerUpstream = 256 * 1024;

Bytes chunk_len(Bytes bytes, Bytes chunk, std::uint64_t index) {
  const Bytes off = index * chunk;
  return off >= bytes ? 0 : std::min(chunk, bytes - off);
}

class Rma final : public Transport {
 public:
  Rma(const Comms& comms, Bytes budget)
      : comms_(comms), avail_(comms, kTagNotify), releases_(comms, kTagRelease), credits_(comms, kTagCredit) {
    // The whole budget at once: the pool stays attached, at one address, for the context's life.
    pool_.reserve(std::max<Bytes>(budget, 1));
    MPI_Win_create_dynamic(MPI_INFO_NULL, comms.ctrl, &win_);
    MPI_Win_attach(win_, pool_.data(), static_cast<MPI_Aint>(pool_.size()));
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
    granted_.assign(s.num_slots, -1);

    // Expose the part of the send buffer this rank's own flows start from.
    const char* lo = nullptr;
    const char* hi = nullptr;
    for (const SendFlow& f : s.sends) {
      if (f.bytes == 0) continue;
      const char* at = b.send_at(f.dst, f.offset);
      lo = lo ? std::min(lo, at) : at;
      hi = hi ? std::max(hi, at + f.bytes) : at + f.bytes;
    }
    attached_ = const_cast<char*>(lo);
    if (attached_) MPI_Win_attach(win_, attached_, static_cast<MPI_Aint>(hi - lo));

    finals_.clear();
    final_index_.clear();
    for (const RecvFlow& r : s.recvs) {
      final_index_[pair_key(r.upstream, r.tag)] = finals_.size();
      finals_.push_back({b.recv_at(r.src, r.offset), r.bytes, r.chunk, std::vector<bool>((r.bytes + r.chunk - 1) / r.chunk)});
    }

    // Exact counts: one announce per chunk from its holder, one release per chunk announced,
    // and the credits beyond the initial ones (those stand: see announces_initial_credits).
    std::map<Rank, std::uint64_t> announces_due, releases_due, credits_due;
    for (const SendFlow& f : s.sends) releases_due[f.next] += (f.bytes + f.chunk - 1) / f.chunk;
    for (const ForwardEntry& f : s.forwards) {
      const std::uint64_t n = (f.bytes + f.chunk - 1) / f.chunk;
      announces_due[f.upstream] += n;
      releases_due[f.next] += n;
    }
    for (const RecvFlow& r : s.recvs) announces_due[r.upstream] += (r.bytes + r.chunk - 1) / r.chunk;
    for (const Stream& o : s.out_streams) credits_due[o.peer] += o.chunks - o.initial;
    avail_.reset();
    releases_.reset();
    credits_.reset();
    for (const auto& [peer, n] : announces_due) avail_.expect(peer, n);
    for (const auto& [peer, n] : releases_due) releases_.expect(peer, n);
    for (const auto& [peer, n] : credits_due) credits_.expect(peer, n);
  }

  char* slot(int index) override { return pool_.data() + static_cast<Bytes>(index) * slot_bytes_; }

  // The slot may take one chunk from `upstream`; the credit tells the upstream which.
  void grant(Rank upstream, int index) override {
    if (granted_[index] != -1) fatal(comms_, "a forwarding slot was lent twice");
    granted_[index] = upstream;
  }

  void send(const OutChunk& c) override {
    MPI_Aint address;
    MPI_Get_address(c.data, &address);
    std::uint64_t id;
    if (free_ids_.empty()) {
      id = out_.size();
      out_.push_back({});
    } else {
      id = free_ids_.back();
      free_ids_.pop_back();
    }
    out_[id] = {c.peer, c.cookie, true};
    avail_.push(c.peer, {c.tag, c.slot, c.index, c.len, static_cast<std::int64_t>(address), id});
  }

  void credit(Rank peer, std::int32_t cls, std::int32_t slot) override { credits_.push(peer, {cls, slot}); }

  void poll(Events& ev) override {
    releases_.poll([&](Rank peer, const ReleaseEntry& e) {
      if (e.id >= out_.size() || !out_[e.id].busy || out_[e.id].peer != peer)
        fatal(comms_, "a release names no chunk announced to its sender");
      out_[e.id].busy = false;
      free_ids_.push_back(e.id);
      ev.sent.push_back(out_[e.id].cookie);
    });
    credits_.poll([&](Rank peer, const CreditEntry& e) { ev.credits.push_back({peer, e.cls, e.slot}); });
    avail_.poll([&](Rank peer, const AvailEntry& e) { fetch(peer, e); });
    bool filled = false;
    gets_.test([&](const Get& g, const MPI_Status&) {
      upstreams_[g.upstream].in_flight -= g.len;
      if (g.slot >= 0) {
        ev.arrivals.push_back({g.upstream, g.tag, g.slot, g.index, g.len});
        filled = true;
      } else {
        ++ev.delivered;
      }
      releases_.push(g.upstream, {g.id});
    });
    // The slots just filled are read by the next hop's gets once the engine announces them.
    if (filled) MPI_Win_sync(win_);
    start_waiting_gets();
    flush();
  }

  // Without it, a forwarder that copies several chunks in a row would hold their announces,
  // and the gets announced to it, until the last copy ends: the chains behind it stall.
  void progress() override {
    avail_.poll([&](Rank peer, const AvailEntry& e) { fetch(peer, e); });
    flush();
  }

  void block() override {
    flush();  // whatever the engine pushed since the poll leaves now, or a peer could wait for it
    waits_.clear();
    avail_.watch(waits_);
    releases_.watch(waits_);
    credits_.watch(waits_);
    gets_.watch(waits_);
    waits_.wait();
  }

  bool quiet() override { return gets_.empty() && avail_.quiet() && releases_.quiet() && credits_.quiet(); }

  void end() override {
    if (!gets_.empty() || waiting_ > 0) fatal(comms_, "a get is still in flight after the operation");
    if (free_ids_.size() != out_.size()) fatal(comms_, "an announced chunk was never released");
#ifndef OPTIQ_SMPI
    if (attached_) MPI_Win_detach(win_, attached_);
#else
    // SimGrid SMPI 3.32's MPI_Win_detach forgets every attachment (the window's size becomes -1
    // and each later get from it fails with MPI_ERR_RMA_RANGE). Its dynamic windows take
    // absolute addresses and check only the attached total, so there the region stays attached.
    // SMPI keeps the holder's half of every get from this rank's memory in this window's
    // request list until a flush: all of them are complete (each was released), so this costs
    // no simulated time and keeps the list from growing across operations.
    MPI_Win_flush_local_all(win_);
#endif
    attached_ = nullptr;
  }

  Bytes reserved() const override { return pool_.size(); }
  // Only this rank writes into its slots, by gets it issues in its own polls after its begin():
  // a fast peer's announces for the next operation wait unmatched until then.
  bool announces_initial_credits() const override { return false; }
  void withdraw(bool) override { throw InternalError("the rma transport never starts an operation early"); }

 private:
  struct Final {
    char* base;
    Bytes bytes, chunk;
    std::vector<bool> got;
  };
  struct Get {
    Rank upstream;
    std::int32_t tag, slot;
    std::uint64_t index;
    Bytes len;
    std::uint64_t id;
  };
  struct Waiting {
    char* dest;
    AvailEntry e;
  };
  struct Upstream {
    Bytes in_flight = 0;  // bytes
    std::deque<Waiting> waiting;  // announced, not yet fetched, in announce order
  };
  struct Out {
    Rank peer = 0;
    std::uint64_t cookie = 0;
    bool busy = false;
  };

  void flush() {
    releases_.flush();
    credits_.flush();
    avail_.flush();
  }

  // Checks an announce against the schedule and starts the get it asks for, or queues it behind
  // the upstream's gets in flight.
  void fetch(Rank upstream, const AvailEntry& e) {
    char* dest = nullptr;
    if (e.slot >= 0) {
      if (e.slot >= static_cast<std::int32_t>(granted_.size()) || granted_[e.slot] != upstream)
        fatal(comms_, "a chunk was announced for a slot not lent to its sender");
      if (e.len == 0 || e.len > slot_bytes_) fatal(comms_, "a forwarded chunk does not fit its slot");
      granted_[e.slot] = -1;
      dest = slot(e.slot);
    } else {
      auto it = final_index_.find(pair_key(upstream, e.tag));
      if (it == final_index_.end()) fatal(comms_, "a chunk was announced for a flow this rank does not receive");
      Final& f = finals_[it->second];
      if (e.index >= f.got.size() || e.len != chunk_len(f.bytes, f.chunk, e.index))
        fatal(comms_, "a chunk does not match its flow's layout");
      if (f.got[e.index]) fatal(comms_, "a chunk was announced twice");
      f.got[e.index] = true;
      dest = f.base + e.index * f.chunk;
    }
    Upstream& u = upstreams_[upstream];
    if (u.in_flight < kGetBytesPerUpstream) {
      get(upstream, u, dest, e);
    } else {
      u.waiting.push_back({dest, e});
      ++waiting_;
    }
  }

  // Every get that waits has one in flight ahead of it from the same upstream, so gets_ is not
  // empty while any waits: quiet() and block() need not know of them.
  void start_waiting_gets() {
    if (waiting_ == 0) return;
    for (auto& [upstream, u] : upstreams_)
      while (u.in_flight < kGetBytesPerUpstream && !u.waiting.empty()) {
        get(upstream, u, u.waiting.front().dest, u.waiting.front().e);
        u.waiting.pop_front();
        --waiting_;
      }
  }

  void get(Rank upstream, Upstream& u, char* dest, const AvailEntry& e) {
    MPI_Request r;
    MPI_Rget(dest, static_cast<int>(e.len), MPI_BYTE, upstream, static_cast<MPI_Aint>(e.address),
             static_cast<int>(e.len), MPI_BYTE, win_, &r);
    gets_.add(r, {upstream, e.tag, e.slot, e.index, static_cast<Bytes>(e.len), e.id});
    u.in_flight += e.len;
  }

  const Comms& comms_;
  MPI_Win win_ = MPI_WIN_NULL;
  SlotPool pool_;
  Bytes slot_bytes_ = 0;
  std::vector<Rank> granted_;  // by slot: the upstream that may fill it next, or -1
  char* attached_ = nullptr;   // the exposed part of the send buffer
  std::vector<Final> finals_;
  std::unordered_map<std::uint64_t, std::size_t> final_index_;  // (upstream, tag) -> finals_
  std::vector<Out> out_;  // by announce id: chunks whose memory a next hop may still read
  std::vector<std::uint64_t> free_ids_;
  Requests<Get> gets_;
  std::unordered_map<Rank, Upstream> upstreams_;
  std::size_t waiting_ = 0;  // announces queued in upstreams_
  Channel<AvailEntry> avail_;
  Channel<ReleaseEntry> releases_;
  Channel<CreditEntry> credits_;
  WaitSet waits_;
};

}  // namespace

std::unique_ptr<Transport> make_rma_transport(const Comms& comms, Bytes budget) {
  // A rank alone only copies to itself, which neither transport does through MPI; Open MPI's
  // one-sided component refuses a window on a one-rank communicator (MPI_ERR_WIN).
  if (comms.size == 1) return make_p2p_transport(comms, budget);
  return std::make_unique<Rma>(comms, budget);
}

}  // namespace optiq::rt
