// Executes one rank's schedule: injects its own chunks, copies forwarded chunks on through the
// slots it lends, counts the chunks it expects, and finishes when its own part is done (no
// global barrier: the schedule says exactly what will arrive).
#pragma once

#include <deque>
#include <unordered_map>
#include <vector>

#include "runtime/transport/transport.hpp"

namespace optiq::rt {

// Which waiting chunk takes a free send: forwarded ones first (they hold slots others wait
// for), the rank's own first, or alternating.
enum class Discipline { ForwardFirst = 0, LocalFirst = 1, RoundRobin = 2 };

// When a rank injects its own chunks. Paced: a chunk is not sent before the flow's bytes ahead
// of it would have left at the plan's rate (bytes / RankSchedule::planned_seconds), so every
// path runs at the rate its share needs and none takes bandwidth the plan gave another;
// forwarded chunks move on as they arrive. Eager: every chunk as soon as a send is free
// (least-progress-first).
enum class Dispatch { Paced = 0, Eager = 1 };

// What a round that finds nothing to do does before it returns. Block: waits inside MPI for
// the next completion (the caller waits for the operation anyway). Pause: yields the core, or
// sleeps until a paced chunk is due (at most a pacing tick), so that a loop of such rounds
// does not spin. Return: returns at once (the caller has work of its own).
enum class Idle { Block, Pause, Return };

struct EngineOptions {
  Discipline discipline = Discipline::ForwardFirst;
  Dispatch dispatch = Dispatch::Paced;
  int max_inflight = 512;  // data messages in flight per rank
  // Held back by a more urgent class, the fraction of this rank's planned rate (its bytes over
  // RankSchedule::predicted_seconds) it still sends at, one message at a time (0: nothing new).
  double held_share = 0;
};

struct EngineStats {
  Bytes injected_bytes = 0;        // from this rank's send buffer to other ranks
  Bytes forwarded_bytes = 0;       // copied on from this rank's slots
  std::uint64_t forwarded_chunks = 0;
  Bytes held_peak = 0;             // most bytes sitting in this rank's slots at once
  Bytes slot_bytes_lent = 0;       // slots * slot size lent in this operation
};

class Engine {
 public:
  Engine(const RankSchedule& schedule, Transport& transport, Buffers buffers, EngineOptions options,
         const Comms& comms);
  void start();
  // One round of progress; true once this rank's part of the operation is complete.
  bool step(Idle idle);
  // Held: a more urgent class's operation is in flight in this process (class_gate.hpp). The
  // engine then sends nothing new, own chunks or forwarded ones, beyond its held share, but
  // keeps receiving.
  void set_held(bool held);
  // Seconds since a round last saw a completion, a credit or an arrival (or since start).
  double seconds_since_activity() const;
  const EngineStats& stats() const { return stats_; }

 private:
  struct Pool {  // slots lent to this rank by one next hop for one class
    Rank peer;
    int cls;
    std::deque<std::int32_t> slots;
  };
  struct Local {
    const SendFlow* flow;
    std::uint64_t next, chunks;
    int pool;  // -1: next hop is the destination, no credit needed
    // Chunk i is due once the flow's bytes before it would have left at the planned rate.
    double due(std::uint64_t i, double start, double seconds) const {
      return start + seconds * static_cast<double>(i * flow->chunk) / static_cast<double>(flow->bytes);
    }
  };
  struct Held {
    std::int32_t slot;
    std::int32_t entry;  // index into schedule.forwards
    std::uint64_t index;
    Bytes len;
  };
  struct Queue {  // forwarded chunks waiting for one next hop and class
    Rank next;
    int cls;
    int pool;
    std::deque<Held> chunks;
  };
  struct Lent {  // slots this rank lends to one upstream stream
    Rank upstream;
    int cls;
    std::uint64_t granted, total;
  };

  int pool_for(Rank peer, int cls);
  void on_arrival(const Arrival& a);
  void release(std::int32_t slot);
  void give(std::int32_t slot, std::size_t stream);
  void issue_sends();
  void issue_held_share();
  bool issue_local();
  bool issue_forward();

  const RankSchedule& s_;
  Transport& t_;
  Buffers b_;
  EngineOptions o_;
  const Comms& comms_;
  EngineStats stats_;
  Events events_;

  std::vector<Pool> pools_;
  std::unordered_map<std::uint64_t, int> pool_index_;
  std::vector<Local> locals_;
  std::size_t local_cursor_ = 0;
  std::vector<Queue> queues_;
  std::vector<int> queue_of_entry_;
  std::unordered_map<std::uint64_t, int> entry_index_;  // (upstream, tag_in) -> schedule.forwards
  std::size_t queue_cursor_ = 0;
  std::vector<Lent> lent_;
  std::unordered_map<std::uint64_t, std::size_t> lent_index_;
  std::vector<std::size_t> slot_stream_;
  std::vector<Bytes> slot_len_;
  std::size_t hungry_cursor_ = 0;

  std::uint64_t local_left_ = 0, queued_ = 0, forward_left_ = 0, final_left_ = 0, inflight_ = 0;
  Bytes held_ = 0;
  bool prefer_forward_ = true;
  bool done_ = false;
  bool yielding_ = false;  // set_held
  // While held with a share: bytes it may still send (accrued at held_rate_ since held_clock_).
  double held_rate_ = 0, held_allowance_ = 0, held_clock_ = 0;
  double last_activity_ = 0;
  // Pacing: the plan's time (0: not paced), when this rank started, the clock at the last
  // round, and the earliest due time of a chunk held back in it (infinity: none).
  double pace_seconds_ = 0, start_time_ = 0, now_ = 0, next_due_ = 0;
  double copying_ = 0;  // seconds of copies charged since the transport last progressed
};

}  // namespace optiq::rt
