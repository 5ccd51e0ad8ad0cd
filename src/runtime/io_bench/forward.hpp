// Simulated I/O nodes for optiq-io-bench --io-ranks: one extra rank on each I/O node of the
// network receives what the aggregators of its pset write and drops it, as the seed's
// benchmark wrote to /dev/null on BG/Q's I/O nodes. The aggregators reach it through a custom
// sink (optiq_io_custom_sink), so each round's bytes cross the torus, the bridge and the I/O
// link in simulated time.
#pragma once

#include <mpi.h>

#include <vector>

#include "optiq/io.h"

namespace optiq::iobench {

struct Forwarder {
  MPI_Comm comm = MPI_COMM_NULL;  // the whole world: compute ranks, then I/O ranks
  int server = -1;                // the world rank on this rank's I/O node
  std::vector<MPI_Request> pending;
};

// The custom sink that sends a round's spans to f->server (writes only).
optiq_io_custom_sink forwarding_sink(Forwarder* f);

// An I/O rank's loop: receives and drops messages until every one of `compute` compute ranks
// has said it is done; returns the bytes received.
long long serve(MPI_Comm comm, int compute, long long largest);

// A compute rank's last word to every I/O rank (after its final write has completed).
void finish(MPI_Comm comm, int compute, int servers);

}  // namespace optiq::iobench
