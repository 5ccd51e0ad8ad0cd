#include "optiq/core/error.hpp"

namespace optiq {

void fail_invariant(const char* expr, const char* file, int line, const std::string& what) {
  throw InternalError(std::string(file) + ":" + std::to_string(line) + ": invariant '" + expr +
                      "' failed: " + what);
}

}  // namespace optiq
