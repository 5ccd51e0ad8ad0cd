// A message buffer: private memory, or under SMPI optionally one allocation shared by all
// simulated ranks, so that large simulated patterns fit in memory (the bytes are then garbage
// and go unchecked).
#pragma once

#include <mpi.h>

#include <algorithm>
#include <cstdint>
#include <vector>

namespace optiq::driver {

class Buffer {
 public:
  Buffer(std::uint64_t bytes, bool shared) : shared_(shared) {
    bytes = std::max<std::uint64_t>(1, bytes);
#ifdef OPTIQ_SMPI
    if (shared_) {
      data_ = static_cast<unsigned char*>(SMPI_SHARED_MALLOC(bytes));
      return;
    }
#endif
    own_.resize(bytes);
    data_ = own_.data();
  }
  ~Buffer() {
#ifdef OPTIQ_SMPI
    if (shared_) SMPI_SHARED_FREE(data_);
#endif
  }
  Buffer(const Buffer&) = delete;
  Buffer& operator=(const Buffer&) = delete;
  unsigned char* data() { return data_; }

 private:
  bool shared_;
  std::vector<unsigned char> own_;
  unsigned char* data_ = nullptr;
};

}  // namespace optiq::driver
