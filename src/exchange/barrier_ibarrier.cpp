// The MPI library's own nonblocking barrier.
#include "exchange/barrier.hpp"

namespace optiq::sx {

namespace {

class MpiIbarrier final : public NonblockingBarrier {
 public:
  explicit MpiIbarrier(MPI_Comm comm) : comm_(comm) {}
  ~MpiIbarrier() override {
    if (request_ != MPI_REQUEST_NULL) MPI_Wait(&request_, MPI_STATUS_IGNORE);
  }
  void start() override { MPI_Ibarrier(comm_, &request_); }
  bool test() override {
    if (done_) return true;
    int flag = 0;
    MPI_Test(&request_, &flag, MPI_STATUS_IGNORE);
    done_ = flag != 0;
    return done_;
  }

 private:
  MPI_Comm comm_;
  MPI_Request request_ = MPI_REQUEST_NULL;
  bool done_ = false;
};

}  // namespace

std::unique_ptr<NonblockingBarrier> make_mpi_ibarrier(MPI_Comm comm) { return std::make_unique<MpiIbarrier>(comm); }

}  // namespace optiq::sx
