// Exchanges planned ahead: a library built on the runtime (the collective I/O library's forwarded
// rounds) plans a pattern once and runs it as often as it likes, as optiq_execute runs a plan
// file.
#include "runtime/api/context.hpp"

namespace optiq::rt {

std::shared_ptr<const RankSchedule> plan_exchange(optiq_context* ctx, const LocalPattern& mine) {
  PatternVote vote(ctx->comms, mine);
  vote.start(false);
  vote.wait();
  bool hit = false;
  auto schedule = settle_pattern(ctx->comms, mine, vote, nullptr,
                                 [&](const auto& sends, const auto& recvs) {
                                   return schedule_jobs(ctx->setup, match_pattern(sends, recvs));
                                 },
                                 &hit);
  ++ctx->stats.plans_made;
  return schedule;
}

void run_exchange(optiq_context* ctx, std::shared_ptr<const RankSchedule> schedule, Buffers buffers) {
  auto req = start_operation(ctx, std::move(schedule), std::move(buffers));
  while (!progress(req.get(), Idle::Block)) {
  }
}

}  // namespace optiq::rt
