// Command line of optiq-driver (the program `optiq run` launches under mpirun).
#pragma once

#include <cstdint>
#include <string>

namespace optiq::driver {

struct Args {
  std::string topology;
  int ranks_per_node = 1;
  std::string pattern = "alltoall";  // alltoall, shift, or a core pattern name
  std::string plan;                  // a plan file instead of a pattern and planner
  std::string bytes = "1MiB";
  int sources = -1, dests = -1, start_src = -1, start_dst = -1;
  std::uint64_t seed = 0;
  std::string planner = "mcf";
  std::string transport = "p2p";
  std::string queue = "forward-first";
  std::uint64_t chunk = 0;
  std::uint64_t budget = 16u << 20;
  std::uint64_t threshold = 16u << 10;
  int iterations = 5;
  int warmup = 1;
  int max_inflight = 0;  // 0: the library's default
  std::string dispatch = "paced";
  double min_gain = -1;  // < 0: the library's default
  bool agreement_baseline = false;  // also time MPI_Alltoallv after an allgather like optiq's
  std::string routing;               // the network's routing model; empty: the topology's own
  std::string only;                  // "optiq" or "mpi": time just that one; empty: both
  bool mpi_p2p = false;              // time MPI_Isend/MPI_Irecv of the non-empty messages instead of MPI_Alltoallv
  bool shared_buffers = false;       // SMPI only: one shared allocation for all ranks, bytes unchecked
  std::string background;            // flows of a second job on the ranks beyond --job-ranks (background.hpp)
  int job_ranks = 0;                 // ranks of the measured job; 0: all
  bool io_ranks = false;             // the job's last ranks run one on each I/O node, in vertex order
};

// Throws optiq::Error on a bad or missing argument; "--help" throws with the usage text.
Args parse_args(int argc, char** argv);
std::string usage();

}  // namespace optiq::driver
