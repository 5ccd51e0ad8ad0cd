// Node aggregation: the rank jobs between two nodes become one planned transfer.
#include <algorithm>
#include <map>

#include "optiq/core/error.hpp"
#include "optiq/core/legs.hpp"
#include "optiq/core/paths.hpp"
#include "optiq/core/schedule.hpp"

namespace optiq {

std::vector<NodePair> node_pairs(const RankMap& placement, const std::vector<RankJob>& jobs) {
  std::map<std::pair<NodeId, NodeId>, NodePair> pairs;
  for (std::size_t i = 0; i < jobs.size(); ++i) {
    const RankJob& j = jobs[i];
    const NodeId a = placement.node_of(j.src), b = placement.node_of(j.dst);
    if (j.bytes == 0 || a == b) continue;
    NodePair& p = pairs[{a, b}];
    p.src = a;
    p.dst = b;
    p.bytes += j.bytes;  // bounded by the exchange's checked total
    p.members.push_back(i);
  }
  std::vector<NodePair> out;
  out.reserve(pairs.size());
  for (auto& [key, p] : pairs) out.push_back(std::move(p));
  return out;
}

namespace {

// The rank of `ranks` with the most bytes by `bytes_of`, ties to the first from index `start` on.
template <class F>
Rank heaviest(const std::vector<Rank>& ranks, std::size_t start, F&& bytes_of) {
  Rank best = ranks[start % ranks.size()];
  Bytes most = bytes_of(best);
  for (std::size_t k = 1; k < ranks.size(); ++k) {
    const Rank r = ranks[(start + k) % ranks.size()];
    const Bytes b = bytes_of(r);
    if (b > most) {
      best = r;
      most = b;
    }
  }
  return best;
}

Bytes member_bytes(const NodePair& pair, const std::vector<RankJob>& jobs, Rank r, bool as_source) {
  Bytes b = 0;
  for (std::size_t i : pair.members)
    if ((as_source ? jobs[i].src : jobs[i].dst) == r) b += jobs[i].bytes;
  return b;
}

}  // namespace

Rank gathering_rank(const RankMap& placement, const NodePair& pair, const std::vector<RankJob>& jobs) {
  return heaviest(placement.ranks_on(pair.src), static_cast<std::size_t>(pair.dst),
                  [&](Rank r) { return member_bytes(pair, jobs, r, true); });
}

Rank scattering_rank(const RankMap& placement, const NodePair& pair, const std::vector<RankJob>& jobs) {
  return heaviest(placement.ranks_on(pair.dst), static_cast<std::size_t>(pair.src),
                  [&](Rank r) { return member_bytes(pair, jobs, r, false); });
}

namespace {

// Consecutive duplicates go: a job whose source gathers (or whose destination scatters) needs
// no copy inside its node.
std::vector<Rank> without_repeats(std::vector<Rank> hops) {
  std::vector<Rank> out;
  for (Rank r : hops)
    if (out.empty() || out.back() != r) out.push_back(r);
  return out;
}

}  // namespace

void append_pair_flows(const Network& topo, const Legs& legs, const RankMap& placement,
                       const std::vector<RankJob>& jobs, const NodePair& pair, const JobPlan& plan,
                       std::vector<Flow>* flows) {
  OPTIQ_CHECK(plan.job.src == pair.src && plan.job.dst == pair.dst && plan.job.bytes == pair.bytes,
              "the pair's plan entry matches the pair");
  const Rank gather = gathering_rank(placement, pair, jobs);
  const Rank scatter = scattering_rank(placement, pair, jobs);
  std::size_t m = 0;  // the member job the stream is in
  Bytes into = 0;     // bytes of that job already carried
  for (std::size_t p = 0; p < plan.paths.size(); ++p) {
    Bytes left = plan.paths[p].bytes;
    if (left == 0) continue;
    bool off_plan = false;
    const auto points = forwarding_points(legs, pair.src, plan.paths[p].links, placement, &off_plan);
    const std::vector<NodeId> nodes = path_nodes(topo, pair.src, plan.paths[p].links);
    std::vector<Rank> middle;
    for (std::size_t k : points) {
      const auto& here = placement.ranks_on(nodes[k]);
      middle.push_back(here[(static_cast<std::size_t>(gather) + p) % here.size()]);
    }
    while (left > 0) {
      OPTIQ_CHECK(m < pair.members.size(), "path shares cover the pair's stream");
      const std::size_t i = pair.members[m];
      const RankJob& job = jobs[i];
      const Bytes piece = std::min(left, job.bytes - into);
      std::vector<Rank> hops{job.src, gather};
      hops.insert(hops.end(), middle.begin(), middle.end());
      hops.push_back(scatter);
      hops.push_back(job.dst);
      flows->push_back({i, job.offset + into, piece, without_repeats(std::move(hops)), off_plan});
      left -= piece;
      into += piece;
      if (into == job.bytes) {
        ++m;
        into = 0;
      }
    }
  }
  OPTIQ_CHECK(m == pair.members.size() && into == 0, "path shares cover the pair's stream exactly");
}

}  // namespace optiq
