// The driver's JSON document: settings, per-call times, checks and the runtime's counters,
// summed (or maximised) over the job's ranks. Collective; rank 0 prints.
#pragma once

#include <mpi.h>

#include "optiq/optiq.h"
#include "tools/driver/measure.hpp"

namespace optiq::driver {

// Returns 0 when every byte was right, 1 otherwise (on every rank).
int report(const Args& args, const optiq_options& options, const Workload& w, const Timings& t, optiq_t ctx, int rank,
           int size, MPI_Comm job_comm);

}  // namespace optiq::driver
