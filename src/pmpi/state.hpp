// Per-communicator optiq contexts and the counters behind OPTIQ_VERBOSE's summary.
#pragma once

#include <mpi.h>

#include <string>

#include "optiq/optiq.h"

namespace optiq::pmpi {

enum class Call { alltoallv = 0, ialltoallv = 1, alltoall = 2, ialltoall = 3 };
constexpr int kCalls = 4;
const char* call_name(Call call);

// The context optiq uses on comm, made on the first call there (collectively: every rank
// of comm makes the same call). nullptr: optiq cannot serve comm; *why then says why, the same
// on every rank. The context is destroyed with the communicator (attribute delete callback)
// or at MPI_Finalize.
optiq_t context_for(MPI_Comm comm, std::string* why);

// Counting is done by rank 0 of the call's communicator, so that the summary counts each
// collective call once.
void count_taken(MPI_Comm comm, Call call);
void count_passed(MPI_Comm comm, Call call, const std::string& why);

// At MPI_Finalize, before MPI shuts down: completes what is pending, destroys every context,
// and (with OPTIQ_VERBOSE=1) prints the summary on rank 0 of MPI_COMM_WORLD. Collective.
void finish();

}  // namespace optiq::pmpi
