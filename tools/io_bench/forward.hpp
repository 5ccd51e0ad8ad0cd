// Simulated I/O nodes for optiq-io-bench --io-ranks: one extra rank on each I/O node of the
// network receives what the aggregators of its pset write. With --disk it stores each message
// (under SMPI on its host's platform disk, of stated write bandwidth, so the bytes take the
// disk's time as well as the links'; elsewhere in a file with pwrite); without, it drops them,
// as the seed's benchmark wrote to /dev/null on BG/Q's I/O nodes. The aggregators reach it
// through a custom sink (optiq_io_custom_sink), so each round's bytes cross the torus, the
// bridge and the I/O link in simulated time.
#pragma once

#include <mpi.h>

#include <string>
#include <vector>

#include "optiq/io.h"

namespace optiq::iobench {

struct Forwarder {
  MPI_Comm comm = MPI_COMM_NULL;  // the whole world: compute ranks, then I/O ranks
  int server = -1;                // the world rank on this rank's I/O node
  std::vector<MPI_Request> pending;
  long long sent = 0;  // data messages sent to the server so far
};

// The custom sink that sends a round's spans to f->server (writes only).
optiq_io_custom_sink forwarding_sink(Forwarder* f);

// Returns once the server has stored every message this rank sent it, so that a timed write
// ends when its bytes are on the I/O node's disk, not when they have left the aggregator.
void sync(Forwarder& f);

// A compute rank's last word to every I/O rank (after its final write has completed).
void finish(Forwarder& f, int compute, int servers);

struct Served {
  long long received = 0;  // data bytes received
  long long stored = 0;    // of which written to the disk
};

// An I/O rank's loop, until every one of `compute` compute ranks has said it is done. Messages
// are at most `largest` bytes. `disk_file`: where to store them, or empty to drop them.
Served serve(MPI_Comm comm, int compute, long long largest, const std::string& disk_file);

}  // namespace optiq::iobench
