// Quotient bounds: see include/optiq/core/bounds.hpp.
//
// Merging every set of nodes that agree on the kept dimensions gives a smaller torus (or mesh)
// whose links bundle the kept dimensions' links, while the dropped dimensions cost nothing:
// a relaxation, so its optimum bounds the network's. Unlike a cut it still charges every hop
// along the kept dimensions, which is what separates the optimum from the cut bounds when
// destinations lie far from their sources (Mira 49,152, subset: cut 25.17 MB, quotient on
// A, B, C 26.35 MB, best plans 26.69-26.71 MB).
#include <algorithm>

#include "optiq/core/bounds.hpp"
#include "optiq/core/error.hpp"

namespace optiq {

namespace {

// Merged nodes left by keeping the dimensions in `mask`.
long long quotient_size(const TorusShape& topo, unsigned mask) {
  long long n = 1;
  for (int d = 0; d < topo.dims(); ++d)
    if (mask >> d & 1U) n *= topo.size(d);
  return n;
}

double bound_keeping(const Network& topo, const std::vector<Job>& jobs, unsigned mask, double tolerance,
                     int max_components, int max_rounds, double beat) {
  std::vector<char> kept(topo.num_links(), 0);
  for (LinkId l = 0; l < topo.num_links(); ++l)
    kept[l] = mask >> topo.torus()->link_dim(l) & 1U;
  return relaxed_lower_bound(topo, jobs, kept, tolerance, max_components, max_rounds, beat);
}

}  // namespace

double quotient_lower_bound(const Network& net, const std::vector<Job>& jobs, double tolerance,
                            int max_components, const std::vector<double>& link_score, int tries, double beat) {
  if (!(tolerance > 0 && tolerance < 1)) throw Error("quotient bound: tolerance must be in (0, 1)");
  if (!net.torus()) return 0.0;  // quotients by dimension need a torus
  const TorusShape& topo = *net.torus();
  const int dims = topo.dims();
  if (dims > 16) return 0.0;
  unsigned linked = 0;  // dimensions that have links at all
  for (int d = 0; d < dims; ++d)
    if (topo.size(d) > 1) linked |= 1U << d;
  const unsigned all = (1U << dims) - 1;
  // Proper subsets of the linked dimensions small enough to solve, and maximal among those:
  // keeping a further dimension only tightens the relaxation.
  std::vector<unsigned> masks;
  for (unsigned mask = 1; mask <= all; ++mask) {
    if ((mask & ~linked) || mask == linked || quotient_size(topo, mask) > max_components) continue;
    bool maximal = true;
    for (int d = 0; d < dims && maximal; ++d) {
      const unsigned wider = mask | 1U << d;
      if (wider != mask && (linked >> d & 1U) && wider != linked && quotient_size(topo, wider) <= max_components)
        maximal = false;
    }
    if (maximal) masks.push_back(mask);
  }
  if (masks.empty()) return 0.0;
  double best = 0;
  if (!link_score.empty()) {
    // The quotients keeping the most link score are solved, the others skipped.
    OPTIQ_CHECK(static_cast<int>(link_score.size()) == topo.num_links(), "one score per link");
    std::vector<double> per_dim(dims, 0.0);
    for (LinkId l = 0; l < topo.num_links(); ++l) per_dim[topo.link_dim(l)] += link_score[l];
    auto kept_score = [&](unsigned mask) {
      double sum = 0;
      for (int d = 0; d < dims; ++d)
        if (mask >> d & 1U) sum += per_dim[d];
      return sum;
    };
    std::stable_sort(masks.begin(), masks.end(), [&](unsigned a, unsigned b) { return kept_score(a) > kept_score(b); });
    for (std::size_t i = 0; i < masks.size() && i < static_cast<std::size_t>(tries); ++i)
      best = std::max(best, bound_keeping(net, jobs, masks[i], tolerance, max_components, kRelaxedRounds,
                                          std::max(beat, best)));
    return best;
  }
  // Without scores a coarse solve ranks the quotients and only the best is solved to the
  // requested tolerance.
  const double coarse = std::max(tolerance, kCoarseTolerance);
  unsigned best_mask = masks.front();
  for (unsigned mask : masks) {
    const double b = bound_keeping(net, jobs, mask, coarse, max_components, kRelaxedRounds, beat);
    if (b > best) best = b, best_mask = mask;
  }
  if (coarse > tolerance)
    best = std::max(best, bound_keeping(net, jobs, best_mask, tolerance, max_components, kRelaxedRounds, beat));
  return best;
}

}  // namespace optiq
