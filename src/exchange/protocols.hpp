// The four protocols. Each moves one call's messages: on return the inbox holds every message
// sent to this rank (or, if some rank's arguments were bad, the notices that say so), except
// the rank's message to itself, which the caller copies. All use the call's payload
// communicator for messages and the control communicator for collective steps.
#pragma once

#include <mpi.h>

#include <vector>

#include "exchange/comm_state.hpp"
#include "exchange/inbox.hpp"
#include "exchange/outgoing.hpp"
#include "optiq/exchange.h"

namespace optiq::sx {

struct Call {
  CommState& state;
  MPI_Comm payload;          // this call's payload communicator
  const Outgoing& out;
  Inbox& inbox;
  optiq_sx_barrier barrier;  // resolved (never AUTO); used by NBX
};

void run_pex(Call& call);
void run_pcx(Call& call);
void run_rsx(Call& call);
void run_nbx(Call& call);

// Shared steps (transfer.cpp).
// Starts this rank's sends, or, if its arguments were bad, a zero-byte notice to every other
// rank. Synchronous sends (MPI_Issend) complete only once matched, which NBX relies on.
std::vector<MPI_Request> post_sends(const Call& call, bool synchronous);
// The ranks post_sends sends to (one per send), for protocols that count messages first.
std::vector<int> send_targets(const Call& call);
// Receives exactly `count` messages or notices from any source on the payload communicator.
void receive_count(Call& call, int count);
void wait_all(std::vector<MPI_Request>& requests);

// AUTO (auto.cpp): a protocol from the communicator size and the most messages any rank sends
// (-1: unknown). Deterministic, so every rank resolves the same protocol.
optiq_sx_protocol choose_protocol(int size, int max_neighbors);

}  // namespace optiq::sx
