// The interface between the engine (what to send, when, and from which slot) and a transport
// (how bytes reach the next rank). One folder per transport.
#pragma once

#include <mpi.h>

#include <cstdint>
#include <memory>
#include <vector>

#include "optiq/core/schedule.hpp"

namespace optiq::rt {

// The communicators of one context, duplicated from the application's so that optiq's
// messages never match the application's. Forwarded chunks travel on their own communicator
// because forwarders receive them with MPI_ANY_TAG.
struct Comms {
  MPI_Comm data = MPI_COMM_NULL;  // chunks into the destination's receive buffer
  MPI_Comm fwd = MPI_COMM_NULL;   // chunks into forwarding slots
  MPI_Comm ctrl = MPI_COMM_NULL;  // credits, announces, releases, and planning collectives
  MPI_Comm classes = MPI_COMM_NULL;  // "ended here" notices (optiq_options.class_until_done)
  int rank = 0;
  int size = 0;
};

// Control-message tags on Comms::ctrl (data tags start at kDataTagBase).
constexpr int kTagCredit = 1;
constexpr int kTagNotify = 2;
constexpr int kTagRelease = 3;

// The application's buffers for one operation; offsets are in bytes.
struct Buffers {
  const char* send = nullptr;
  char* recv = nullptr;
  std::vector<Bytes> send_off;  // by destination rank
  std::vector<Bytes> recv_off;  // by source rank
  const char* send_at(Rank dst, Bytes offset) const { return send + send_off[dst] + offset; }
  char* recv_at(Rank src, Bytes offset) const { return recv + recv_off[src] + offset; }
};

struct OutChunk {
  Rank peer = 0;
  int tag = 0;
  int slot = -1;            // >= 0: that forwarding slot at peer; -1: peer is the destination
  std::uint64_t index = 0;  // chunk number within its flow
  Bytes flow_offset = 0;    // where the chunk lands within its flow
  const char* data = nullptr;
  Bytes len = 0;
  std::uint64_t cookie = 0;  // handed back when the send is complete
};

struct Arrival {  // a chunk now sitting in one of this rank's forwarding slots
  Rank upstream = 0;
  int tag = 0;
  int slot = 0;
  std::uint64_t index = 0;
  Bytes len = 0;
};

struct Credit {  // a slot at `peer` this rank may now fill
  Rank peer = 0;
  std::int32_t cls = 0;
  std::int32_t slot = 0;
};

struct Events {
  std::vector<Arrival> arrivals;
  std::vector<std::uint64_t> sent;  // cookies of completed sends: their source memory is free again
  std::vector<Credit> credits;
  std::uint64_t delivered = 0;  // chunks that landed in this rank's receive buffer
  void clear() {
    arrivals.clear();
    sent.clear();
    credits.clear();
    delivered = 0;
  }
};

class Transport {
 public:
  virtual ~Transport() = default;
  // Start an operation: receive-side set-up for the schedule's flows and streams.
  virtual void begin(const RankSchedule& schedule, const Buffers& buffers) = 0;
  virtual char* slot(int index) = 0;
  // Slot `index` of this rank is open for the next chunk from `upstream`.
  virtual void grant(Rank upstream, int index) = 0;
  virtual void send(const OutChunk& chunk) = 0;
  virtual void credit(Rank peer, std::int32_t cls, std::int32_t slot) = 0;
  virtual void poll(Events& events) = 0;
  // Moves what the transport can move without the engine, while the engine spends time on
  // other work (copying a backlog of forwarded chunks): control messages pushed so far leave,
  // and a receiver-driven transport starts fetching what was announced to it. Reports
  // nothing: completions wait for the next poll.
  virtual void progress() {}
  // Blocks until one of the transport's own requests completes, so that the next poll has
  // news; returns at once when nothing is pending. Only called right after a poll.
  virtual void block() = 0;
  // True when no message of the transport's own is still on its way.
  virtual bool quiet() = 0;
  virtual void end() = 0;
  // Bytes of forwarding memory the transport holds.
  virtual Bytes reserved() const = 0;
  // True when a sender may not assume the schedule's initial credits: the forwarder sends them
  // as credit messages once its slots are free for this operation. A transport needs this when
  // a sender writes into a remote slot without its owner taking part (one-sided puts): a fast
  // rank could otherwise fill a slot that a slower rank still forwards from in the previous
  // operation. Where only the slot's owner writes into it (a receive it posts, a get it
  // issues), and only after its own begin(), the initial credits are safe as they stand.
  virtual bool announces_initial_credits() const = 0;

  // Early starts. A rank may begin an operation before the ranks have agreed on it when its
  // part of the schedule is direct (no forwarding, no slots): if the agreement then picks
  // the same schedule, the operation simply goes on. Else every rank calls withdraw(), a
  // collective over comms.ctrl, which completes or discards every message started early
  // (`started`: this rank began an operation since the last one ended) and leaves the
  // transport idle, with no message of the withdrawn operation left anywhere.
  virtual bool starts_early() const { return false; }
  virtual void withdraw(bool started) = 0;
};

// Both are created collectively over comms.ctrl at context creation.
std::unique_ptr<Transport> make_p2p_transport(const Comms& comms, Bytes budget);
std::unique_ptr<Transport> make_rma_transport(const Comms& comms, Bytes budget);

// An invariant of the exchange broke: peers may be waiting for this rank, so stop the job
// rather than let it hang or deliver wrong bytes.
[[noreturn]] void fatal(const Comms& comms, const char* what);

}  // namespace optiq::rt
