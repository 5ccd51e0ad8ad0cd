// mcf's flow state: the paths each job holds with their bytes, and the links' (and relaying
// nodes') loads with the exponential potential the method descends (mcf.cpp).
#pragma once

#include <algorithm>
#include <cmath>
#include <vector>

#include "optiq/core/graph/parallel.hpp"
#include "optiq/core/metrics.hpp"
#include "optiq/core/network.hpp"

namespace optiq::detail {

struct PathFlow {
  LinkPath links;
  double x = 0;  // bytes
};

// Link and node loads with the exponential potential exp(eta * (u - U) / U) of each
// utilisation u (load over capacity, in seconds) against the reference utilisation U. Links
// start with `preload` bytes (other classes', PlannerOptions::link_preload) when given.
class Loads {
 public:
  Loads(const Network& topo, double forward_bandwidth, const std::vector<double>& preload)
      : topo_(&topo), fwd_cap_(forward_bandwidth), link_(topo.num_links(), 0.0),
        node_(forward_bandwidth > 0 ? topo.num_vertices() : 0, 0.0), cap_(topo.num_links()) {
    for (LinkId l = 0; l < topo.num_links(); ++l) cap_[l] = topo.capacity(l);
    if (!preload.empty()) link_ = preload;
    term_.assign(link_.size(), Term{});
    set_reference(eta_, ref_);
  }

  // A link's term changes by the factor exp(eta * x / (c * U)) with x bytes more: one exponential
  // per move on a network of one capacity, not one per link. set_reference recomputes every
  // term from its load, so the rounding of these products never outlives an iteration.
  void add(const LinkPath& p, double x) {
    double c = -1, factor = 1;
    for (std::size_t i = 0; i < p.size(); ++i) {
      const LinkId l = p[i];
      link_[l] += x;
      if (cap_[l] != c) {
        c = cap_[l];
        factor = c > 0 ? std::exp(eta_ * x / (c * ref_)) : 1.0;
      }
      term_[l].g *= factor;
      if (fwd_cap_ > 0 && i > 0 && relays_in_software(*topo_, topo_->link_src(p[i]))) node_[topo_->link_src(p[i])] += x;
    }
  }
  double capacity(LinkId l) const { return cap_[l]; }  // 0 for slots without a link
  double utilisation(LinkId l) const { return link_[l] / cap_[l]; }
  double max_utilisation() const {
    double u = 0;
    for (LinkId l = 0; l < static_cast<LinkId>(link_.size()); ++l)
      if (link_[l] > 0) u = std::max(u, link_[l] / cap_[l]);
    for (double f : node_) u = std::max(u, f / fwd_cap_);
    return u;
  }
  void set_reference(double eta, double U) {
    eta_ = eta, ref_ = U;
    // Every idle link has the same term (written as update_term computes it, to the last
    // bit); most links of a large torus are idle (Mira 49,152: three in four), and this
    // spares them the exponential.
    idle_ = std::exp(eta_ * (0.0 - ref_) / ref_);
    // Each link's term on its own: the same on any number of threads.
    constexpr std::size_t kBlock = 1 << 16;
    const std::size_t n = link_.size();
    graph::parallel_for((n + kBlock - 1) / kBlock, 4, [](bool) { return 0; }, [&](int, std::size_t b) {
      for (std::size_t l = b * kBlock; l < std::min(n, (b + 1) * kBlock); ++l) update_term(static_cast<LinkId>(l));
    });
  }
  double link_g(LinkId l) const { return term_[l].g; }
  double node_g(NodeId v) const { return std::exp(eta_ * (node_[v] / fwd_cap_ - ref_) / ref_); }
  // First and second derivative of the potential along a path, up to the common factor eta/U.
  void slope(const LinkPath& p, double& d, double& h) const {
    d = h = 0;
    for (std::size_t i = 0; i < p.size(); ++i) {
      const Term& t = term_[p[i]];
      const double gc = t.g * t.inverse_c;
      d += gc, h += gc * t.inverse_c;
      if (fwd_cap_ > 0 && i > 0 && relays_in_software(*topo_, topo_->link_src(p[i]))) {
        const double gv = node_g(topo_->link_src(p[i]));
        d += gv / fwd_cap_, h += gv / (fwd_cap_ * fwd_cap_);
      }
    }
  }
  bool forwarding() const { return fwd_cap_ > 0; }
  double forward_capacity() const { return fwd_cap_; }

 private:
  const Network* topo_;  // a pointer: a run saves and puts back its loads whole
  double fwd_cap_;
  std::vector<double> link_, node_;
  std::vector<double> cap_;  // per link, looked up often enough to keep at hand
  // Per link, kept up to date with its load: the potential's term g, beside the inverse
  // capacity a path's slope scales it by (sweeps read both far more often than loads change).
  struct Term {
    double g = 0, inverse_c = 0;
  };
  std::vector<Term> term_;
  void update_term(LinkId l) {
    const double c = cap_[l];
    if (!(c > 0)) return;
    term_[l] = {link_[l] == 0 ? idle_ : std::exp(eta_ * (link_[l] / c - ref_) / ref_), 1.0 / c};
  }
  double eta_ = 1, ref_ = 1, idle_ = std::exp(-1.0);
};

}  // namespace optiq::detail
