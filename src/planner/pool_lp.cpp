// PDHG on the pool's path LP (pool_lp.hpp). Variables are kept in the LP's own units: demands
// over the largest job's bytes, capacities over the largest capacity; seconds only at the end.
// The path-link matrix is stored both ways (paths' links, links' paths), so that both products
// gather: each entry of a result is summed by one thread, in one order, whatever the threads.
#include "planner/pool_lp.hpp"

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>

#include "optiq/core/graph/parallel.hpp"

namespace optiq::detail {

namespace {

// Iterations between evaluations of the two iterates (current, and average since restart).
constexpr int kCheckEvery = 32;
// Restart when the gap has fallen to this fraction of the gap at the last restart.
constexpr double kRestartDecay = 0.2;
// ... or after this many iterations without such a fall (the average then tends to be better).
constexpr int kRestartAfter = 512;
// Power iterations for the operator norm, which sets the step sizes.
constexpr int kNormIterations = 24;
// Steps take this fraction of the largest stable step product (tau * sigma * |M|^2 < 1).
constexpr double kStepFraction = 0.95;
// Items of work handed to one thread at a time: jobs and links.
constexpr std::size_t kJobsPerItem = 512;
constexpr std::size_t kLinksPerItem = 2048;

// body(begin, end) over [0, n) in items of `per`, spread over threads when there are several.
void in_items(std::size_t n, std::size_t per, const std::function<void(std::size_t, std::size_t)>& body) {
  const std::size_t items = (n + per - 1) / per;
  graph::parallel_for(items, 2, [](bool) { return 0; },
                      [&](int&, std::size_t i) { body(i * per, std::min(n, (i + 1) * per)); });
}

class PoolLp {
 public:
  PoolLp(const Network& topo, const PoolLpInput& in) : topo_(topo) {
    const std::size_t jobs = in.bytes.size();
    const double max_bytes = *std::max_element(in.bytes.begin(), in.bytes.end());
    double max_cap = 0;
    for (LinkId l = 0; l < topo.num_links(); ++l) max_cap = std::max(max_cap, topo.capacity(l));
    seconds_ = max_bytes / max_cap;
    slot_.assign(topo.num_links(), -1);
    auto slot = [&](LinkId l) {
      if (slot_[l] < 0) slot_[l] = static_cast<int>(link_.size()), link_.push_back(l);
      return slot_[l];
    };
    // A link every path of a job crosses (on a fat-tree, the job's hosts' own cables) carries
    // that job's whole demand whatever the split, and prices all its paths alike: it is kept
    // out of the paths as a fixed load. The LP is the same; its products are smaller.
    std::vector<std::pair<int, double>> fixed;  // LP link, load in LP units
    std::vector<int> common(topo.num_links(), 0), drop(topo.num_links(), 0), left(topo.num_links(), 0);
    job_begin_.push_back(0);
    for (std::size_t j = 0; j < jobs; ++j) {
      demand_.push_back(in.bytes[j] / max_bytes);
      const std::vector<LinkPath>& paths = in.paths[j];
      const LinkPath& first = paths[0];
      for (LinkId l : first) ++common[l];
      for (std::size_t q = 1; q < paths.size(); ++q) {
        for (LinkId l : paths[q]) ++left[l];
        for (LinkId l : first) common[l] = std::min(common[l], left[l]);
        for (LinkId l : paths[q]) left[l] = 0;
      }
      for (LinkId l : first)
        if (common[l] > 0) fixed.emplace_back(slot(l), common[l] * demand_.back()), drop[l] = common[l], common[l] = 0;
      for (const LinkPath& p : paths) {
        col_job_.push_back(static_cast<int>(j));
        for (LinkId l : first) left[l] = drop[l];
        for (LinkId l : p)
          if (left[l] > 0) --left[l];
          else col_link_.push_back(slot(l));
        col_begin_.push_back(static_cast<int>(col_link_.size()));
      }
      for (LinkId l : first) drop[l] = 0, left[l] = 0;
      job_begin_.push_back(static_cast<int>(col_job_.size()));
    }
    col_begin_.insert(col_begin_.begin(), 0);
    for (LinkId l = 0; l < static_cast<LinkId>(in.preload.size()); ++l)
      if (in.preload[l] > 0) slot(l);
    const std::size_t m = link_.size();
    w_.resize(m), u_.assign(m, 0.0);
    for (std::size_t i = 0; i < m; ++i) {
      w_[i] = topo.capacity(link_[i]) / max_cap;
      if (link_[i] < static_cast<LinkId>(in.preload.size())) u_[i] = in.preload[link_[i]] / max_bytes;
    }
    for (const auto& [i, load] : fixed) u_[i] += load;
    weighted_.resize(col_job_.size());
    link_begin_.assign(m + 1, 0);
    for (int l : col_link_) ++link_begin_[l + 1];
    for (std::size_t i = 0; i < m; ++i) link_begin_[i + 1] += link_begin_[i];
    link_col_.resize(col_link_.size());
    std::vector<int> at(link_begin_.begin(), link_begin_.end() - 1);
    for (std::size_t k = 0; k < col_job_.size(); ++k)
      for (int a = col_begin_[k]; a < col_begin_[k + 1]; ++a) link_col_[at[col_link_[a]]++] = static_cast<int>(k);
  }

  PoolLpResult solve(const PoolLpInput& in, double tolerance, int max_iterations) {
    const std::size_t K = col_job_.size(), m = link_.size();
    std::vector<double> f(K), y(m, 0.0);
    for (std::size_t j = 0; j + 1 < job_begin_.size(); ++j) {
      const int b = job_begin_[j], e = job_begin_[j + 1];
      for (int k = b; k < e; ++k)
        f[k] = in.share.empty() || in.share[j].empty() ? 1.0 / (e - b) : in.share[j][k - b];
    }
    project_jobs(f, 0, job_begin_.size() - 1);
    for (std::size_t i = 0; i < m; ++i) y[i] = in.price.empty() ? 1.0 : std::max(0.0, in.price[link_[i]]);
    normalise_prices(y);
    const double norm = operator_norm();
    const double eta = kStepFraction / norm;
    // Primal weight: the ratio of the dual's scale to the primal's, re-estimated at restarts.
    double omega = std::max(norm2(y), 1e-12) / std::max(norm2(f), 1e-12);

    std::vector<double> g(K), load(m), load_new(m), f_new(K), y_new(m);
    std::vector<double> f_sum(K, 0.0), y_sum(m, 0.0), f_avg(K), y_avg(m), g_avg(K), load_avg(m);
    std::vector<double> f_restart = f, y_restart = y;
    std::vector<double> item_s1((m + kLinksPerItem - 1) / kLinksPerItem), item_s2(item_s1.size());
    std::vector<std::size_t> active;
    multiply(f, load);
    best_share_ = f, best_price_ = y;
    best_upper_ = upper(load), best_lower_ = lower(y, g);
    double restart_gap = best_upper_ - best_lower_;
    int since_restart = 0, it = 0;
    while (it < max_iterations && best_upper_ - best_lower_ > tolerance * best_upper_) {
      const double tau = eta / omega, sigma = eta * omega;
      // One pass over the paths, by whole jobs: prices, the step, the projection, and the
      // weighted shares the loads gather next.
      in_items(job_begin_.size() - 1, kJobsPerItem, [&](std::size_t b, std::size_t e) {
        for (std::size_t j = b; j < e; ++j) {
          const double step = tau * demand_[j];
          for (int k = job_begin_[j]; k < job_begin_[j + 1]; ++k) {
            double price = 0;
            for (int a = col_begin_[k]; a < col_begin_[k + 1]; ++a) price += y[col_link_[a]];
            f_new[k] = f[k] - step * price;
          }
        }
        project_jobs(f_new, b, e);
        for (std::size_t j = b; j < e; ++j)
          for (int k = job_begin_[j]; k < job_begin_[j + 1]; ++k) {
            f_sum[k] += f_new[k];
            weighted_[k] = demand_[j] * f_new[k];
          }
      });
      // One pass over the links: loads, the dual step, and the sums that start its projection.
      in_items(m, kLinksPerItem, [&](std::size_t b, std::size_t e) {
        double s1 = 0, s2 = 0;
        for (std::size_t i = b; i < e; ++i) {
          double l = 0;
          for (int a = link_begin_[i]; a < link_begin_[i + 1]; ++a) l += weighted_[link_col_[a]];
          load_new[i] = l;
          y_new[i] = y[i] + sigma * (2 * l - load[i] + u_[i]);
          s1 += w_[i] * y_new[i], s2 += w_[i] * w_[i];
        }
        item_s1[b / kLinksPerItem] = s1, item_s2[b / kLinksPerItem] = s2;
      });
      double s1 = 0, s2 = 0;
      for (std::size_t q = 0; q < item_s1.size(); ++q) s1 += item_s1[q], s2 += item_s2[q];
      const double theta = price_threshold(y_new, (s1 - 1) / s2, active);
      in_items(m, kLinksPerItem, [&](std::size_t b, std::size_t e) {
        for (std::size_t i = b; i < e; ++i) {
          y_new[i] = std::max(0.0, y_new[i] - theta * w_[i]);
          y_sum[i] += y_new[i];
        }
      });
      f.swap(f_new), y.swap(y_new), load.swap(load_new);
      ++it, ++since_restart;
      if (it % kCheckEvery != 0) continue;

      const double up = upper(load), lo = lower(y, g);
      keep_best(f, up, y, lo);
      for (std::size_t k = 0; k < K; ++k) f_avg[k] = f_sum[k] / since_restart;
      for (std::size_t i = 0; i < m; ++i) y_avg[i] = y_sum[i] / since_restart;
      multiply(f_avg, load_avg);
      const double up_avg = upper(load_avg), lo_avg = lower(y_avg, g_avg);
      keep_best(f_avg, up_avg, y_avg, lo_avg);
      const double gap = up - lo, gap_avg = up_avg - lo_avg;
      if (std::min(gap, gap_avg) > kRestartDecay * restart_gap && since_restart < kRestartAfter) continue;
      if (gap_avg < gap) f = f_avg, y = y_avg, load = load_avg;
      const double df = distance(f, f_restart), dy = distance(y, y_restart);
      if (df > 0 && dy > 0) omega = std::exp(0.5 * std::log(dy / df) + 0.5 * std::log(omega));
      f_restart = f, y_restart = y;
      std::fill(f_sum.begin(), f_sum.end(), 0.0), std::fill(y_sum.begin(), y_sum.end(), 0.0);
      since_restart = 0, restart_gap = std::min(gap, gap_avg);
    }

    PoolLpResult out;
    out.iterations = it;
    out.upper = best_upper_ * seconds_, out.lower = best_lower_ * seconds_;
    out.price.assign(topo_.num_links(), 0.0);
    for (std::size_t i = 0; i < m; ++i) out.price[link_[i]] = best_price_[i];
    out.share.resize(job_begin_.size() - 1);
    for (std::size_t j = 0; j + 1 < job_begin_.size(); ++j)
      out.share[j].assign(best_share_.begin() + job_begin_[j], best_share_.begin() + job_begin_[j + 1]);
    return out;
  }

 private:
  // load = M f: each path adds its job's demand times its share to its links.
  void multiply(const std::vector<double>& f, std::vector<double>& load) const {
    in_items(job_begin_.size() - 1, kJobsPerItem, [&](std::size_t b, std::size_t e) {
      for (std::size_t j = b; j < e; ++j)
        for (int k = job_begin_[j]; k < job_begin_[j + 1]; ++k) weighted_[k] = demand_[j] * f[k];
    });
    gather_loads(load);
  }
  // load_i = the sum of weighted_ over the paths crossing link i.
  void gather_loads(std::vector<double>& load) const {
    in_items(link_.size(), kLinksPerItem, [&](std::size_t b, std::size_t e) {
      for (std::size_t i = b; i < e; ++i) {
        double s = 0;
        for (int a = link_begin_[i]; a < link_begin_[i + 1]; ++a) s += weighted_[link_col_[a]];
        load[i] = s;
      }
    });
  }
  // g = M^T y: each path's price times its job's demand.
  void transpose_multiply(const std::vector<double>& y, std::vector<double>& g) const {
    in_items(job_begin_.size() - 1, kJobsPerItem, [&](std::size_t b, std::size_t e) {
      for (std::size_t j = b; j < e; ++j)
        for (int k = job_begin_[j]; k < job_begin_[j + 1]; ++k) {
          double s = 0;
          for (int a = col_begin_[k]; a < col_begin_[k + 1]; ++a) s += y[col_link_[a]];
          g[k] = demand_[j] * s;
        }
    });
  }

  double upper(const std::vector<double>& load) const {
    double t = 0;
    for (std::size_t i = 0; i < load.size(); ++i) t = std::max(t, (load[i] + u_[i]) / w_[i]);
    return t;
  }
  // Weak duality over the pool (prices normalised to sum w y = 1): T >= sum_j min_p g_p + y.u.
  double lower(const std::vector<double>& y, std::vector<double>& g) const {
    transpose_multiply(y, g);
    double sum = 0;
    for (std::size_t j = 0; j + 1 < job_begin_.size(); ++j)
      sum += *std::min_element(g.begin() + job_begin_[j], g.begin() + job_begin_[j + 1]);
    for (std::size_t i = 0; i < y.size(); ++i) sum += y[i] * u_[i];
    return sum;
  }

  void keep_best(const std::vector<double>& f, double up, const std::vector<double>& y, double lo) {
    if (up < best_upper_) best_upper_ = up, best_share_ = f;
    if (lo > best_lower_) best_lower_ = lo, best_price_ = y;
  }

  // Euclidean projection of each job's shares onto its simplex: f = max(0, f - theta).
  void project_jobs(std::vector<double>& f, std::size_t first_job, std::size_t end_job) const {
    for (std::size_t j = first_job; j < end_job; ++j) {
      const int b = job_begin_[j], e = job_begin_[j + 1];
      if (e - b == 1) {
        f[b] = 1;
        continue;
      }
      double sum = 0;
      for (int k = b; k < e; ++k) sum += f[k];
      double theta = (sum - 1) / (e - b);
      for (int round = 0; round < e - b; ++round) {  // each round drops at least one share
        double kept = 0;
        int count = 0;
        for (int k = b; k < e; ++k)
          if (f[k] > theta) kept += f[k], ++count;
        const double next = (kept - 1) / count;
        if (!(next > theta)) break;
        theta = next;
      }
      for (int k = b; k < e; ++k) f[k] = std::max(0.0, f[k] - theta);
    }
  }

  // The theta of the Euclidean projection onto {y >= 0, sum w y = 1}, y = max(0, v - theta w),
  // from theta0 = the root with every link kept. The sum is convex and decreasing in theta, so
  // Newton's steps from below climb to the root without passing it (the same steps as for the
  // shares above); theta only grows, so each round reads only the links the last one kept.
  double price_threshold(const std::vector<double>& v, double theta, std::vector<std::size_t>& active) const {
    active.clear();
    for (std::size_t i = 0; i < v.size(); ++i)
      if (v[i] > theta * w_[i]) active.push_back(i);
    for (int round = 0; round < 64; ++round) {
      double s1[4] = {0, 0, 0, 0}, s2[4] = {0, 0, 0, 0};  // four sums: the adds need not wait on each other
      std::size_t kept = 0;
      for (std::size_t i : active)
        if (v[i] > theta * w_[i]) {
          s1[kept % 4] += w_[i] * v[i], s2[kept % 4] += w_[i] * w_[i];
          active[kept++] = i;
        }
      active.resize(kept);
      const double next = ((s1[0] + s1[1]) + (s1[2] + s1[3]) - 1) / ((s2[0] + s2[1]) + (s2[2] + s2[3]));
      if (!(next > theta)) break;
      theta = next;
    }
    return theta;
  }

  void normalise_prices(std::vector<double>& y) const {
    double s = 0;
    for (std::size_t i = 0; i < y.size(); ++i) s += w_[i] * y[i];
    if (s <= 0) {  // no price left anywhere: start again from even prices
      std::fill(y.begin(), y.end(), 1.0);
      for (double x : w_) s += x;
    }
    for (double& v : y) v /= s;
  }

  double operator_norm() const {
    std::vector<double> f(col_job_.size()), load(link_.size());
    for (std::size_t k = 0; k < f.size(); ++k) f[k] = 1.0 + 0.5 * std::sin(static_cast<double>(k));
    double n = 1;
    for (int r = 0; r < kNormIterations; ++r) {
      multiply(f, load);
      transpose_multiply(load, f);
      n = norm2(f);
      if (n <= 0) return 1;
      for (double& v : f) v /= n;
    }
    return std::sqrt(n);
  }

  static double norm2(const std::vector<double>& v) {
    double s = 0;
    for (double x : v) s += x * x;
    return std::sqrt(s);
  }
  static double distance(const std::vector<double>& a, const std::vector<double>& b) {
    double s = 0;
    for (std::size_t i = 0; i < a.size(); ++i) s += (a[i] - b[i]) * (a[i] - b[i]);
    return std::sqrt(s);
  }

  const Network& topo_;
  double seconds_ = 1;  // one LP time unit in seconds
  std::vector<int> slot_;        // per network link: its index in the LP, -1 if none
  std::vector<LinkId> link_;     // per LP link: the network's link
  std::vector<double> w_, u_;    // per LP link: capacity and preload in LP units
  std::vector<int> col_job_, col_begin_, col_link_, job_begin_;
  std::vector<int> link_begin_, link_col_;  // per LP link: the paths that cross it
  std::vector<double> demand_;   // per job
  mutable std::vector<double> weighted_;  // per path: its job's demand times its share
  std::vector<double> best_share_, best_price_;
  double best_upper_ = 0, best_lower_ = 0;
};

}  // namespace

PoolLpResult solve_pool_lp(const Network& topo, const PoolLpInput& in, double tolerance, int max_iterations) {
  return PoolLp(topo, in).solve(in, tolerance, max_iterations);
}

}  // namespace optiq::detail
