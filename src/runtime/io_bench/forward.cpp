#include "forward.hpp"

#include <algorithm>
#include <memory>

#include "runtime/io/memory.hpp"

namespace optiq::iobench {

namespace {

constexpr int kTagData = 1;
constexpr int kTagDone = 2;
constexpr int kServerSlots = 64;

int start(void* state, int, int write, const optiq_io_span* spans, int count) {
  auto* f = static_cast<Forwarder*>(state);
  if (!write) return 1;  // the simulated I/O nodes keep nothing to read
  for (int i = 0; i < count; ++i) {
    f->pending.emplace_back();
    // A span lies in one buffer, below 2 GiB.
    MPI_Isend(spans[i].buffer, int(spans[i].bytes), MPI_BYTE, f->server, kTagData, f->comm, &f->pending.back());
  }
  return 0;
}

int wait(void* state) {
  auto* f = static_cast<Forwarder*>(state);
  const int rc = MPI_Waitall(int(f->pending.size()), f->pending.data(), MPI_STATUSES_IGNORE);
  f->pending.clear();
  return rc == MPI_SUCCESS ? 0 : 1;
}

}  // namespace

optiq_io_custom_sink forwarding_sink(Forwarder* f) { return {f, start, wait}; }

long long serve(MPI_Comm comm, int compute, long long largest) {
  // Many receives at once, as an I/O node's forwarding daemon serves many clients: with one,
  // the aggregators' large messages would cross the I/O links one after another. Each is posted
  // for a message already probed, so none is left to cancel at the end: a rank's done follows
  // its data (non-overtaking), and all data has been probed once every done has.
  const int slots = std::min(kServerSlots, compute);
  std::vector<std::unique_ptr<rt::io::Memory>> scratch;
  for (int i = 0; i < slots; ++i) scratch.push_back(std::make_unique<rt::io::Memory>(optiq::Bytes(largest)));
  std::vector<MPI_Request> requests(std::size_t(slots), MPI_REQUEST_NULL);
  long long received = 0;
  const auto settle = [&](int i, const MPI_Status& st) {
    int n = 0;
    MPI_Get_count(&st, MPI_BYTE, &n);
    received += n;
    requests[std::size_t(i)] = MPI_REQUEST_NULL;
  };
  int busy = 0;
  for (int done = 0; done < compute;) {
    MPI_Status probed;
    MPI_Probe(MPI_ANY_SOURCE, MPI_ANY_TAG, comm, &probed);
    if (probed.MPI_TAG == kTagDone) {
      MPI_Recv(nullptr, 0, MPI_BYTE, probed.MPI_SOURCE, kTagDone, comm, MPI_STATUS_IGNORE);
      ++done;
      continue;
    }
    if (busy == slots) {
      int i = 0;
      MPI_Status st;
      MPI_Waitany(slots, requests.data(), &i, &st);
      settle(i, st);
      --busy;
    }
    const int i = int(std::find(requests.begin(), requests.end(), MPI_REQUEST_NULL) - requests.begin());
    MPI_Irecv(scratch[std::size_t(i)]->get(), int(largest), MPI_BYTE, probed.MPI_SOURCE, kTagData, comm,
              &requests[std::size_t(i)]);
    ++busy;
  }
  for (int i = 0; i < slots; ++i)
    if (requests[std::size_t(i)] != MPI_REQUEST_NULL) {
      MPI_Status st;
      MPI_Wait(&requests[std::size_t(i)], &st);
      settle(i, st);
    }
  return received;
}

void finish(MPI_Comm comm, int compute, int servers) {
  // Non-overtaking: each server sees this rank's data messages before its done.
  for (int s = 0; s < servers; ++s) MPI_Send(nullptr, 0, MPI_BYTE, compute + s, kTagDone, comm);
}

}  // namespace optiq::iobench
