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
};

// Recursive: driving a more urgent operation to completion unregisters it from inside the scan.
struct Registry {
  std::recursive_mutex mutex;
  std::vector<InFlight> ops;
};

Registry& registry() {
  static Registry r;  // one per process (per simulated process under SMPI's privatization)
  return r;
}

int priority_of(const Registry& r, const optiq_request* request) {
  for (const InFlight& f : r.ops)
    if (f.request == request) return f.priority;
  return -1;
}

}  // namespace

void class_enter(optiq_request* request, int priority) {
  Registry& r = registry();
  std::lock_guard<std::recursive_mutex> lock(r.mutex);
  r.ops.push_back({request, priority});
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
  const int mine = priority_of(r, request);
  if (mine <= 0) return false;
  const std::vector<InFlight> urgent = [&] {
    std::vector<InFlight> out;
    for (const InFlight& f : r.ops)
      if (f.priority < mine) out.push_back(f);
    std::stable_sort(out.begin(), out.end(), [](const InFlight& a, const InFlight& b) { return a.priority < b.priority; });
    return out;
  }();
  bool held = false;
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
    if (priority_of(r, f.request) >= 0 && f.request->failed.code == OPTIQ_SUCCESS &&
        f.request->engine->seconds_since_activity() < kClassStallSeconds)
      held = true;
  }
  return held;
}

}  // namespace optiq::rt
