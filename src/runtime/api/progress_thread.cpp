#include "runtime/api/progress_thread.hpp"

#include <chrono>

#include "runtime/api/context.hpp"

namespace optiq::rt {

namespace {

// Between rounds the thread sleeps this long: short against a chunk's time on a link (a 32 KiB
// chunk takes 16 us at 2 GB/s, and one round handles every completion that arrived), long
// enough that the thread does not take a core from the application it runs beside.
constexpr auto kIdleSleep = std::chrono::microseconds(20);

const char* level_name(int level) {
  switch (level) {
    case MPI_THREAD_SINGLE: return "MPI_THREAD_SINGLE";
    case MPI_THREAD_FUNNELED: return "MPI_THREAD_FUNNELED";
    case MPI_THREAD_SERIALIZED: return "MPI_THREAD_SERIALIZED";
    default: return "MPI_THREAD_MULTIPLE";
  }
}

}  // namespace

void check_progress_thread_allowed() {
#ifdef OPTIQ_SMPI
  throw Failure(OPTIQ_ERR_ARG,
                "progress_thread is not available in SMPI simulations (simulated ranks cannot start threads that "
                "call MPI); call optiq_progress between work items instead");
#else
  int level = MPI_THREAD_SINGLE;
  MPI_Query_thread(&level);
  if (level < MPI_THREAD_MULTIPLE)
    throw Failure(OPTIQ_ERR_ARG, std::string("progress_thread needs MPI_THREAD_MULTIPLE, but MPI was initialised with ") +
                                     level_name(level) +
                                     " (start MPI with MPI_Init_thread(..., MPI_THREAD_MULTIPLE, ...), or call "
                                     "optiq_progress between work items instead)");
#endif
}

ProgressThread::ProgressThread(optiq_context* ctx) : ctx_(ctx), thread_([this] { run(); }) {}

ProgressThread::~ProgressThread() {
  stop_ = true;
  thread_.join();
}

void ProgressThread::run() {
  while (!stop_) {
    {
      std::lock_guard<std::mutex> lock(ctx_->progress_mutex);
      optiq_request* req = ctx_->handed_out;
      if (req && !req->complete && req->failed.code == OPTIQ_SUCCESS)
        req->failed = verdict([&] { progress(req, Idle::Return); });
    }
    std::this_thread::sleep_for(kIdleSleep);
  }
}

}  // namespace optiq::rt
