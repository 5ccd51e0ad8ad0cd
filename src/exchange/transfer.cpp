#include "exchange/protocols.hpp"

namespace optiq::sx {

std::vector<int> send_targets(const Call& call) {
  std::vector<int> targets;
  if (call.out.bad()) {
    for (int p = 0; p < call.state.size; ++p)
      if (p != call.state.rank) targets.push_back(p);
  } else {
    for (const Message& m : call.out.remote) targets.push_back(m.peer);
  }
  return targets;
}

std::vector<MPI_Request> post_sends(const Call& call, bool synchronous) {
  std::vector<MPI_Request> requests;
  auto send = [&](const void* data, int bytes, int peer, int tag) {
    requests.push_back(MPI_REQUEST_NULL);
    if (synchronous)
      MPI_Issend(data, bytes, MPI_BYTE, peer, tag, call.payload, &requests.back());
    else
      MPI_Isend(data, bytes, MPI_BYTE, peer, tag, call.payload, &requests.back());
  };
  if (call.out.bad()) {
    for (int peer : send_targets(call)) send(nullptr, 0, peer, kTagNotice);
  } else {
    requests.reserve(call.out.remote.size());
    for (const Message& m : call.out.remote) send(m.data, m.bytes, m.peer, kTagData);
  }
  return requests;
}

void receive_count(Call& call, int count) {
  for (int i = 0; i < count; ++i) {
    MPI_Status status;
    MPI_Probe(MPI_ANY_SOURCE, MPI_ANY_TAG, call.payload, &status);
    call.inbox.receive_probed(call.payload, status);
  }
}

void wait_all(std::vector<MPI_Request>& requests) {
  if (!requests.empty())
    MPI_Waitall(static_cast<int>(requests.size()), requests.data(), MPI_STATUSES_IGNORE);
}

}  // namespace optiq::sx
