#include "runtime/api/class_gate.hpp"

#include <algorithm>
#include <mutex>
#include <vector>

#include "runtime/api/context.hpp"

namespace optiq::rt {

namespace {

struct InFlight {
  optiq_request* request;
  int priority;
  int process;  // its MPI_COMM_WORLD rank
};

// A more urgent operation's window from its start on one rank: every rank of its communicator
// keeps the network for it that long, its own part done or not (class_gate.hpp).
struct Window {
  int priority;
  int process;
  double until;  // MPI_Wtime
};

// One table for the process, of the operations of every rank the process runs: under SimGrid
// SMPI without privatization (as optiq simulates) every simulated rank shares the program's
// globals, so entries carry their world rank and a rank looks at its own only. Recursive:
// driving a more urgent operation to completion unregisters it from inside the scan (and
// SMPI's simulated ranks, taking turns on one thread, may each hold it across an MPI call).
struct Registry {
  std::recursive_mutex mutex;
  std::vector<InFlight> ops;
  std::vector<Window> windows;
};

Registry& registry() {
  static Registry r;
  return r;
}

int world_rank() {
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  return rank;
}

const InFlight* find(const Registry& r, const optiq_request* request) {
  for (const InFlight& f : r.ops)
    if (f.request == request) return &f;
  return nullptr;
}

}  // namespace

void class_enter(optiq_request* request, int priority, double window_seconds) {
  Registry& r = registry();
  std::lock_guard<std::recursive_mutex> lock(r.mutex);
  r.ops.push_back({request, priority, world_rank()});
  if (window_seconds > 0) r.windows.push_back({priority, world_rank(), MPI_Wtime() + window_seconds});
}

void class_leave(optiq_request* request) {
  Registry& r = registry();
  std::lock_guard<std::recursive_mutex> lock(r.mutex);
  r.ops.erase(std::remove_if(r.ops.begin(), r.ops.end(), [&](const InFlight& f) { return f.request == request; }),
              r.ops.end());
}

bool class_yield(optiq_request* request) {
  Registry& r = registry();
  std::lock_guard<std::recursive_mutex> lock(r.mutex);
  const InFlight* me = find(r, request);
  if (!me || me->priority == 0) return false;
  const double now = MPI_Wtime();
  r.windows.erase(std::remove_if(r.windows.begin(), r.windows.end(), [&](const Window& w) { return w.until <= now; }),
                  r.windows.end());
  bool held = std::any_of(r.windows.begin(), r.windows.end(), [&](const Window& w) {
    return w.priority < me->priority && w.process == me->process;
  });
  const std::vector<InFlight> urgent = [&] {
    std::vector<InFlight> out;
    for (const InFlight& f : r.ops)
      if (f.priority < me->priority && f.process == me->process) out.push_back(f);
    std::stable_sort(out.begin(), out.end(), [](const InFlight& a, const InFlight& b) { return a.priority < b.priority; });
    return out;
  }();
  for (const InFlight& f : urgent) {
    std::unique_lock<std::mutex> other(f.request->ctx->progress_mutex, std::try_to_lock);
    if (!other.owns_lock()) {  // another thread is stepping it right now: it is active
      held = true;
      continue;
    }
    if (!f.request->complete && f.request->failed.code == OPTIQ_SUCCESS)
      f.request->failed = verdict([&] { progress(f.request, Idle::Return); });
    // Completion unregisters it (under this lock, which is recursive); a failure leaves it to
    // its owner's next call and holds nothing back.
    if (find(r, f.request) && f.request->failed.code == OPTIQ_SUCCESS &&
        f.request->engine->seconds_since_activity() < kClassStallSeconds)
      held = true;
  }
  return held;
}

}  // namespace optiq::rt
