// optiq's dissemination barrier. In round r (r = 0 .. ceil(log2 P) - 1) rank i sends a
// zero-byte message to rank i + 2^r and waits for one from rank i - 2^r (mod P), and it sends
// round r + 1's message only after round r's arrived. After the last round every rank has
// heard, directly or through others, from every rank, so none can finish before all entered.
//
// Each round has its own tag, and all receives are posted at start. Barriers on the same
// communicator may overlap (a fast rank enters the next one while a slow one still tests
// this one): the two messages a rank sends to one partner in one round of consecutive
// barriers travel between the same pair with the same tag, so MPI's non-overtaking rule
// matches them to the receives in barrier order.
#include <vector>

#include "exchange/barrier.hpp"
#include "exchange/comm_state.hpp"

namespace optiq::sx {

namespace {

class DisseminationBarrier final : public NonblockingBarrier {
 public:
  explicit DisseminationBarrier(MPI_Comm comm) : comm_(comm) {
    MPI_Comm_rank(comm, &rank_);
    MPI_Comm_size(comm, &size_);
    while ((1L << rounds_) < size_) ++rounds_;
  }
  ~DisseminationBarrier() override {
    // Only reached early if the caller gave up; completing keeps MPI's request table clean.
    if (!recvs_.empty()) MPI_Waitall(static_cast<int>(recvs_.size()), recvs_.data(), MPI_STATUSES_IGNORE);
    if (!sends_.empty()) MPI_Waitall(static_cast<int>(sends_.size()), sends_.data(), MPI_STATUSES_IGNORE);
  }

  void start() override {
    recvs_.assign(rounds_, MPI_REQUEST_NULL);
    sends_.assign(rounds_, MPI_REQUEST_NULL);
    for (int r = 0; r < rounds_; ++r)
      MPI_Irecv(nullptr, 0, MPI_BYTE, partner(-(1L << r)), kTagBarrier + r, comm_, &recvs_[r]);
    if (rounds_ > 0) send(0);
  }

  bool test() override {
    while (round_ < rounds_) {
      int flag = 0;
      MPI_Test(&recvs_[round_], &flag, MPI_STATUS_IGNORE);
      if (!flag) return false;
      if (++round_ < rounds_) send(round_);
    }
    if (!sends_done_) {
      int flag = 0;
      MPI_Testall(rounds_, sends_.data(), &flag, MPI_STATUSES_IGNORE);
      sends_done_ = flag != 0;
    }
    return sends_done_;
  }

 private:
  int partner(long offset) const { return static_cast<int>(((rank_ + offset) % size_ + size_) % size_); }
  void send(int r) { MPI_Isend(nullptr, 0, MPI_BYTE, partner(1L << r), kTagBarrier + r, comm_, &sends_[r]); }

  MPI_Comm comm_;
  int rank_ = 0, size_ = 1, rounds_ = 0, round_ = 0;
  bool sends_done_ = false;
  std::vector<MPI_Request> recvs_, sends_;
};

}  // namespace

std::unique_ptr<NonblockingBarrier> make_dissemination_barrier(MPI_Comm comm) {
  return std::make_unique<DisseminationBarrier>(comm);
}

}  // namespace optiq::sx
