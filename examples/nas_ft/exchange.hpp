// The four ways a transpose moves its data within a team of the process grid.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include <mpi.h>

#include "optiq/optiq.h"
#include "random_field.hpp"

namespace ft {

// One all-to-all over a team, slab by slab. A slab's send and receive regions hold one block
// per peer, back to back (peer q's `count` elements at q * count), so every call of a
// transpose has the same pattern and optiq plans it once.
class Exchange {
 public:
  virtual ~Exchange() = default;
  // Whether the transpose may cut its exchange into slabs and compute while one is in flight.
  virtual bool overlaps() const = 0;
  virtual void start(const cplx* send, cplx* recv, int count) = 0;
  // Called between work items while a slab is in flight: a nonblocking exchange moves only
  // while the application is inside the library (unless optiq runs its own progress thread;
  // Open MPI over shared memory has none), so the transforms test it as they go.
  virtual void progress() {}
  virtual void finish() {}
};

enum class Variant { alltoall, ialltoallv, optiq, optiq_overlap };

const char* variant_name(Variant v);
const char* variant_call(Variant v);  // the call that moves the bytes, for the report
// The blocking variant moving the same bytes (itself for the blocking ones).
Variant blocking_counterpart(Variant v);

// An optiq context per team, created collectively on the team's communicator. Each one is told
// where its members run (their nodes as a context on MPI_COMM_WORLD places them): by default a
// sub-communicator's ranks would be placed by their rank in the team, as if the team were the
// whole job, and its plans would route between the wrong nodes.
struct OptiqTeams {
  optiq_t row = nullptr;
  optiq_t column = nullptr;
  ~OptiqTeams();
};

// This rank's counters of both team contexts, summed: what optiq did during a run.
struct OptiqCounters {
  double operations = 0, plans_made = 0, injected_bytes = 0, forwarded_bytes = 0;
};
OptiqCounters optiq_counters(const OptiqTeams& teams);

// Returns OPTIQ_SUCCESS or the failing status, with its message in *error (the same on every
// rank: optiq's errors are collective).
int create_optiq_teams(MPI_Comm row, MPI_Comm column, const char* topology, const optiq_options& options,
                       OptiqTeams& teams, std::string* error);

// The exchange of `variant` on a team: its communicator, and its optiq context for the optiq
// variants. Both optiq variants may share a context, since only one operation is ever in flight
// on it: a transpose completes its last slab before the next transpose starts.
std::unique_ptr<Exchange> make_exchange(Variant variant, MPI_Comm team, optiq_t context);

}  // namespace ft
