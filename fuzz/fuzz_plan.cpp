// Plan files (plan_from_json) and what is built from an accepted plan: its metrics and, on
// small topologies, the runtime's schedules with one rank per node. Beyond not crashing: an
// accepted plan is valid, writes out and reads back as the same plan and the same text, its
// byte total is within kMaxBytes, and its schedules move exactly its bytes and survive
// serialisation.
#include <cstdint>
#include <string>
#include <vector>

#include "invariant.hpp"
#include "optiq/core/bytes.hpp"
#include "optiq/core/error.hpp"
#include "optiq/core/metrics.hpp"
#include "optiq/core/plan_io.hpp"
#include "optiq/core/schedule.hpp"

using namespace optiq;

namespace {

bool same(const Plan& a, const Plan& b) {
  if (a.topology != b.topology || a.routing != b.routing || a.planner != b.planner || a.jobs.size() != b.jobs.size())
    return false;
  for (std::size_t j = 0; j < a.jobs.size(); ++j) {
    const JobPlan &x = a.jobs[j], &y = b.jobs[j];
    if (x.job.src != y.job.src || x.job.dst != y.job.dst || x.job.bytes != y.job.bytes ||
        x.paths.size() != y.paths.size())
      return false;
    for (std::size_t p = 0; p < x.paths.size(); ++p)
      if (x.paths[p].links != y.paths[p].links || x.paths[p].bytes != y.paths[p].bytes) return false;
  }
  return true;
}

// As the runtime schedules a plan file: node n is rank n, jobs in file order.
void schedules(const Plan& plan, const Network& t, Bytes total) {
  const int n = t.num_vertices();
  const RankMap placement(t, n, 1);
  const auto routing = make_routing(plan.routing, t);
  std::vector<RankJob> jobs;
  std::vector<std::vector<Bytes>> used(n, std::vector<Bytes>(n, 0));
  for (const JobPlan& jp : plan.jobs) {
    Bytes& at = used[jp.job.src][jp.job.dst];
    jobs.push_back({jp.job.src, jp.job.dst, jp.job.bytes, at});
    at += jp.job.bytes;
  }
  const auto flows = make_flows(t, *routing, placement, jobs, plan, std::vector<bool>(jobs.size(), true));
  std::vector<RankSchedule> all;
  try {
    all = build_schedules(jobs, flows, n, ScheduleOptions{});
  } catch (const Error&) {  // a budget too small for the plan's streams: refused, not broken
    return;
  }
  Bytes sent = 0, received = 0;
  for (const RankSchedule& s : all) {
    for (const PeerBytes& p : s.send_bytes) sent += p.bytes;
    for (const PeerBytes& p : s.recv_bytes) received += p.bytes;
    const std::string blob = serialize(s);
    FUZZ_CHECK(serialize(deserialize_schedule(blob)) == blob, "rank %d's schedule changes in serialisation", s.rank);
  }
  FUZZ_CHECK(sent == total && received == total, "schedules send %llu and receive %llu of %llu bytes",
             static_cast<unsigned long long>(sent), static_cast<unsigned long long>(received),
             static_cast<unsigned long long>(total));
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  Plan plan;
  try {
    plan = plan_from_json(text, "fuzz");
  } catch (const Error&) {
    return 0;
  }
  const Network t = parse_network(plan.topology);
  try {
    validate_plan(plan, t);
  } catch (const Error& e) {
    FUZZ_CHECK(false, "an accepted plan is invalid: %s", e.what());
  }
  const std::string out = plan_to_json(plan, t);
  const Plan back = plan_from_json(out, "again");
  FUZZ_CHECK(same(plan, back), "the plan reads back differently from:\n%s", out.c_str());
  FUZZ_CHECK(plan_to_json(back, t) == out, "the plan writes differently the second time");

  Bytes total = 0;
  for (const JobPlan& jp : plan.jobs) {
    FUZZ_CHECK(jp.job.bytes <= kMaxBytes - total, "the plan's bytes pass kMaxBytes");
    total += jp.job.bytes;
  }
  if (t.num_links() <= (1 << 20)) {  // per-link arrays: keep every run fast
    const Metrics m = compute_metrics(plan, t);
    FUZZ_CHECK(m.total_bytes == total, "metrics count %llu bytes of %llu",
               static_cast<unsigned long long>(m.total_bytes), static_cast<unsigned long long>(total));
  }
  if (t.num_vertices() <= 256) schedules(plan, t, total);
  return 0;
}
