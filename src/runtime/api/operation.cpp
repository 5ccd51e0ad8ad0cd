// Starting, progressing and completing one operation on a context.
#include "runtime/api/class_gate.hpp"
#include "runtime/api/context.hpp"

optiq_request::~optiq_request() {
  optiq::rt::class_leave(this);  // a request dropped before completion (a failure) holds nobody back
  if (ctx && ctx->active == this) ctx->active = nullptr;
}

namespace optiq::rt {

int usable(optiq_context* ctx) {
  if (!ctx) return OPTIQ_ERR_ARG;
  if (!ctx->ready) {
    if (ctx->error.empty()) set_error(ctx, "the context failed to initialise");
    return OPTIQ_ERR_STATE;
  }
  bool busy = false;
  {
    std::lock_guard<std::mutex> lock(ctx->progress_mutex);  // the progress thread may be completing it
    busy = ctx->active != nullptr;
  }
  if (busy) {
    set_error(ctx, "an operation is still in flight on this context; complete it with optiq_wait first");
    return OPTIQ_ERR_BUSY;
  }
  ctx->error.clear();
  return OPTIQ_SUCCESS;
}

std::unique_ptr<optiq_request> start_operation(optiq_context* ctx, std::shared_ptr<const RankSchedule> schedule,
                                               Buffers buffers, std::vector<char> staged) {
  auto req = std::make_unique<optiq_request>();
  req->ctx = ctx;
  req->schedule = std::move(schedule);
  req->staged = std::move(staged);  // a moved vector keeps its storage: buffers.send stays valid
  // Registered first, so that an engine failing to start on one rank still ends the operation
  // there (the request's destructor), as every other rank's does.
  class_enter(req.get(), ctx->priority, ctx->class_window * req->schedule->predicted_seconds);
  req->engine = std::make_unique<Engine>(*req->schedule, *ctx->transport, std::move(buffers), ctx->engine, ctx->comms);
  ctx->active = req.get();
  req->engine->set_held(class_yield(req.get()));
  req->engine->start();
  return req;
}

bool progress(optiq_request* req, Idle idle) {
  if (req->complete) return true;
  const bool held = class_yield(req);
  req->engine->set_held(held);
  if (held) ++req->ctx->stats.held_rounds;
  // Held, a round must not wait (inside MPI for its own requests, or asleep): the caller's
  // next round drives the more urgent operations again, and they are what moves.
  if (!req->engine->step(held ? Idle::Return : idle)) return false;
  class_leave(req);
  req->complete = true;
  optiq_context* ctx = req->ctx;
  const EngineStats& e = req->engine->stats();
  optiq_stats& s = ctx->stats;
  ++s.operations;
  if (req->schedule->aggregated_pairs > 0) ++s.aggregated_operations;
  s.predicted_seconds = req->schedule->predicted_seconds;
  s.planned_jobs = req->schedule->planned_jobs;
  s.planned_paths = req->schedule->planned_paths;
  s.most_paths = req->schedule->most_paths;
  s.injected_bytes += e.injected_bytes;
  s.forwarded_bytes += e.forwarded_bytes;
  s.forwarded_chunks += e.forwarded_chunks;
  s.off_plan_bytes += req->schedule->off_plan_bytes;
  s.slot_bytes_lent = std::max<unsigned long long>(s.slot_bytes_lent, e.slot_bytes_lent);
  s.held_bytes_peak = std::max<unsigned long long>(s.held_bytes_peak, e.held_peak);
  s.reserved_bytes = ctx->transport->reserved();
  ctx->active = nullptr;
  return true;
}

}  // namespace optiq::rt
