// Gathers and scatters of any total size over MPI's int counts: one MPI_Gatherv or
// MPI_Scatterv per round of rounds.hpp (a single one unless the total passes 2^31 - 1).
#pragma once

#include <mpi.h>

#include <cstdint>
#include <string>
#include <vector>

#include "runtime/online/rounds.hpp"

namespace optiq::rt {

// Collective over comm: rank 0 receives every rank's `counts[rank]` elements of `type`, in
// rank order, into `all` (room for the total; ignored elsewhere). Every rank passes the same
// counts.
void gather_in_rounds(const void* mine, const std::vector<std::int64_t>& counts, MPI_Datatype type, void* all,
                      MPI_Comm comm, std::int64_t limit = kRoundLimit);

// Collective over comm: rank 0 holds every rank's bytes back to back in `packed`, sizes[r] of
// them for rank r (other ranks pass empty vectors); every rank returns its own.
std::string scatter_in_rounds(const std::string& packed, const std::vector<std::int64_t>& sizes, MPI_Comm comm,
                              std::int64_t limit = kRoundLimit);

}  // namespace optiq::rt
