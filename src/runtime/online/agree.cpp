#include "runtime/online/agree.hpp"

#include <algorithm>
#include <cstdint>

#include "optiq/core/error.hpp"
#include "optiq/optiq.h"
#include "runtime/online/gather_scatter.hpp"

namespace optiq::rt {

namespace {

// The lowest failing rank (or none) is known on every rank: its code and message go to all.
void raise_from(const Comms& comms, int root, int code, const std::string& message) {
  if (root >= comms.size) return;
  int header[2] = {code, static_cast<int>(message.size())};
  MPI_Bcast(header, 2, MPI_INT, root, comms.ctrl);
  std::string text = comms.rank == root ? message : std::string(header[1], '\0');
  MPI_Bcast(text.data(), header[1], MPI_CHAR, root, comms.ctrl);
  throw Failure(header[0], comms.size > 1 ? "rank " + std::to_string(root) + ": " + text : text);
}

void raise_first(const Comms& comms, const std::vector<int>& codes, const std::string& message) {
  const auto bad = std::find_if(codes.begin(), codes.end(), [](int c) { return c != 0; });
  const int root = static_cast<int>(bad - codes.begin());
  raise_from(comms, root, root < comms.size ? codes[root] : 0, message);
}

}  // namespace

void agree_status(const Comms& comms, int code, const std::string& message) {
  // One small allreduce when all is well (every optiq_execute pays it).
  const int mine = code != 0 ? comms.rank : comms.size;
  int first = comms.size;
  MPI_Allreduce(&mine, &first, 1, MPI_INT, MPI_MIN, comms.ctrl);
  raise_from(comms, first, code, message);
}

std::uint64_t fingerprint(const std::vector<std::string>& texts) {
  std::uint64_t h = 0xcbf29ce484222325ULL;
  for (const std::string& t : texts)
    for (std::size_t i = 0; i <= t.size(); ++i) h = (h ^ static_cast<unsigned char>(t.c_str()[i])) * 0x100000001b3ULL;
  return h;
}

void agree_same(const Comms& comms, std::uint64_t mine, const std::string& what) {
  std::vector<std::uint64_t> all(static_cast<std::size_t>(comms.size));
  MPI_Allgather(&mine, 1, MPI_UINT64_T, all.data(), 1, MPI_UINT64_T, comms.ctrl);
  for (int r = 1; r < comms.size; ++r)
    if (all[r] != all[0]) throw Failure(OPTIQ_ERR_ARG, "rank " + std::to_string(r) + " passed " + what + " other than rank 0's");
}

void agree_status_and_same(const Comms& comms, int code, const std::string& message, std::uint64_t mine,
                           const std::string& what) {
  // One allreduce, by maximum: the lowest failing rank (as size - rank) and the fingerprint both
  // ways (its maximum equals the complement of the complements' maximum only when all agree).
  std::uint64_t folded[3] = {code != 0 ? static_cast<std::uint64_t>(comms.size - comms.rank) : 0, mine, ~mine};
  MPI_Allreduce(MPI_IN_PLACE, folded, 3, MPI_UINT64_T, MPI_MAX, comms.ctrl);
  if (folded[0] > 0) raise_from(comms, comms.size - static_cast<int>(folded[0]), code, message);
  if (folded[1] != ~folded[2]) agree_same(comms, mine, what);  // rare: name the first rank that differs
}

std::shared_ptr<const RankSchedule> distribute(const Comms& comms,
                                               const std::function<std::vector<RankSchedule>()>& make) {
  // Everything that can fail on rank 0 happens before it tells the others how it went.
  int code = 0;
  std::string message, packed;
  std::vector<std::int64_t> sizes;
  if (comms.rank == 0) {
    const Verdict v = verdict([&] {
      const std::vector<RankSchedule> all = make();
      if (static_cast<int>(all.size()) != comms.size) throw InternalError("one schedule per rank");
      for (const RankSchedule& s : all) {
        const std::string b = serialize(s);
        sizes.push_back(static_cast<std::int64_t>(b.size()));
        packed += b;
      }
    });
    code = v.code;
    message = v.message;
  }
  int header[2] = {code, static_cast<int>(message.size())};
  MPI_Bcast(header, 2, MPI_INT, 0, comms.ctrl);
  if (header[0] != 0) {
    message.resize(header[1]);
    MPI_Bcast(message.data(), header[1], MPI_CHAR, 0, comms.ctrl);
    throw Failure(header[0], message);
  }
  const std::string mine = scatter_in_rounds(packed, sizes, comms.ctrl);
  auto s = std::make_shared<RankSchedule>(deserialize_schedule(mine));
  if (s->rank != comms.rank || s->num_ranks != comms.size) fatal(comms, "received another rank's schedule");
  return s;
}

std::shared_ptr<const RankSchedule> PlanCache::find(const std::vector<std::uint64_t>& key) const {
  for (const auto& [k, s] : entries_)
    if (k == key) return s;
  return nullptr;
}

void PlanCache::insert(std::vector<std::uint64_t> key, std::shared_ptr<const RankSchedule> schedule) {
  if (entries_.size() == kCapacity) entries_.pop_front();
  entries_.emplace_back(std::move(key), std::move(schedule));
}

namespace {

// Two independent 64-bit digests of a rank's part; with the rank they are folded into the key.
void digest_of(const LocalPattern& p, std::uint64_t* h1, std::uint64_t* h2) {
  std::uint64_t a = 0xcbf29ce484222325ULL, b = 0x9E3779B97F4A7C15ULL;
  auto mix = [&](std::uint64_t x) {
    for (int i = 0; i < 8; ++i) {
      a ^= (x >> (8 * i)) & 0xff;
      a *= 0x100000001b3ULL;
    }
    b += x + 0x9E3779B97F4A7C15ULL;
    b = (b ^ (b >> 30)) * 0xBF58476D1CE4E5B9ULL;
    b = (b ^ (b >> 27)) * 0x94D049BB133111EBULL;
    b ^= b >> 31;
  };
  mix(p.sends.size());
  for (const PeerBytes& s : p.sends) {
    mix(static_cast<std::uint64_t>(s.peer));
    mix(s.bytes);
  }
  mix(p.recvs.size());
  for (const PeerBytes& r : p.recvs) {
    mix(static_cast<std::uint64_t>(r.peer));
    mix(r.bytes);
  }
  *h1 = a;
  *h2 = b;
}

// Folds every rank's digest into a 128-bit key with one small MPI_Allreduce: a sum over ranks
// of hashes of (rank, digest). Equal keys mean, with overwhelming probability, an equal
// pattern, so a repeated pattern costs one allreduce of 32 bytes instead of an allgather of
// 40 bytes per rank (on 512 simulated ranks, 16 KiB pairs, that took optiq's call from 0.085
// to 0.068 ms against MPI_Alltoallv's 0.074). The third word counts ranks that failed their
// local checks (then, as for a new pattern, every rank's counts and verdict go to every rank),
// the fourth ranks that started moving data before the vote was in.
std::uint64_t fold(std::uint64_t x) {
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ULL;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBULL;
  return x ^ (x >> 31);
}

}  // namespace

PatternVote::PatternVote(const Comms& comms, const LocalPattern& mine) : comm_(comms.ctrl) {
  digest_of(mine, &mine_[0], &mine_[1]);
  mine_[2] = mine.sends.size();
  mine_[3] = mine.recvs.size();
  mine_[4] = static_cast<std::uint64_t>(static_cast<std::int64_t>(mine.code));
  const std::uint64_t r = static_cast<std::uint64_t>(comms.rank);
  sum_[0] = fold(mine_[0] ^ fold(2 * r + 1));
  sum_[1] = fold(mine_[1] + fold(2 * r + 2));
  sum_[2] = mine.code != 0 ? 1 : 0;
}

void PatternVote::start(bool early_start) {
  sum_[3] = early_start ? 1 : 0;
#ifdef OPTIQ_SMPI
  // SimGrid SMPI 3.32 runs MPI_Iallreduce as every rank sending to every other: at 128 ranks its
  // 16,000 concurrent messages took 30 s of wall clock per vote, the blocking allreduce's tree
  // a fraction of a second. Every simulated rank runs this same build, so all block alike; an
  // early start then begins after the vote instead of during it.
  MPI_Allreduce(MPI_IN_PLACE, sum_, 4, MPI_UINT64_T, MPI_SUM, comm_);
  request_ = MPI_REQUEST_NULL;
#else
  // Non-blocking in every call, early start or not: MPI does not match a blocking collective
  // with a non-blocking one.
  MPI_Iallreduce(MPI_IN_PLACE, sum_, 4, MPI_UINT64_T, MPI_SUM, comm_, &request_);
#endif
}

PatternVote::~PatternVote() {
  if (request_ != MPI_REQUEST_NULL) MPI_Wait(&request_, MPI_STATUS_IGNORE);
}

void PatternVote::wait() {
  if (request_ != MPI_REQUEST_NULL) MPI_Wait(&request_, MPI_STATUS_IGNORE);
}

bool LastCall::may_start_early(const PatternVote& vote) const {
  return schedule && vote.digest() == digest && schedule->forwards.empty() && schedule->in_streams.empty() &&
         schedule->out_streams.empty();
}

std::shared_ptr<const RankSchedule> settle_pattern(const Comms& comms, const LocalPattern& mine,
                                                   const PatternVote& vote, PlanCache* cache, const Schedules& make,
                                                   bool* cache_hit) {
  *cache_hit = false;
  const std::vector<std::uint64_t> key = vote.key();
  if (cache && !vote.failed()) {
    if (auto hit = cache->find(key)) {
      *cache_hit = true;
      return hit;
    }
  }

  // A new pattern or a failure: every rank's counts (and verdict) to every rank.
  constexpr int kWords = 5;
  std::vector<std::uint64_t> all(static_cast<std::size_t>(kWords) * comms.size);
  MPI_Allgather(vote.contribution(), kWords, MPI_UINT64_T, all.data(), kWords, MPI_UINT64_T, comms.ctrl);
  auto sends_of = [&](int r) { return static_cast<std::int64_t>(all[kWords * r + 2]); };
  auto recvs_of = [&](int r) { return static_cast<std::int64_t>(all[kWords * r + 3]); };
  std::vector<int> codes;
  for (int r = 0; r < comms.size; ++r) codes.push_back(static_cast<int>(static_cast<std::int64_t>(all[kWords * r + 4])));
  raise_first(comms, codes, mine.message);

  // Gather (peer, bytes) pairs, sends then receives, on rank 0.
  std::vector<std::int64_t> flat;
  for (const PeerBytes& s : mine.sends) flat.insert(flat.end(), {s.peer, static_cast<std::int64_t>(s.bytes)});
  for (const PeerBytes& r : mine.recvs) flat.insert(flat.end(), {r.peer, static_cast<std::int64_t>(r.bytes)});
  std::vector<std::int64_t> counts(comms.size);
  for (int r = 0; r < comms.size; ++r) counts[r] = 2 * (sends_of(r) + recvs_of(r));
  const std::vector<std::int64_t> starts = part_starts(counts);
  std::vector<std::int64_t> gathered(comms.rank == 0 ? starts.back() : 0);
  gather_in_rounds(flat.data(), counts, MPI_INT64_T, gathered.data(), comms.ctrl);

  auto schedule = distribute(comms, [&] {
    std::vector<std::vector<PeerBytes>> sends(comms.size), recvs(comms.size);
    for (int r = 0; r < comms.size; ++r) {
      const std::int64_t* p = gathered.data() + starts[r];
      for (std::int64_t i = 0; i < sends_of(r); ++i, p += 2)
        sends[r].push_back({static_cast<Rank>(p[0]), static_cast<Bytes>(p[1])});
      for (std::int64_t i = 0; i < recvs_of(r); ++i, p += 2)
        recvs[r].push_back({static_cast<Rank>(p[0]), static_cast<Bytes>(p[1])});
    }
    return make(sends, recvs);
  });
  if (cache) cache->insert(key, schedule);
  return schedule;
}

}  // namespace optiq::rt
