// PCX, personalized census: one MPI_Reduce_scatter_block sums, for every rank, how many
// messages are coming to it (each rank contributes a vector of P ints, Theta(P)); then it
// probes for exactly that many from MPI_ANY_SOURCE. A rank with bad arguments counts one
// notice for every other rank and sends them, so every rank learns of it.
#include "exchange/protocols.hpp"

namespace optiq::sx {

void run_pcx(Call& call) {
  std::vector<int> contribution(call.state.size, 0);
  for (int peer : send_targets(call)) contribution[peer] = 1;
  int count = 0;
  MPI_Reduce_scatter_block(contribution.data(), &count, 1, MPI_INT, MPI_SUM, call.state.control);
  std::vector<MPI_Request> sends = post_sends(call, false);
  receive_count(call, count);
  wait_all(sends);
}

}  // namespace optiq::sx
