// Collective steps every rank takes together, so that an error seen by one rank is an error
// on all of them instead of a hang.
#pragma once

#include <deque>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "runtime/transport/transport.hpp"
#include "runtime/online/failure.hpp"
#include "optiq/core/schedule.hpp"

namespace optiq::rt {

// Every rank passes its own verdict (0 or a status code with a message); if any rank failed,
// every rank throws Failure with the lowest failing rank's code and message.
void agree_status(const Comms& comms, int code, const std::string& message);

// A collective call's arguments that must match on every rank, folded into one 64-bit
// fingerprint (FNV-1a over the texts, each with its terminating NUL).
std::uint64_t fingerprint(const std::vector<std::string>& texts);
// Every rank passes its fingerprint; if one differs from rank 0's, every rank throws
// Failure(OPTIQ_ERR_ARG, "rank R passed WHAT other than rank 0's") for the lowest such rank.
void agree_same(const Comms& comms, std::uint64_t mine, const std::string& what);

// Both of the above in one allreduce when all is well (the failure paths add the collectives
// that name the rank): what every repeated collective call pays.
void agree_status_and_same(const Comms& comms, int code, const std::string& message, std::uint64_t mine,
                           const std::string& what);

// Rank 0 runs make() (a Failure or optiq::Error it throws becomes every rank's Failure) and
// every rank receives its own schedule.
std::shared_ptr<const RankSchedule> distribute(const Comms& comms,
                                               const std::function<std::vector<RankSchedule>()>& make);

// What one rank contributes to an alltoallv: its non-zero sends and receives, or a problem.
struct LocalPattern {
  std::vector<PeerBytes> sends;  // by destination, ascending
  std::vector<PeerBytes> recvs;  // by source, ascending
  int code = 0;
  std::string message;
};

// Schedules of patterns seen before, keyed by every rank's digest of its own part. All ranks
// insert and evict in the same order, so their caches agree without talking.
class PlanCache {
 public:
  std::shared_ptr<const RankSchedule> find(const std::vector<std::uint64_t>& key) const;
  void insert(std::vector<std::uint64_t> key, std::shared_ptr<const RankSchedule> schedule);

 private:
  static constexpr std::size_t kCapacity = 16;
  std::deque<std::pair<std::vector<std::uint64_t>, std::shared_ptr<const RankSchedule>>> entries_;
};

// The whole pattern, on rank 0: sends[r] and recvs[r] as contributed by rank r.
using Schedules = std::function<std::vector<RankSchedule>(const std::vector<std::vector<PeerBytes>>& sends,
                                                          const std::vector<std::vector<PeerBytes>>& recvs)>;

// The first collective step of an alltoallv, started without waiting: one small non-blocking
// allreduce folds every rank's verdict and the digest of its part into a key. A rank may move
// data while it completes (an early start, see optiq_context::last); the vote counts those ranks.
class PatternVote {
 public:
  PatternVote(const Comms& comms, const LocalPattern& mine);
  void start(bool early_start);
  PatternVote(const PatternVote&) = delete;
  PatternVote& operator=(const PatternVote&) = delete;
  ~PatternVote();
  void wait();
  // After wait(): the same on every rank.
  std::vector<std::uint64_t> key() const { return {sum_[0], sum_[1]}; }
  bool failed() const { return sum_[2] != 0; }
  bool early_starts() const { return sum_[3] != 0; }
  // This rank's own part, comparable between calls.
  std::pair<std::uint64_t, std::uint64_t> digest() const { return {mine_[0], mine_[1]}; }
  const std::uint64_t* contribution() const { return mine_; }

 private:
  std::uint64_t mine_[5];  // digests, sends, receives, verdict (the slow path gathers these)
  std::uint64_t sum_[4];   // key, failed ranks, early starts
  MPI_Comm comm_;
  MPI_Request request_ = MPI_REQUEST_NULL;
};

// The last alltoallv a context completed: the key it was agreed on, this rank's digest of its
// own part and its schedule. A rank whose part repeats and whose schedule is direct (it
// forwards nothing and sends nothing through a forwarder) starts that schedule at once,
// without waiting for the vote; the vote then confirms it (same key, no failure) or every rank
// withdraws what started early.
struct LastCall {
  std::vector<std::uint64_t> key;
  std::pair<std::uint64_t, std::uint64_t> digest{};
  std::shared_ptr<const RankSchedule> schedule;
  bool may_start_early(const PatternVote& vote) const;
  bool confirmed_by(const PatternVote& vote) const { return schedule && !vote.failed() && vote.key() == key; }
};

// Collective, after the vote: reuses a cached schedule when every rank's part is the same as
// before, else gathers the pattern on rank 0, which plans it. *cache_hit tells which. Raises
// the lowest failing rank's error on every rank when any rank failed its checks.
std::shared_ptr<const RankSchedule> settle_pattern(const Comms& comms, const LocalPattern& mine,
                                                   const PatternVote& vote, PlanCache* cache, const Schedules& make,
                                                   bool* cache_hit);

}  // namespace optiq::rt
