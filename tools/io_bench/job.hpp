// One benchmark job: optiq's collective write and MPI_File_write_at_all of the same pieces,
// alternately timed, then both files compared and optiq's read back.
#pragma once

#include <mpi.h>

#include <vector>

#include "tools/io_bench/args.hpp"
#include "tools/io_bench/forward.hpp"

namespace optiq::iobench {

// What one job measured.
struct Measured {
  std::vector<double> optiq, mpiio;
  double read_seconds = 0;
  int identical = 1;
  long long total = 0;
  int aggregators = 0, rounds = 0, groups = 0;
};

// The benchmark on the ranks of `job`. fwd: the simulated I/O nodes' sink, or null for files.
Measured run_job(const Args& a, MPI_Comm job, Forwarder* fwd);

}  // namespace optiq::iobench
