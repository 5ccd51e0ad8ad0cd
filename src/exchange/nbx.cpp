// NBX, nonblocking consensus: synchronous sends, so a send completes only once its receiver
// has matched it; meanwhile receive whatever arrives (MPI_ANY_SOURCE). When all of this rank's
// sends are matched it enters a nonblocking barrier, and it keeps receiving until the barrier
// completes: then every rank has entered, so every send to this rank was matched, i.e.
// received here. No step costs more than the barrier's log2 P rounds.
#include <sched.h>

#include "exchange/barrier.hpp"
#include "exchange/protocols.hpp"

namespace optiq::sx {

void run_nbx(Call& call) {
  std::vector<MPI_Request> sends = post_sends(call, true);
  std::unique_ptr<NonblockingBarrier> barrier = make_barrier(call.barrier, call.state.control);
  bool entered = false;
  for (;;) {
    int flag = 0;
    MPI_Status status;
    MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, call.payload, &flag, &status);
    if (flag) {
      call.inbox.receive_probed(call.payload, status);
      continue;
    }
    if (!entered) {
      int done = 0;
      MPI_Testall(static_cast<int>(sends.size()), sends.data(), &done, MPI_STATUSES_IGNORE);
      if (done) {
        barrier->start();
        entered = true;
        continue;
      }
    } else if (barrier->test()) {
      return;
    }
    // Nothing to do yet. With more ranks than cores, spinning would starve the rank we wait for.
    sched_yield();
  }
}

}  // namespace optiq::sx
