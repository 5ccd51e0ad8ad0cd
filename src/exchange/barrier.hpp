// Nonblocking barriers for NBX: start once, then test until every rank of the communicator
// has started. Two kinds: the MPI library's MPI_Ibarrier and optiq's own dissemination
// barrier (point-to-point only, so it is as correct as the library's Isend and Irecv).
#pragma once

#include <mpi.h>

#include <memory>

#include "optiq/exchange.h"

// SimGrid's SMPI mpi.h (smpi/smpi.h) defines SMPI_H. Its MPI_Ibarrier (3.32) completes as
// soon as rank 0 enters, so under SMPI the automatic choice is the dissemination barrier.
#if defined(SMPI_H)
#define OPTIQ_SX_SMPI 1
#else
#define OPTIQ_SX_SMPI 0
#endif

namespace optiq::sx {

class NonblockingBarrier {
 public:
  virtual ~NonblockingBarrier() = default;
  // Enters the barrier (returns at once). Call once.
  virtual void start() = 0;
  // True once every rank has entered; keeps returning true afterwards.
  virtual bool test() = 0;
};

// AUTO resolved for this build: DISSEMINATION under SMPI, IBARRIER otherwise.
optiq_sx_barrier resolve_barrier(optiq_sx_barrier kind);

// A barrier of the resolved kind over comm. The dissemination barrier uses tags kTagBarrier
// and up on comm; successive barriers on one communicator may overlap in time.
std::unique_ptr<NonblockingBarrier> make_barrier(optiq_sx_barrier kind, MPI_Comm comm);

}  // namespace optiq::sx
