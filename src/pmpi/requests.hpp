// Nonblocking optiq operations behind MPI requests. An MPI_Ialltoallv taken by optiq returns a
// generalized request; optiq moves bytes whenever the application tests or waits on any
// request (the wrapped MPI_Wait*/MPI_Test* families), and completes the generalized request
// when its operation is done.
#pragma once

#include <mpi.h>

#include <vector>

#include "optiq/optiq.h"

namespace optiq::pmpi {

// Wraps a started operation on ctx in a new MPI request. arrays: counts and displacements the
// operation reads until it completes, kept alive with it (empty when the application owns them).
int adopt(optiq_t ctx, optiq_request_t operation, MPI_Request* request, std::vector<int> arrays = {});
// Makes progress on every pending operation; completes the requests of finished ones.
void progress_all();
bool any_pending();
// Completes every pending operation of ctx (all of them for ctx == nullptr), blocking.
void complete_all(optiq_t ctx);

}  // namespace optiq::pmpi
