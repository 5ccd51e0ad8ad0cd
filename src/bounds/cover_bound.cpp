// The cover bound (include/optiq/core/bounds.hpp). Take a part Q of a switched network (the
// terminals and switches below some level: a fat-tree's pod) and, for each terminal x in Q, the
// links by which the default routes to x enter Q (under dmodk one per terminal: the down-link
// from the top switch x's address picks). Choose a link set S that covers every terminal x
// that can end a leg (x forwards, or is a destination): either all of x's entry links are in S,
// or x's own in-links (or out-links) are. Then every chain of default routes that brings bytes
// from outside Q to a destination t in Q crosses S: the last leg entering Q ends at some
// terminal y of Q by one of y's entry links (in S, if y is covered that way), and otherwise
// the bytes cross y's own in-link (y = t, or y relays) or out-link (y relays). So, with
//   demand = bytes entering Q for destinations covered by their entry links
//          + bytes received by terminals covered by their in-links
//          + bytes sent by terminals covered by their out-links,
// T >= (demand + bytes already on S) / capacity of S. Only an entry link pays for the bytes
// of the destinations it serves, while a terminal's own links are full of its own traffic: where
// two destinations share one entry link (a fat-tree with fewer uplinks than hosts per pod),
// their bytes must either squeeze through it or borrow the spare room of other terminals'
// links, and the bound counts both (fat-tree 9,216 endpoints, 2:3 tapered pods, permutation:
// 6.77 ms against the pod cut's 6.64).
#include <algorithm>
#include <map>

#include "bounds/levels.hpp"
#include "optiq/core/bounds.hpp"
#include "optiq/core/graph/contract.hpp"
#include "optiq/core/legs.hpp"

namespace optiq {

namespace {

// Dinkelbach rounds for the best ratio of one part (each round improves it; a handful suffice).
constexpr int kRatioRounds = 50;

class CoverBound {
 public:
  CoverBound(const Legs& legs, const std::vector<Job>& jobs, const std::vector<double>& link_preload)
      : legs_(legs), net_(legs.network()), preload_(link_preload) {
    const int n = net_.num_vertices();
    cap_in_.assign(n, 0.0), cap_out_.assign(n, 0.0), pre_in_.assign(n, 0.0), pre_out_.assign(n, 0.0);
    for (LinkId l = 0; l < net_.num_links(); ++l) {
      if (!present(l)) continue;
      cap_out_[net_.link_src(l)] += net_.capacity(l), pre_out_[net_.link_src(l)] += preload(l);
      cap_in_[net_.link_dst(l)] += net_.capacity(l), pre_in_[net_.link_dst(l)] += preload(l);
    }
    recv_.assign(n, 0.0), send_.assign(n, 0.0);
    for (const Job& j : jobs)
      if (j.bytes > 0 && j.src != j.dst) {
        jobs_.push_back(j);
        recv_[j.dst] += static_cast<double>(j.bytes), send_[j.src] += static_cast<double>(j.bytes);
      }
  }

  double solve() {
    const std::vector<int> level = bounds::switch_levels(net_);
    if (level.empty() || jobs_.empty()) return 0;
    const int top = *std::max_element(level.begin(), level.end());
    // Parts of one terminal are its own links (the cut bound has them); parts start at level 2.
    for (int k = 2; k <= top; ++k) parts_.push_back(bounds::parts_below(net_, level, k));
    if (parts_.empty()) return 0;
    find_entry_links();
    double best = 0;
    for (std::size_t k = 0; k < parts_.size(); ++k) best = std::max(best, solve_level(k));
    return best;
  }

 private:
  struct Choice {
    double demand = 0, capacity = 0;
  };

  struct Group {
    int part = -1;
    Choice by_links;               // all its entry links in S
    std::vector<NodeId> terminals;  // the terminals those links serve
  };

  double preload(LinkId l) const { return l < static_cast<LinkId>(preload_.size()) ? preload_[l] : 0.0; }
  bool present(LinkId l) const { return net_.link_src(l) >= 0 && net_.capacity(l) > 0; }

  // For every terminal x and level, the links by which default routes from any terminal to x
  // enter x's part: the routes to x form a tree (the routing is destination-based), walked
  // once from every start, each walk stopping where it meets one walked before.
  void find_entry_links() {
    const auto& terminals = legs_.terminals();
    // A single-homed terminal's routes all start by its one link, inside its own part: walks
    // start at the switch beyond it instead (one per leaf switch rather than one per host).
    std::vector<NodeId> starts;
    std::vector<char> is_start(net_.num_vertices(), 0);
    const graph::Csr& g = net_.graph();
    for (NodeId s : terminals) {
      const NodeId from = g.out_end(s) - g.out_begin(s) == 1 ? g.head_at(g.out_begin(s)) : s;
      if (!is_start[from]) is_start[from] = 1, starts.push_back(from);
    }
    entry_.assign(parts_.size(), std::vector<std::vector<LinkId>>(terminals.size()));
    std::vector<int> stamp(net_.num_vertices(), -1);
    for (int t = 0; t < static_cast<int>(terminals.size()); ++t) {
      const NodeId x = terminals[t];
      stamp[x] = t;
      for (NodeId v : starts) {
        while (stamp[v] != t) {
          stamp[v] = t;
          const LinkId l = legs_.next(t, v);
          if (l < 0) break;
          const NodeId w = net_.link_dst(l);
          for (std::size_t k = 0; k < parts_.size(); ++k) {
            const auto& part = parts_[k].part;
            if (part[v] != part[w] && part[w] == part[x]) {
              auto& e = entry_[k][t];
              if (std::find(e.begin(), e.end(), l) == e.end()) e.push_back(l);
            }
          }
          v = w;
        }
      }
    }
  }

  // The best cover of every part below one level.
  double solve_level(std::size_t k) {
    const auto& part = parts_[k].part;
    const auto& terminals = legs_.terminals();
    std::vector<double> inbound(net_.num_vertices(), 0.0);  // bytes from outside the part
    for (const Job& j : jobs_)
      if (part[j.src] != part[j.dst]) inbound[j.dst] += static_cast<double>(j.bytes);
    // Entry links joined by a terminal reached through several of them form one group, covered
    // by all its entry links or by its terminals' own links.
    std::map<LinkId, int> link_index;
    for (const auto& e : entry_[k])
      for (LinkId l : e) link_index.emplace(l, static_cast<int>(link_index.size()));
    if (link_index.empty()) return 0;
    graph::UnionFind groups(static_cast<int>(link_index.size()));
    for (const auto& e : entry_[k])
      for (std::size_t i = 1; i < e.size(); ++i) groups.unite(link_index[e[0]], link_index[e[i]]);
    std::map<int, Group> by_root;
    for (const auto& [l, i] : link_index) {
      Group& gr = by_root[groups.find(i)];
      gr.part = part[net_.link_dst(l)];
      gr.by_links.capacity += net_.capacity(l), gr.by_links.demand += preload(l);
    }
    for (int t = 0; t < static_cast<int>(terminals.size()); ++t) {
      if (entry_[k][t].empty()) continue;
      Group& gr = by_root[groups.find(link_index[entry_[k][t][0]])];
      const NodeId x = terminals[t];
      gr.by_links.demand += inbound[x];
      gr.terminals.push_back(x);
    }
    std::map<int, std::vector<const Group*>> by_part;
    for (const auto& [root, gr] : by_root) by_part[gr.part].push_back(&gr);
    double best = 0;
    for (const auto& [p, members] : by_part) best = std::max(best, best_ratio(members));
    return best;
  }

  // Its terminals' own links in S, each terminal by its in-links or its out-links, whichever
  // gains more at ratio t. One that does not forward may stay out (no bytes can be relayed
  // through it; its own then simply do not count).
  Choice by_terminals(const Group& gr, double t) const {
    Choice c;
    for (NodeId x : gr.terminals) {
      const Choice in{recv_[x] + pre_in_[x], cap_in_[x]}, out{send_[x] + pre_out_[x], cap_out_[x]};
      const Choice& pick = gain(in, t) >= gain(out, t) ? in : out;
      if (!legs_.can_proxy(x) && gain(pick, t) <= 0) continue;
      c.demand += pick.demand, c.capacity += pick.capacity;
    }
    return c;
  }

  static double gain(const Choice& c, double t) { return c.demand - t * c.capacity; }

  // max over the groups' choices of demand / capacity (Dinkelbach: the choice that gains most
  // at the current ratio gives the next, never smaller, ratio).
  double best_ratio(const std::vector<const Group*>& groups) const {
    double t = 0;
    for (int round = 0; round < kRatioRounds; ++round) {
      Choice total;
      for (const Group* gr : groups) {
        const Choice b = by_terminals(*gr, t);
        const Choice& pick = gain(gr->by_links, t) >= gain(b, t) ? gr->by_links : b;
        total.demand += pick.demand, total.capacity += pick.capacity;
      }
      if (total.capacity <= 0) return t;
      const double next = total.demand / total.capacity;
      if (next <= t * (1 + 1e-12)) return std::max(t, next);
      t = next;
    }
    return t;
  }

  const Legs& legs_;
  const Network& net_;
  const std::vector<double>& preload_;
  std::vector<Job> jobs_;
  std::vector<double> cap_in_, cap_out_, pre_in_, pre_out_, recv_, send_;
  std::vector<bounds::LevelParts> parts_;
  std::vector<std::vector<std::vector<LinkId>>> entry_;  // [level][terminal] -> entry links
};

}  // namespace

double cover_lower_bound(const Legs& legs, const std::vector<Job>& jobs, const std::vector<double>& link_preload) {
  if (legs.direct()) return 0;
  return CoverBound(legs, jobs, link_preload).solve();
}

}  // namespace optiq
