// Collective steps every rank takes together, so that an error seen by one rank is an error
// on all of them instead of a hang.
#pragma once

#include <deque>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "../transport/transport.hpp"
#include "failure.hpp"
#include "optiq/schedule.hpp"

namespace optiq::rt {

// Every rank passes its own verdict (0 or a status code with a message); if any rank failed,
// every rank throws Failure with the lowest failing rank's code and message.
void agree_status(const Comms& comms, int code, const std::string& message);

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

// Collective: checks the contributions, reuses a cached schedule when every rank's part is
// the same as before, else gathers the pattern on rank 0, which plans it. *cache_hit tells which.
std::shared_ptr<const RankSchedule> agree_pattern(const Comms& comms, const LocalPattern& mine, PlanCache* cache,
                                                  const Schedules& make, bool* cache_hit);

}  // namespace optiq::rt
