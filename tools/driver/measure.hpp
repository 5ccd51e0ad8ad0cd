// The timed calls: MPI_Alltoallv, optiq and, on request, MPI_Alltoallv after an allgather the
// size of optiq's agreement step, alternating, every delivered byte checked.
#pragma once

#include <mpi.h>

#include <string>
#include <vector>

#include "optiq/optiq.h"
#include "tools/driver/args.hpp"
#include "tools/driver/workload.hpp"

namespace optiq::driver {

// What optiq moves: the context, and a loaded plan with its displacements (or none: the
// workload's alltoallv).
struct OptiqCall {
  optiq_t ctx = nullptr;
  optiq_plan_t plan = nullptr;
  std::vector<MPI_Aint> sdispls, rdispls;
};

enum Variant { kMpi = 0, kOptiq = 1, kMpiAgreed = 2 };

struct Timings {
  std::vector<double> seconds[3];  // per variant, the timed calls (each the slowest rank's)
  int wrong[3] = {0, 0, 0};        // this rank's messages with a wrong byte, per variant
  double first_optiq = 0;          // the first optiq call (it plans)
  std::string error;               // optiq's message when a call failed (on every rank)
};

Timings measure(const Args& args, const Workload& w, OptiqCall& optiq, int rank, int size, MPI_Comm job_comm);

}  // namespace optiq::driver
