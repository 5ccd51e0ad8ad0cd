#include <cstdio>

#include "runtime/transport/transport.hpp"

namespace optiq::rt {

void fatal(const Comms& comms, const char* what) {
  std::fprintf(stderr, "optiq: rank %d: internal error: %s\n", comms.rank, what);
  std::fflush(stderr);
  MPI_Abort(comms.ctrl == MPI_COMM_NULL ? MPI_COMM_WORLD : comms.ctrl, 70);
  std::abort();
}

}  // namespace optiq::rt
