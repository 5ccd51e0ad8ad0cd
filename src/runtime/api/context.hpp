// What the C handles are on the inside.
#pragma once

#include <memory>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "runtime/api/progress_thread.hpp"
#include "runtime/engine/engine.hpp"
#include "runtime/online/agree.hpp"
#include "runtime/online/failure.hpp"
#include "runtime/online/root.hpp"
#include "optiq/core/error.hpp"
#include "optiq/optiq.h"

struct optiq_context {
  bool ready = false;  // false: creation failed; only the error message is usable
  std::string error;
  optiq::rt::Comms comms;
  std::shared_ptr<const optiq::Network> topo;  // shared with the process's other contexts on it
  std::unique_ptr<optiq::RoutingModel> routing;
  std::unique_ptr<optiq::RankMap> placement;
  std::shared_ptr<const optiq::Network> job_topo;  // topo, where only the job's endpoints forward
  optiq::rt::PlanningSetup setup;
  bool use_cache = true;
  optiq::rt::EngineOptions engine;
  int priority = 0;  // the traffic class of this context's operations (class_gate.hpp)
  double class_window = 0;  // ... and how long, in planned times, every rank keeps the network for them (set by
                            // optiq_create from optiq_options)
  std::unique_ptr<optiq::rt::Transport> transport;
  optiq::rt::PlanCache cache;
  optiq::rt::LastCall last;  // the same on every rank, but for each rank's own schedule
  optiq_stats stats{};
  optiq_request* active = nullptr;
  // The progress thread and the application's calls step the engine one at a time.
  std::mutex progress_mutex;
  optiq_request* handed_out = nullptr;  // the request the application holds, for the progress thread
  std::unique_ptr<optiq::rt::ProgressThread> progress_thread;
  unsigned long long plans_loaded = 0;  // optiq_plan_load calls that made a plan (collective: equal on every rank)
};

struct optiq_request {
  optiq_context* ctx = nullptr;
  std::shared_ptr<const optiq::RankSchedule> schedule;
  std::vector<char> staged;  // MPI_IN_PLACE: this rank's outgoing bytes, copied out of the receive buffer
  std::unique_ptr<optiq::rt::Engine> engine;
  bool complete = false;  // the engine finished (maybe in the progress thread); stats recorded
  optiq::rt::Verdict failed;  // a failure met by the progress thread, for the next test or wait
  ~optiq_request();
};

struct optiq_plan {
  optiq_context* ctx = nullptr;
  std::shared_ptr<const optiq::RankSchedule> schedule;
  unsigned long long serial = 0;  // the context's count of loads when this one was made: the same on every rank
};

namespace optiq::rt {

// Runs f, turning any exception into a status code and ctx->error: every extern "C" entry
// point runs its work through here, so no exception reaches a C caller.
template <class F>
int guarded(optiq_context* ctx, F&& f) noexcept {
  Verdict v = verdict(std::forward<F>(f));
  if (v.code != OPTIQ_SUCCESS) ctx->error = std::move(v.message);
  return v.code;
}

// Sets the message without throwing: losing the text to exhausted memory still leaves the status.
inline void set_error(optiq_context* ctx, const char* text) noexcept {
  try {
    ctx->error = text;
  } catch (...) {
    ctx->error.clear();
  }
}

// Local checks shared by the entry points; they fail without talking to other ranks.
int usable(optiq_context* ctx);

// Starts the engine on a schedule (the context must be idle). `staged`, if any, is the send
// buffer that buffers.send points into; the request keeps it until completion.
std::unique_ptr<optiq_request> start_operation(optiq_context* ctx, std::shared_ptr<const RankSchedule> schedule,
                                               Buffers buffers, std::vector<char> staged = {});
// Progress; true (and the request's ctx idle again, stats updated) once complete, and on every
// call after that. `idle`: what a round with nothing to do does (Engine::step).
bool progress(optiq_request* request, Idle idle);

// Collective over the context: the schedule of an exchange with these bytes per peer, planned
// with the context's planner (no cache; throws Failure on every rank alike if any rank's
// pattern is bad). run_exchange moves it once, to completion, between the given buffers.
std::shared_ptr<const RankSchedule> plan_exchange(optiq_context* ctx, const LocalPattern& mine);
void run_exchange(optiq_context* ctx, std::shared_ptr<const RankSchedule> schedule, Buffers buffers);

}  // namespace optiq::rt
