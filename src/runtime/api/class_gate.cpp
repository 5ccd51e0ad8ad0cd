#include "runtime/api/class_gate.hpp"

#include <algorithm>
#include <cstdint>
#include <memory>
#include <mutex>
#include <vector>

#include "runtime/api/context.hpp"
#include "runtime/api/ended_everywhere.hpp"

namespace optiq::rt {

namespace {

struct InFlight {
  optiq_request* request;
  int priority;
  int process;  // its MPI_COMM_WORLD rank
};

// A more urgent operation's window from its start on one rank: every rank of its communicator
// keeps the network for it that long, its own part done or not (class_gate.hpp), or until it
// has ended on every rank (class_until_done).
struct Window {
  std::uint64_t id;
  int priority;
  int process;
  double until;                  // MPI_Wtime
  optiq_context* ctx;            // with class_until_done: its context, whose communicator tells the end
  const optiq_request* request;  // while its part here has not ended
  std::unique_ptr<EndedEverywhere> notice = nullptr;  // from when its part here ended

  bool holds(double now) const { return !(notice && notice->ended()) && now < until; }
  // Its notice is still to be sent or completed: dropping it would leave other ranks waiting.
  bool busy() const { return ctx && (!notice || !notice->finished()); }
};

// One table for the process, of the operations of every rank the process runs: under SimGrid
// SMPI without privatization (as optiq simulates) every simulated rank shares the program's
// globals, so entries carry their world rank and a rank looks at its own only. Recursive:
// driving a more urgent operation to completion unregisters it from inside the scan (and
// SMPI's simulated ranks, taking turns on one thread, may each hold it across an MPI call).
//
// Under SMPI an MPI call may run the other simulated ranks, which add and drop entries: no
// reference into the tables is kept across one (windows are found again by id).
struct Registry {
  std::recursive_mutex mutex;
  std::vector<InFlight> ops;
  std::vector<Window> windows;
  std::uint64_t next_id = 0;
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

Window* window_by_id(Registry& r, std::uint64_t id) {
  for (Window& w : r.windows)
    if (w.id == id) return &w;
  return nullptr;
}

// Advances the end notices of `process`. No MPI call at all when it has none: without
// class_until_done the gate costs a simulation nothing more than before.
void advance(Registry& r, int process) {
  std::vector<EndedEverywhere*> open;
  for (const Window& w : r.windows)
    if (w.process == process && w.notice && !w.notice->finished()) open.push_back(w.notice.get());  // its own rank's
  for (EndedEverywhere* n : open) n->test();  // a notice outlives these calls: only finished ones are dropped
}

// Drops the windows that hold nothing and owe nothing.
void drop_stale(Registry& r, double now) {
  r.windows.erase(std::remove_if(r.windows.begin(), r.windows.end(),
                                 [&](const Window& w) { return !w.holds(now) && !w.busy(); }),
                  r.windows.end());
}

}  // namespace

void class_enter(optiq_request* request, int priority, double window_seconds) {
  Registry& r = registry();
  std::lock_guard<std::recursive_mutex> lock(r.mutex);
  advance(r, world_rank());
  r.ops.push_back({request, priority, world_rank()});
  if (window_seconds > 0) {
    const double now = MPI_Wtime();
    drop_stale(r, now);  // a process of the most urgent class alone never yields: its old windows go here
    optiq_context* notice_ctx = request->ctx->comms.classes != MPI_COMM_NULL ? request->ctx : nullptr;
    r.windows.push_back({r.next_id++, priority, world_rank(), now + window_seconds, notice_ctx, request});
  }
}

void class_leave(optiq_request* request) {
  Registry& r = registry();
  std::lock_guard<std::recursive_mutex> lock(r.mutex);
  r.ops.erase(std::remove_if(r.ops.begin(), r.ops.end(), [&](const InFlight& f) { return f.request == request; }),
              r.ops.end());
  Window* w = nullptr;
  for (Window& x : r.windows)
    if (x.request == request) w = &x;
  if (!w) return;
  w->request = nullptr;
  if (!w->ctx) return;
  // Told once per operation on every rank, whatever ended it here, in operation order (one
  // operation at a time per context). The window is busy until then, so nobody drops it.
  const std::uint64_t id = w->id;
  auto notice = std::make_unique<EndedEverywhere>(w->ctx->comms.classes);
  if (Window* again = window_by_id(r, id)) again->notice = std::move(notice);
}

void class_forget(optiq_context* ctx) {
  std::vector<std::unique_ptr<EndedEverywhere>> open;
  {
    Registry& r = registry();
    std::lock_guard<std::recursive_mutex> lock(r.mutex);
    for (Window& w : r.windows)
      if (w.ctx == ctx && w.notice) open.push_back(std::move(w.notice));
    r.windows.erase(std::remove_if(r.windows.begin(), r.windows.end(), [&](const Window& w) { return w.ctx == ctx; }),
                    r.windows.end());
  }
  // Completed outside the lock: under SMPI the other simulated ranks run while this one waits,
  // and they take the lock to send their own notices.
  open.clear();
}

bool class_yield(optiq_request* request) {
  Registry& r = registry();
  std::lock_guard<std::recursive_mutex> lock(r.mutex);
  const InFlight* found = find(r, request);
  if (!found) return false;
  const InFlight me = *found;
  advance(r, me.process);  // every operation's rounds carry the notices, the most urgent ones' too
  if (me.priority == 0) return false;
  const double now = MPI_Wtime();
  drop_stale(r, now);
  bool held = std::any_of(r.windows.begin(), r.windows.end(), [&](const Window& w) {
    return w.priority < me.priority && w.process == me.process && w.holds(now);
  });
  const std::vector<InFlight> urgent = [&] {
    std::vector<InFlight> out;
    for (const InFlight& f : r.ops)
      if (f.priority < me.priority && f.process == me.process) out.push_back(f);
    std::stable_sort(out.begin(), out.end(), [](const InFlight& a, const InFlight& b) { return a.priority < b.priority; });
    return out;
  }();
  for (const InFlight& f : urgent) {
    std::unique_lock<std::mutex> other(f.request->ctx->progress_mutex, std::try_to_lock);
    if (!other.owns_lock()) {  // another thread is stepping it right now: it is active
      held = true;
      continue;
    }
    if (!f.request->engine) {  // still being started on this rank
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
