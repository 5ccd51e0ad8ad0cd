// Small control messages of one kind (credits, notifications, addresses) between ranks.
// Each side knows exactly how many entries it will receive from every peer, so it keeps one
// receive posted only while more are due: nothing is left posted when an operation ends, and
// nothing of one operation can be matched by the next.
#pragma once

#include <mpi.h>

#include <cstdint>
#include <list>
#include <map>
#include <vector>

#include "runtime/transport/transport.hpp"
#include "runtime/transport/wait_set.hpp"

namespace optiq::rt {

template <class Entry>
class Channel {
 public:
  static constexpr std::size_t kBatch = 256;  // entries per message at most

  Channel(const Comms& comms, int tag) : comms_(comms), tag_(tag) {}

  // Before an operation: `entries` will come from `peer` in total.
  void expect(Rank peer, std::uint64_t entries) {
    if (entries == 0) return;
    inboxes_.push_back({peer, entries, std::vector<Entry>(kBatch), MPI_REQUEST_NULL, Early{}});
    post(inboxes_.back());
  }

  void push(Rank peer, const Entry& e) { pending_[peer].push_back(e); }

  // Sends everything pushed so far.
  void flush() {
    for (auto& [peer, entries] : pending_) {
      for (std::size_t at = 0; at < entries.size(); at += kBatch) {
        const std::size_t n = std::min(kBatch, entries.size() - at);
        outgoing_.push_back({std::vector<Entry>(entries.begin() + at, entries.begin() + at + n), MPI_REQUEST_NULL});
        auto& o = outgoing_.back();
        MPI_Isend(o.entries.data(), static_cast<int>(n * sizeof(Entry)), MPI_BYTE, peer, tag_, comms_.ctrl, &o.request);
      }
    }
    pending_.clear();
    for (auto it = outgoing_.begin(); it != outgoing_.end();) {
      int done = 0;
      MPI_Test(&it->request, &done, MPI_STATUS_IGNORE);
      it = done ? outgoing_.erase(it) : std::next(it);
    }
  }

  // Calls on_entry(peer, entry) for every entry received.
  template <class F>
  void poll(F&& on_entry) {
    for (Inbox& in : inboxes_) {
      while (in.left > 0) {
        int done = in.early.done;
        MPI_Status status = in.early.status;
        if (!done) MPI_Test(&in.request, &done, &status);
        if (!done) break;
        in.early.done = false;
        int bytes = 0;
        MPI_Get_count(&status, MPI_BYTE, &bytes);
        const std::size_t n = static_cast<std::size_t>(bytes) / sizeof(Entry);
        if (n == 0 || n * sizeof(Entry) != static_cast<std::size_t>(bytes) || n > in.left)
          fatal(comms_, "a control message does not fit what the schedule expects");
        in.left -= n;
        for (std::size_t i = 0; i < n; ++i) on_entry(in.peer, in.buffer[i]);
        if (in.left > 0) post(in);
      }
    }
  }

  void watch(WaitSet& w) {
    for (Inbox& in : inboxes_)
      if (in.left > 0) w.add(&in.request, &in.early);
    for (Outgoing& o : outgoing_) w.add(&o.request, nullptr);
  }

  // Nothing to send, nothing on its way out, nothing more due in.
  bool quiet() const {
    if (!pending_.empty() || !outgoing_.empty()) return false;
    for (const Inbox& in : inboxes_)
      if (in.left > 0) return false;
    return true;
  }

  void reset() { inboxes_.clear(); }

 private:
  struct Inbox {
    Rank peer;
    std::uint64_t left;
    std::vector<Entry> buffer;
    MPI_Request request;
    Early early;
  };
  struct Outgoing {
    std::vector<Entry> entries;
    MPI_Request request;
  };

  void post(Inbox& in) {
    MPI_Irecv(in.buffer.data(), static_cast<int>(kBatch * sizeof(Entry)), MPI_BYTE, in.peer, tag_, comms_.ctrl,
              &in.request);
  }

  const Comms& comms_;
  int tag_;
  std::list<Inbox> inboxes_;  // a list: posted receives keep their buffers in place
  std::map<Rank, std::vector<Entry>> pending_;
  std::list<Outgoing> outgoing_;
};

}  // namespace optiq::rt
