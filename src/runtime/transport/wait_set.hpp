// Blocking until any of the requests of several owners completes, without losing the completion.
//
// An idle rank that keeps testing its requests costs a core on an oversubscribed node, and
// under SimGrid SMPI every test is an event of the simulation: idle polling by a thousand
// simulated ranks dominated the simulator's wall time. MPI_Waitany blocks instead, but it
// frees the request it completes; the owner would then test an empty handle and lose the
// status. So owners register their handles together with an Early record: the wait clears the
// owner's handle and leaves the status in the record, where the owner looks before testing.
#pragma once

#include <mpi.h>

#include <vector>

namespace optiq::rt {

struct Early {
  bool done = false;
  MPI_Status status{};
};

class WaitSet {
 public:
  void clear() {
    handles_.clear();
    early_.clear();
  }
  // `early` may be null when the owner needs no status (an empty handle tests as complete).
  void add(MPI_Request* handle, Early* early) {
    if (*handle == MPI_REQUEST_NULL) return;
    handles_.push_back(handle);
    early_.push_back(early);
  }
  // Blocks until one registered request completes; false when none was registered.
  bool wait() {
    if (handles_.empty()) return false;
    copies_.clear();
    for (MPI_Request* h : handles_) copies_.push_back(*h);
    int index = MPI_UNDEFINED;
    MPI_Status status;
    MPI_Waitany(static_cast<int>(copies_.size()), copies_.data(), &index, &status);
    if (index == MPI_UNDEFINED) return false;
    *handles_[index] = MPI_REQUEST_NULL;
    if (early_[index]) *early_[index] = {true, status};
    return true;
  }

 private:
  std::vector<MPI_Request*> handles_;
  std::vector<Early*> early_;
  std::vector<MPI_Request> copies_;
};

}  // namespace optiq::rt
