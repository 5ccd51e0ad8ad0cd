// Planning inside a job: only the endpoints given to Network::with_forwarders may relay bytes.
#include <gtest/gtest.h>

#include <algorithm>
#include <set>

#include "optiq/core/error.hpp"
#include "optiq/core/legs.hpp"
#include "optiq/core/metrics.hpp"
#include "optiq/core/paths.hpp"
#include "optiq/core/planner.hpp"
#include "optiq/core/rng.hpp"
#include "optiq/core/routing.hpp"

using namespace optiq;

namespace {

// A random half of the endpoints, and jobs among them only: a job on a shared machine.
std::vector<NodeId> some_endpoints(const Network& net, Rng& rng, std::size_t count) {
  std::vector<NodeId> all = net.endpoints();
  for (std::size_t i = all.size(); i > 1; --i) std::swap(all[i - 1], all[rng.below(i)]);
  all.resize(count);
  std::sort(all.begin(), all.end());
  return all;
}

std::vector<Job> jobs_among(const std::vector<NodeId>& hosts, Rng& rng, int count) {
  std::vector<Job> jobs;
  for (int i = 0; i < count; ++i) {
    const NodeId a = hosts[rng.below(hosts.size())], b = hosts[rng.below(hosts.size())];
    if (a != b) jobs.push_back({a, b, 1 + rng.below(1 << 20)});
  }
  return jobs;
}

}  // namespace

TEST(Forwarders, RestrictedNetworkKeepsItsWiring) {
  const Network net = parse_network("fattree:2;4,4;1,2;1,1");
  const Network job = net.with_forwarders({0, 3, 5});
  EXPECT_EQ(job.digest(), net.digest());
  EXPECT_TRUE(job.forwarding_restricted());
  EXPECT_FALSE(net.forwarding_restricted());
  EXPECT_TRUE(job.may_forward(3));
  EXPECT_FALSE(job.may_forward(4));
  EXPECT_TRUE(net.may_forward(4));
  EXPECT_FALSE(net.may_forward(net.num_vertices() - 1));  // a switch never forwards in software
  EXPECT_THROW(net.with_forwarders({net.num_vertices() - 1}), Error);
  EXPECT_THROW(net.with_forwarders({-1}), Error);
}

// Every planner, on fat-trees, dragonflies and a torus under dimension-ordered routing: plans
// for a partial allocation relay only at the job's endpoints, and the validator refuses a plan
// that relays elsewhere.
TEST(Forwarders, EveryPlannerRelaysOnlyAtTheJobsEndpoints) {
  Rng rng(34);
  int relayed_outside = 0;
  for (const char* spec : {"fattree:2;4,4;1,2;1,1", "fattree:3;2,2,4;1,2,2;1,1,1", "dragonfly:3,1;2,1;3,1;2",
                           "torus:4x4"}) {
    const Network whole = parse_network(spec);
    const auto routing = make_routing(whole.default_routing(), whole);
    for (int trial = 0; trial < 6; ++trial) {
      const auto hosts = some_endpoints(whole, rng, std::max<std::size_t>(3, whole.endpoints().size() / 2));
      const Network job = whole.with_forwarders(hosts);
      const std::set<NodeId> own(hosts.begin(), hosts.end());
      const auto jobs = jobs_among(hosts, rng, 12);
      {  // the same jobs planned on the whole machine relay elsewhere now and then: the test bites
        const Plan free = make_plan("mcf", whole, *routing, jobs, PlannerOptions()).plan;
        const Legs legs(whole, *routing);
        for (const JobPlan& jp : free.jobs)
          for (const PathShare& share : jp.paths) {
            std::vector<std::size_t> junctions;
            leg_junctions(legs, jp.job.src, share.links, [&](NodeId v) { return whole.may_forward(v); }, junctions);
            const auto nodes = path_nodes(whole, jp.job.src, share.links);
            for (std::size_t k : junctions) relayed_outside += !own.count(nodes[k]);
          }
      }
      for (const auto& name : planner_names()) {
        if (name == "maxflow") continue;  // switchless networks only; below
        PlannerOptions o;
        const Plan plan = make_plan(name, job, *routing, jobs, o).plan;
        ASSERT_NO_THROW(validate_plan(plan, job)) << spec << " " << name;
        const Legs legs(job, *routing);
        for (const JobPlan& jp : plan.jobs)
          for (const PathShare& share : jp.paths) {
            std::vector<std::size_t> junctions;
            ASSERT_TRUE(leg_junctions(legs, jp.job.src, share.links, [&](NodeId v) { return own.count(v) > 0; },
                                      junctions))
                << spec << " " << name;
            const auto nodes = path_nodes(job, jp.job.src, share.links);
            for (std::size_t k : junctions) EXPECT_TRUE(own.count(nodes[k])) << spec << " " << name;
          }
      }
    }
  }
  EXPECT_GT(relayed_outside, 0);
}

TEST(Forwarders, ValidatorRefusesARelayOutsideTheJob) {
  // Two leaves of four hosts under one spine each way: host 0 to host 4 through host 1 relays at 1.
  const Network whole = parse_network("fattree:2;4,2;1,1;1,1");
  const auto routing = make_routing(whole.default_routing(), whole);
  LinkPath through;
  routing->route(0, 1);
  for (LinkId l : routing->route(0, 1)) through.push_back(l);
  for (LinkId l : routing->route(1, 4)) through.push_back(l);
  Plan plan{whole.spec(), routing->name(), "test", {{{0, 4, 100}, {{through, 100}}}}};
  EXPECT_NO_THROW(validate_plan(plan, whole));
  EXPECT_NO_THROW(validate_plan(plan, whole.with_forwarders({0, 1, 4})));
  EXPECT_THROW(validate_plan(plan, whole.with_forwarders({0, 4})), Error);
}

// The restriction costs: mcf's bound on the whole machine is at most its bound inside the job.
TEST(Forwarders, RestrictionNeverHelps) {
  Rng rng(7);
  const Network whole = parse_network("dragonfly:3,1;2,1;3,1;2");
  const auto routing = make_routing(whole.default_routing(), whole);
  for (int trial = 0; trial < 4; ++trial) {
    const auto hosts = some_endpoints(whole, rng, 6);
    const auto jobs = jobs_among(hosts, rng, 20);
    PlannerOptions o;
    o.epsilon = 0.01;
    const PlanResult free = make_plan("mcf", whole, *routing, jobs, o);
    const PlanResult inside = make_plan("mcf", whole.with_forwarders(hosts), *routing, jobs, o);
    EXPECT_LE(free.bound_seconds, inside.plan_seconds * (1 + 1e-9));
    const Plan route = make_plan("default", whole, *routing, jobs, o).plan;
    EXPECT_LE(inside.plan_seconds, compute_metrics(route, whole).predicted_seconds * (1 + 1e-9));
  }
}
