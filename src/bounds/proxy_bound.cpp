// The proxy bound (include/optiq/core/bounds.hpp). On an overlay a job's bytes either follow
// its default route or pass through at least one proxy, and every byte a proxy relays enters
// it by one of its own links and leaves it by another. So in a plan finishing within T:
//   - on each link e, the bytes of the jobs whose default route crosses e, less what they
//     relay, fit in c_e T: the jobs crossing e relay at least need_e(T) = D_e + preload_e - c_e T;
//   - for a set S of links no default route crosses twice, the relayed bytes are at least
//     the sum of need_e(T) over S (each job counted at most once);
//   - the relayed bytes fit in what the proxies' links leave after their own jobs' bytes
//     (and in their copy bandwidth).
// T is infeasible when the second exceeds the third; the bound is the largest T proven so.
// Cut bounds and contracted relaxations let bytes take switch paths no route offers and stop
// at the hosts' injection time, far below the optimum of a fat-tree pattern whose default
// routes collide; this one keeps the routes (fat-tree 1,024 endpoints, dmodk-adversarial:
// 8.390 ms, the exact optimum; mcf's dual bound alone 7.20 ms).
#include <algorithm>
#include <cmath>
#include <numeric>

#include "optiq/core/bounds.hpp"
#include "optiq/core/legs.hpp"

namespace optiq {

namespace {

// Relative width at which the search for the largest infeasible T stops.
constexpr double kTolerance = 1e-7;

class ProxyBound {
 public:
  ProxyBound(const Legs& legs, const std::vector<Job>& jobs, const std::vector<double>& link_preload,
             double forward_bandwidth)
      : net_(legs.network()), preload_(link_preload), forward_bandwidth_(forward_bandwidth),
        direct_(net_.num_links(), 0.0), own_out_(net_.num_vertices(), 0.0), own_in_(net_.num_vertices(), 0.0),
        cap_out_(net_.num_vertices(), 0.0), cap_in_(net_.num_vertices(), 0.0), pre_out_(net_.num_vertices(), 0.0),
        pre_in_(net_.num_vertices(), 0.0) {
    for (LinkId l = 0; l < net_.num_links(); ++l) {
      if (!present(l)) continue;
      cap_out_[net_.link_src(l)] += net_.capacity(l), pre_out_[net_.link_src(l)] += preload(l);
      cap_in_[net_.link_dst(l)] += net_.capacity(l), pre_in_[net_.link_dst(l)] += preload(l);
    }
    for (NodeId v = 0; v < net_.num_vertices(); ++v)
      if (net_.is_terminal(v) && legs.can_proxy(v)) proxies_.push_back(v);
    std::vector<std::vector<std::size_t>> crossing(net_.num_links());
    LinkPath route;
    for (const Job& j : jobs) {
      if (j.bytes <= 0 || j.src == j.dst) continue;
      const double bytes = static_cast<double>(j.bytes);
      own_out_[j.src] += bytes;
      own_in_[j.dst] += bytes;
      route.clear();
      legs.append_leg(j.src, j.dst, route);
      for (LinkId l : route) direct_[l] += bytes, crossing[l].push_back(routes_);
      ++routes_;
    }
    crossing_begin_.push_back(0);
    for (const auto& c : crossing) {
      crossing_.insert(crossing_.end(), c.begin(), c.end());
      crossing_begin_.push_back(crossing_.size());
    }
  }

  double solve() {
    if (routes_ == 0) return 0;
    // The default routes finish at hi: nothing needs relaying there, so hi is never proven.
    double lo = 0, hi = 0;
    for (LinkId l = 0; l < net_.num_links(); ++l)
      if (present(l)) hi = std::max(hi, (direct_[l] + preload(l)) / net_.capacity(l));
    while (hi - lo > kTolerance * hi) {
      const double t = 0.5 * (lo + hi);
      (infeasible(t) ? lo : hi) = t;
    }
    return lo;
  }

 private:
  double preload(LinkId l) const { return l < static_cast<LinkId>(preload_.size()) ? preload_[l] : 0.0; }
  bool present(LinkId l) const { return net_.link_src(l) >= 0 && net_.capacity(l) > 0; }

  bool infeasible(double t) { return own_bytes_exceed(t) || relayed_at_least(t) > relay_room(t); }

  // A terminal's own bytes leave and enter by its own links whatever the plan.
  bool own_bytes_exceed(double t) const {
    for (NodeId v = 0; v < net_.num_vertices(); ++v)
      if (own_out_[v] + pre_out_[v] > cap_out_[v] * t || own_in_[v] + pre_in_[v] > cap_in_[v] * t) return true;
    return false;
  }

  // Greedy over links by need, largest first: a link joins S when none of its routes crosses
  // a link already in S. Any such S gives a valid lower bound.
  double relayed_at_least(double t) {
    need_.clear();
    for (LinkId l = 0; l < net_.num_links(); ++l) {
      if (!present(l)) continue;
      const double need = direct_[l] + preload(l) - net_.capacity(l) * t;
      if (need > 0) need_.push_back({need, l});
    }
    std::sort(need_.begin(), need_.end(), [](const auto& a, const auto& b) {
      return a.first != b.first ? a.first > b.first : a.second < b.second;
    });
    taken_.assign(routes_, 0);
    double total = 0;
    for (const auto& [need, l] : need_) {
      const auto first = crossing_.begin() + static_cast<std::ptrdiff_t>(crossing_begin_[l]);
      const auto last = crossing_.begin() + static_cast<std::ptrdiff_t>(crossing_begin_[l + 1]);
      if (std::any_of(first, last, [&](std::size_t r) { return taken_[r] != 0; })) continue;
      for (auto it = first; it != last; ++it) taken_[*it] = 1;
      total += need;
    }
    return total;
  }

  // What the proxies' links can still carry in and out within t besides their own jobs' bytes.
  double relay_room(double t) const {
    double room = 0;
    for (NodeId v : proxies_) {
      double carry = std::min(cap_out_[v] * t - pre_out_[v] - own_out_[v], cap_in_[v] * t - pre_in_[v] - own_in_[v]);
      if (forward_bandwidth_ > 0) carry = std::min(carry, forward_bandwidth_ * t);
      room += std::max(0.0, carry);
    }
    return room;
  }

  const Network& net_;
  const std::vector<double>& preload_;
  const double forward_bandwidth_;
  std::vector<double> direct_;          // per link: bytes of the default routes
  std::vector<double> own_out_, own_in_;  // per vertex: bytes its jobs send and receive
  std::vector<double> cap_out_, cap_in_, pre_out_, pre_in_;  // per vertex: its links' capacity and preload
  std::vector<NodeId> proxies_;
  std::size_t routes_ = 0;
  std::vector<std::size_t> crossing_, crossing_begin_;  // per link, the routes crossing it (CSR)
  std::vector<std::pair<double, LinkId>> need_;
  std::vector<char> taken_;
};

}  // namespace

double proxy_lower_bound(const Legs& legs, const std::vector<Job>& jobs, const std::vector<double>& link_preload,
                         double forward_bandwidth) {
  if (legs.direct()) return 0;
  // The argument starts from every job's default route; a job without one (its ends joined only
  // through an endpoint, which relays in software but not in hardware) leaves nothing to prove.
  for (const Job& j : jobs) {
    if (j.bytes <= 0 || j.src == j.dst) continue;
    const int t = legs.terminal_index(j.dst);
    if (t < 0 || legs.next(t, j.src) < 0) return 0;
  }
  return ProxyBound(legs, jobs, link_preload, forward_bandwidth).solve();
}

}  // namespace optiq
