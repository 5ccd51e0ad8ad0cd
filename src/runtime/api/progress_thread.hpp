// A thread per context that advances the operation the application holds while the application
// computes, so that chunks this rank forwards for others do not wait for its next optiq call.
#pragma once

#include <atomic>
#include <thread>

struct optiq_context;

namespace optiq::rt {

class ProgressThread {
 public:
  explicit ProgressThread(optiq_context* ctx);
  ~ProgressThread();  // stops and joins
  ProgressThread(const ProgressThread&) = delete;
  ProgressThread& operator=(const ProgressThread&) = delete;

 private:
  void run();
  optiq_context* ctx_;
  std::atomic<bool> stop_{false};
  std::thread thread_;
};

// Throws Failure(OPTIQ_ERR_ARG) unless MPI runs with MPI_THREAD_MULTIPLE outside SMPI.
void check_progress_thread_allowed();

}  // namespace optiq::rt
