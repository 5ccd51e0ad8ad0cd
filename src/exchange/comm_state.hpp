// Per-communicator state that isolates exchanges from the application and from each other.
//
// The first exchange on a communicator duplicates it three times and caches the copies on it
// as an attribute (freed with it). Payload messages alternate between two of the copies by
// call parity: in every protocol a rank can only be one call ahead of another (NBX's barrier,
// and the other protocols' collective steps, make a rank wait until every rank has reached
// the same call), so a rank still draining call e with MPI_ANY_SOURCE probes can never match a
// message of call e + 1. The third copy carries collectives, the RSX window and optiq's own
// barrier, whose matching never involves wildcards.
#pragma once

#include <mpi.h>

#include <cstdint>

namespace optiq::sx {

struct Registry;

// Tags on the payload communicators.
constexpr int kTagData = 1;    // a message of the exchange
constexpr int kTagNotice = 2;  // zero bytes: the sender's arguments were bad, the call fails
// Tags on the control communicator: one per dissemination barrier round.
constexpr int kTagBarrier = 100;

struct CommState {
  MPI_Comm payload[2] = {MPI_COMM_NULL, MPI_COMM_NULL};
  MPI_Comm control = MPI_COMM_NULL;
  int rank = 0, size = 1;
  std::uint64_t calls = 0;  // exchanges started on this communicator, the same on every rank
  MPI_Win counter_window = MPI_WIN_NULL;  // RSX's census, made by the first RSX call
  int* counter = nullptr;
  Registry* registry = nullptr;  // this rank's list of live states (comm_state.cpp)

  // The payload communicator of the call in progress (after begin_call).
  MPI_Comm payload_comm() const { return payload[calls & 1]; }
  void begin_call() { ++calls; }

  // Frees the window and the duplicates (collective); idempotent.
  void release();
  ~CommState();
};

// The state cached on comm, made on first use: collective then (every rank's first call).
CommState& state_for(MPI_Comm comm);

// RSX's one-int window on the control communicator, made on first use (collective then).
int* rsx_counter(CommState& state);

}  // namespace optiq::sx
