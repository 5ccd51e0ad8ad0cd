#include "exchange/barrier.hpp"

namespace optiq::sx {

std::unique_ptr<NonblockingBarrier> make_mpi_ibarrier(MPI_Comm comm);
std::unique_ptr<NonblockingBarrier> make_dissemination_barrier(MPI_Comm comm);

optiq_sx_barrier resolve_barrier(optiq_sx_barrier kind) {
  if (kind != OPTIQ_SX_BARRIER_AUTO) return kind;
  return OPTIQ_SX_SMPI ? OPTIQ_SX_BARRIER_DISSEMINATION : OPTIQ_SX_BARRIER_IBARRIER;
}

std::unique_ptr<NonblockingBarrier> make_barrier(optiq_sx_barrier kind, MPI_Comm comm) {
  if (resolve_barrier(kind) == OPTIQ_SX_BARRIER_DISSEMINATION) return make_dissemination_barrier(comm);
  return make_mpi_ibarrier(comm);
}

}  // namespace optiq::sx
