// PEX, personalized exchange: every rank tells every rank how many bytes it will send it
// (MPI_Alltoall of one int per pair, Theta(P) per rank), then receives from exactly those
// ranks. A rank with bad arguments sends kRefused to all instead, so every rank learns of it
// from the same step and no payload moves at all.
#include <algorithm>

#include "exchange/protocols.hpp"

namespace optiq::sx {

namespace {
constexpr int kNothing = -1;  // no message for this pair
constexpr int kRefused = -2;  // the sender's arguments were bad
}  // namespace

void run_pex(Call& call) {
  const int size = call.state.size, rank = call.state.rank;
  std::vector<int> out(size, call.out.bad() ? kRefused : kNothing), in(size);
  out[rank] = kNothing;  // the self message is copied by the caller
  for (const Message& m : call.out.remote) out[m.peer] = m.bytes;
  MPI_Alltoall(out.data(), 1, MPI_INT, in.data(), 1, MPI_INT, call.state.control);

  for (int s = 0; s < size; ++s)
    if (in[s] == kRefused) call.inbox.note_failure(s);
  if (call.out.bad() || call.inbox.any_failed()) return;

  std::vector<MPI_Request> requests;
  for (int s = 0; s < size; ++s)
    if (in[s] >= 0) {
      requests.push_back(MPI_REQUEST_NULL);
      MPI_Irecv(call.inbox.expect(s, in[s]), in[s], MPI_BYTE, s, kTagData, call.payload, &requests.back());
    }
  std::vector<MPI_Request> sends = post_sends(call, false);
  requests.insert(requests.end(), sends.begin(), sends.end());
  wait_all(requests);
}

}  // namespace optiq::sx
