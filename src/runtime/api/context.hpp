// What the C handles are on the inside.
#pragma once

#include <memory>
#include <string>

#include "../engine/engine.hpp"
#include "../online/agree.hpp"
#include "../online/root.hpp"
#include "optiq/error.hpp"
#include "optiq/optiq.h"

struct optiq_context {
  bool ready = false;  // false: creation failed; only the error message is usable
  std::string error;
  optiq::rt::Comms comms;
  std::unique_ptr<optiq::Topology> topo;
  std::unique_ptr<optiq::RoutingModel> routing;
  std::unique_ptr<optiq::Placement> placement;
  optiq::rt::PlanningSetup setup;
  bool use_cache = true;
  optiq::rt::EngineOptions engine;
  std::unique_ptr<optiq::rt::Transport> transport;
  optiq::rt::PlanCache cache;
  optiq_stats stats{};
  optiq_request* active = nullptr;
};

struct optiq_request {
  optiq_context* ctx = nullptr;
  std::shared_ptr<const optiq::RankSchedule> schedule;
  std::unique_ptr<optiq::rt::Engine> engine;
};

struct optiq_plan {
  optiq_context* ctx = nullptr;
  std::shared_ptr<const optiq::RankSchedule> schedule;
};

namespace optiq::rt {

// Runs f, turning exceptions into a status code and ctx->error.
template <class F>
int guarded(optiq_context* ctx, F&& f) {
  try {
    f();
    return OPTIQ_SUCCESS;
  } catch (const Failure& e) {
    ctx->error = e.what();
    return e.code();
  } catch (const Error& e) {
    ctx->error = e.what();
    return OPTIQ_ERR_ARG;
  } catch (const std::exception& e) {
    ctx->error = std::string("internal error: ") + e.what();
    return OPTIQ_ERR_INTERNAL;
  }
}

// Local checks shared by the entry points; they fail without talking to other ranks.
int usable(optiq_context* ctx);

// Starts the engine on a schedule (the context must be idle).
std::unique_ptr<optiq_request> start_operation(optiq_context* ctx, std::shared_ptr<const RankSchedule> schedule,
                                               Buffers buffers);
// Progress; true (and the request's ctx idle again, stats updated) once complete. may_block:
// the caller waits for completion anyway (optiq_wait), so an idle round may block in MPI.
bool progress(optiq_request* request, bool may_block);

}  // namespace optiq::rt
