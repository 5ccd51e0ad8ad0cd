#include "runtime/api/ended_everywhere.hpp"

namespace optiq::rt {

namespace {

constexpr int kTagEnded = 1;  // each rank's "my part ended" to rank 0, and rank 0's answer

}  // namespace

EndedEverywhere::EndedEverywhere(MPI_Comm comm) : comm_(comm) {
  MPI_Comm_rank(comm, &rank_);
  MPI_Comm_size(comm, &size_);
  if (size_ == 1) {
    ended_ = true;
    return;
  }
  if (rank_ == 0) {
    open_.resize(size_ - 1, MPI_REQUEST_NULL);
    for (int r = 1; r < size_; ++r) MPI_Irecv(nullptr, 0, MPI_BYTE, r, kTagEnded, comm_, &open_[r - 1]);
  } else {
    open_.resize(2, MPI_REQUEST_NULL);
    MPI_Isend(nullptr, 0, MPI_BYTE, 0, kTagEnded, comm_, &open_[0]);
    MPI_Irecv(nullptr, 0, MPI_BYTE, 0, kTagEnded, comm_, &open_[1]);
  }
}

EndedEverywhere::~EndedEverywhere() {
  while (!ended_) {
    MPI_Waitall(static_cast<int>(open_.size()), open_.data(), MPI_STATUSES_IGNORE);
    test();
  }
  if (!open_.empty()) MPI_Waitall(static_cast<int>(open_.size()), open_.data(), MPI_STATUSES_IGNORE);
}

bool EndedEverywhere::test() {
  if (open_.empty()) return ended_;
  int all = 0;
  MPI_Testall(static_cast<int>(open_.size()), open_.data(), &all, MPI_STATUSES_IGNORE);
  if (!all) return ended_;
  open_.clear();
  if (!ended_ && rank_ == 0) answer();  // heard from everyone
  ended_ = true;
  return true;
}

void EndedEverywhere::answer() {
  open_.assign(size_ - 1, MPI_REQUEST_NULL);
  for (int r = 1; r < size_; ++r) MPI_Isend(nullptr, 0, MPI_BYTE, r, kTagEnded, comm_, &open_[r - 1]);
}

}  // namespace optiq::rt
