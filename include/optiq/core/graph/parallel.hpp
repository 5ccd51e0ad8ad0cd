// The core's one way to spread independent work items over threads.
#pragma once

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <cstdlib>
#include <exception>
#include <mutex>
#include <string>
#include <system_error>
#include <thread>
#include <vector>

#include "optiq/core/error.hpp"

namespace optiq::graph {

// Threads one parallel_for runs on, the caller's included: at most this many by default ...
constexpr unsigned kDefaultMaxThreads = 4;
// ... and at most this many when asked for more.
constexpr unsigned kMaxThreads = 256;

// $OPTIQ_THREADS when set (1: everything on the calling thread; results do not depend on it),
// else the machine's cores up to kDefaultMaxThreads. Read on every call, so a process may
// change it between runs. Anything but a whole number in [1, kMaxThreads] is an Error.
inline unsigned thread_limit() {
  const char* text = std::getenv("OPTIQ_THREADS");
  if (text == nullptr || *text == '\0')
    return std::min(kDefaultMaxThreads, std::max(1u, std::thread::hardware_concurrency()));
  char* end = nullptr;
  const long value = std::strtol(text, &end, 10);
  if (*end != '\0' || value < 1 || value > static_cast<long>(kMaxThreads))
    throw Error("OPTIQ_THREADS: expected a whole number from 1 to " + std::to_string(kMaxThreads) + ", got '" +
                std::string(text) + "'");
  return static_cast<unsigned>(value);
}

// Runs body(state, i) for every i in [0, count) on the calling thread and up to
// thread_limit() - 1 more (none when count < serial_below). Each thread makes its state once
// with make_state(caller), where caller tells the calling thread apart (say, the one that
// reports progress). Items are taken in order from a shared counter, so results written by
// index do not depend on the number of threads or their timing. The first exception thrown by any thread stops the
// remaining items and is rethrown here after every thread has finished.
template <class MakeState, class Body>
void parallel_for(std::size_t count, std::size_t serial_below, MakeState make_state, Body body) {
  std::atomic<std::size_t> next{0};
  std::exception_ptr failure;
  std::mutex failure_lock;
  auto work = [&](bool caller) {
    try {
      auto state = make_state(caller);
      for (std::size_t i; (i = next.fetch_add(1)) < count;) body(state, i);
    } catch (...) {
      std::lock_guard<std::mutex> hold(failure_lock);
      if (!failure) failure = std::current_exception();
      next = count;
    }
  };
  const unsigned helpers =
      count < serial_below ? 0 : static_cast<unsigned>(std::min<std::size_t>(thread_limit(), count) - 1);
  std::vector<std::thread> threads;
  for (unsigned t = 0; t < helpers; ++t) {
    try {
      threads.emplace_back(work, false);
    } catch (const std::system_error&) {
      break;  // no thread to spare: the ones running (at least this one) do all the items
    }
  }
  work(true);
  for (auto& t : threads) t.join();
  if (failure) std::rethrow_exception(failure);
}

}  // namespace optiq::graph
