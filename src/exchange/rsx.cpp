// RSX, remote summation: every rank adds 1 to a counter in the memory of each rank it sends
// to (MPI_Accumulate between two MPI_Win_fence calls), then probes for that many messages
// from MPI_ANY_SOURCE. The counter window is made once per communicator. A rank with bad
// arguments counts and sends a notice to every other rank, as in PCX.
#include "exchange/protocols.hpp"

namespace optiq::sx {

void run_rsx(Call& call) {
  // Alone, a rank can only send to itself, which never goes through MPI: no window needed.
  if (call.state.size == 1) return;
  int* counter = rsx_counter(call.state);
  MPI_Win window = call.state.counter_window;
  static const int one = 1;
  // The previous call's epoch ended with NOSUCCEED, and nothing between reads the window.
  MPI_Win_fence(MPI_MODE_NOPRECEDE, window);
  for (int peer : send_targets(call)) MPI_Accumulate(&one, 1, MPI_INT, peer, 0, 1, MPI_INT, MPI_SUM, window);
  MPI_Win_fence(MPI_MODE_NOSUCCEED, window);
  const int count = *counter;
  *counter = 0;  // a local store: the next call's opening fence orders it before new sums
  std::vector<MPI_Request> sends = post_sends(call, false);
  receive_count(call, count);
  wait_all(sends);
}

}  // namespace optiq::sx
