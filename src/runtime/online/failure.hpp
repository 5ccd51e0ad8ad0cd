// A failure to report with a status code; collective steps raise it on every rank alike.
#pragma once

#include <new>
#include <stdexcept>
#include <string>

#include "optiq/core/error.hpp"
#include "optiq/optiq.h"

namespace optiq::rt {

class Failure : public std::runtime_error {
 public:
  Failure(int code, const std::string& message) : std::runtime_error(message), code_(code) {}
  int code() const { return code_; }

 private:
  int code_;
};

struct Verdict {
  int code = OPTIQ_SUCCESS;
  std::string message;
};

// Runs f and turns whatever it throws into a status and message. Nothing may leave a rank by
// exception: the C caller cannot catch it, and a rank that leaves a collective step early
// strands the peers waiting for it there.
template <class F>
Verdict verdict(F&& f) noexcept {
  try {
    f();
    return {};
  } catch (const Failure& e) {
    return {e.code(), e.what()};
  } catch (const Error& e) {
    return {OPTIQ_ERR_ARG, e.what()};
  } catch (const std::bad_alloc&) {
    return {OPTIQ_ERR_INTERNAL, "internal error: out of memory"};
  } catch (const std::exception& e) {
    return {OPTIQ_ERR_INTERNAL, std::string("internal error: ") + e.what()};
  } catch (...) {
    return {OPTIQ_ERR_INTERNAL, "internal error: an unknown exception"};
  }
}

}  // namespace optiq::rt
