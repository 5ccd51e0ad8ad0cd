// A failure to report with a status code; collective steps raise it on every rank alike.
#pragma once

#include <stdexcept>
#include <string>

namespace optiq::rt {

class Failure : public std::runtime_error {
 public:
  Failure(int code, const std::string& message) : std::runtime_error(message), code_(code) {}
  int code() const { return code_; }

 private:
  int code_;
};

}  // namespace optiq::rt
