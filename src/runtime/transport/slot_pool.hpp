// Forwarding slot memory of one rank: grows to the largest need, never past the budget.
//
// Under SimGrid SMPI with OPTIQ_SMPI_SHARED_SLOTS=1 in the environment the memory is one
// SMPI_SHARED_MALLOC allocation shared by all simulated ranks (contents are then garbage), so
// that 1024 simulated ranks do not need 1024 real budgets; `optiq simulate --no-verify` sets it.
#pragma once

#include <mpi.h>

#include <cstdlib>
#include <cstring>
#include <vector>

#include "optiq/core/types.hpp"

namespace optiq::rt {

class SlotPool {
 public:
  SlotPool() {
#ifdef OPTIQ_SMPI
    const char* shared = std::getenv("OPTIQ_SMPI_SHARED_SLOTS");
    shared_ = shared != nullptr && std::strcmp(shared, "1") == 0;
#endif
  }
  ~SlotPool() { release(); }
  SlotPool(const SlotPool&) = delete;
  SlotPool& operator=(const SlotPool&) = delete;

  // Makes at least `bytes` available; earlier contents need not survive (slots are empty
  // between operations).
  void reserve(Bytes bytes) {
    if (bytes <= size_) return;
#ifdef OPTIQ_SMPI
    if (shared_) {
      release();
      data_ = static_cast<char*>(SMPI_SHARED_MALLOC(bytes));
      size_ = bytes;
      return;
    }
#endif
    own_.resize(bytes);
    data_ = own_.data();
    size_ = bytes;
  }
  char* data() const { return data_; }
  Bytes size() const { return size_; }

 private:
  void release() {
#ifdef OPTIQ_SMPI
    if (shared_ && data_ != nullptr) SMPI_SHARED_FREE(data_);
#endif
    data_ = nullptr;
    size_ = 0;
  }

  bool shared_ = false;
  std::vector<char> own_;
  char* data_ = nullptr;
  Bytes size_ = 0;
};

}  // namespace optiq::rt
