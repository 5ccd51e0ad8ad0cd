// Error types shared by every layer of the core.
#pragma once

#include <stdexcept>
#include <string>

namespace optiq {

// Bad input from a user: a malformed spec, a node outside the topology, a corrupt file.
// Front ends report the message and exit with status 2.
class Error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// A broken invariant inside optiq itself. The message carries file:line.
class InternalError : public std::logic_error {
 public:
  using std::logic_error::logic_error;
};

[[noreturn]] void fail_invariant(const char* expr, const char* file, int line, const std::string& what);

}  // namespace optiq

// Invariant checks stay on in release builds: a wrong plan is worse than a slow one.
#define OPTIQ_CHECK(cond, what)                                          \
  do {                                                                   \
    if (!(cond)) ::optiq::fail_invariant(#cond, __FILE__, __LINE__, (what)); \
  } while (0)
