// main() of a tool whose ranks parse the same arguments and fail alike.
#pragma once

#include <mpi.h>

#include <exception>

#include "tools/common/cli.hpp"

namespace optiq::tools {

// MPI_Init, then `body(rank, size)` (the exit status), any exception it throws through
// report_failure, then MPI_Finalize.
template <class Body>
int mpi_tool_main(int argc, char** argv, const char* name, Body body) {
  MPI_Init(&argc, &argv);
  int rank = 0, size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int code = 0;
  try {
    code = body(rank, size);
  } catch (const std::exception& e) {
    code = report_failure(name, rank, e);
  }
  MPI_Finalize();
  return code;
}

}  // namespace optiq::tools
