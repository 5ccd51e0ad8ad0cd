// Command line of optiq-driver (the program `optiq run` and `optiq simulate` launch).
#pragma once

#include <cstdint>
#include <string>

#include "tools/common/record_options.hpp"

namespace optiq::driver {

struct Args {
  std::string topology;
  std::string pattern = "alltoall";  // alltoall, shift, or a core pattern name
  std::string plan;                  // a plan file instead of a pattern and planner
  std::string requests;              // "src dst bytes" lines between ranks instead of a pattern
  std::string bytes = "1MiB";
  int sources = -1, dests = -1, start_src = -1, start_dst = -1;
  std::uint64_t seed = 0;
  tools::RecordValues runtime;       // the runtime's options as given (--planner, --chunk, ...)
  int iterations = 5;
  int warmup = 1;
  bool agreement_baseline = false;   // also time MPI_Alltoallv after an allgather like optiq's
  std::string only;                  // "optiq" or "mpi": time just that one; empty: both
  bool mpi_p2p = false;              // time MPI_Isend/MPI_Irecv of the non-empty messages instead of MPI_Alltoallv
  bool shared_buffers = false;       // SMPI only: one shared allocation for all ranks, bytes unchecked
  std::string background;            // flows of a second job on the ranks beyond --job-ranks (background.hpp)
  int job_ranks = 0;                 // ranks of the measured job; 0: all
  bool io_ranks = false;             // the job's last ranks run one on each I/O node, in vertex order
  double compute = 0;                // seconds of computation each call overlaps (0: blocking calls)
  bool progress_calls = false;       // during it, optiq_progress (MPI_Test for MPI) after every slice
};

// Throws optiq::Error on a bad or missing argument; "--help" throws with the usage text.
Args parse_args(int argc, char** argv);

}  // namespace optiq::driver
