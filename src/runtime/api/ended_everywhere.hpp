// Learns, without blocking, when every rank of a communicator has ended its part of one
// operation: each rank tells rank 0, which answers every rank once it has heard from all.
//
// Not MPI_Ibarrier: SimGrid SMPI's (3.3x) posts rank 0's answers at once, so it completes as
// soon as rank 0 enters, and the answers' receives take any source, so two barriers in a row
// can take each other's messages and never complete. Point-to-point messages with fixed sources
// keep the order MPI promises between two ranks, so notices of consecutive operations on one
// communicator never mix.
#pragma once

#include <mpi.h>

#include <vector>

namespace optiq::rt {

class EndedEverywhere {
 public:
  // This rank's part has ended. `comm` carries nothing but these notices.
  explicit EndedEverywhere(MPI_Comm comm);
  EndedEverywhere(const EndedEverywhere&) = delete;
  EndedEverywhere& operator=(const EndedEverywhere&) = delete;
  ~EndedEverywhere();  // completes what is still open (blocking: every rank takes part)

  // Advances; true once every rank has ended its part.
  bool test();
  bool ended() const { return ended_; }
  // Every message of this rank's sent and received (what is left when it ended: rank 0's answers).
  bool finished() const { return ended_ && open_.empty(); }

 private:
  void answer();

  MPI_Comm comm_;
  int rank_ = 0, size_ = 1;
  bool ended_ = false;
  std::vector<MPI_Request> open_;
};

}  // namespace optiq::rt
