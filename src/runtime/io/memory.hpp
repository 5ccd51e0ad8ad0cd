// The I/O library's large buffers: a rank's staging buffer and an aggregator's window.
//
// Under SimGrid SMPI with OPTIQ_SMPI_SHARED_IO=1 in the environment they are SMPI_SHARED_MALLOC
// allocations shared by all simulated ranks (contents are then garbage), so that a thousand
// simulated ranks do not need a thousand real copies; bench/io's simulations, which check the
// bytes that reach the I/O nodes by count only, set it.
#pragma once

#include <mpi.h>

#include <cstdlib>
#include <cstring>
#include <memory>

#include "optiq/core/types.hpp"

namespace optiq::rt::io {

class Memory {
 public:
  explicit Memory(Bytes bytes) {
#ifdef OPTIQ_SMPI
    const char* shared = std::getenv("OPTIQ_SMPI_SHARED_IO");
    if (shared != nullptr && std::strcmp(shared, "1") == 0) {
      shared_ = static_cast<char*>(SMPI_SHARED_MALLOC(bytes + 1));
      return;
    }
#endif
    own_.reset(new char[bytes + 1]);  // uninitialised: every byte used is written first
  }
  ~Memory() {
#ifdef OPTIQ_SMPI
    if (shared_) SMPI_SHARED_FREE(shared_);
#endif
  }
  Memory(const Memory&) = delete;
  Memory& operator=(const Memory&) = delete;
  char* get() const { return shared_ ? shared_ : own_.get(); }

 private:
  std::unique_ptr<char[]> own_;
  char* shared_ = nullptr;
};

}  // namespace optiq::rt::io
