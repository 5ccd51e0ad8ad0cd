// The nonblocking barriers NBX ends with (src/exchange/barrier.hpp), both kinds:
// 1. No rank completes before the last one enters. The late rank enters only after every
//    other rank has entered and then tested in vain for a while (it waits for their word), so
//    a barrier that completes early is caught every time, not by luck of timing.
// 2. Many barriers back to back on one communicator, ranks skewed at random: consecutive
//    barriers overlap in time and must neither hang nor complete each other.
// 3. AUTO resolves to MPI_Ibarrier in a build against a real MPI library.
#include <sched.h>
#include <unistd.h>

#include <cstdio>

#include "exchange/barrier.hpp"
#include "sparse.hpp"

using namespace optiq::sx;

namespace {

constexpr int kGoTag = 7;

void late_rank(optiq_sx_barrier kind, int late, MPI_Comm comm, MPI_Comm side, mpitest::Checker& ck) {
  const int rank = mpitest::world_rank(), size = mpitest::world_size();
  auto barrier = make_barrier(kind, comm);
  if (rank != late) {
    barrier->start();
    const double until = MPI_Wtime() + 0.02;
    bool early = false;
    while (MPI_Wtime() < until && !early) {
      early = barrier->test();
      sched_yield();
    }
    ck.expect(!early, "%s barrier completed on rank %d before rank %d entered", optiq_sx_barrier_name(kind), rank,
              late);
    MPI_Send(nullptr, 0, MPI_BYTE, late, kGoTag, side);
  } else {
    for (int i = 0; i < size - 1; ++i) MPI_Recv(nullptr, 0, MPI_BYTE, MPI_ANY_SOURCE, kGoTag, side, MPI_STATUS_IGNORE);
    barrier->start();
  }
  while (!barrier->test()) sched_yield();
  ck.expect(barrier->test(), "test() must stay true once complete");
}

void back_to_back(optiq_sx_barrier kind, MPI_Comm comm, mpitest::Checker& ck) {
  const int rank = mpitest::world_rank();
  optiq::Rng rng(42 + static_cast<std::uint64_t>(rank));
  int completed = 0;
  for (int i = 0; i < 200; ++i) {
    if (rng.below(8) == 0) usleep(static_cast<useconds_t>(rng.below(500)));
    auto barrier = make_barrier(kind, comm);
    barrier->start();
    while (!barrier->test()) sched_yield();
    ++completed;
  }
  ck.expect(completed == 200, "%d of 200 %s barriers completed", completed, optiq_sx_barrier_name(kind));
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  mpitest::Checker ck;
  const int size = mpitest::world_size();
  MPI_Comm comm, side;
  MPI_Comm_dup(MPI_COMM_WORLD, &comm);
  MPI_Comm_dup(MPI_COMM_WORLD, &side);
  ck.expect(resolve_barrier(OPTIQ_SX_BARRIER_AUTO) == OPTIQ_SX_BARRIER_IBARRIER && !OPTIQ_SX_SMPI,
            "AUTO should be MPI_Ibarrier outside SMPI");
  ck.expect(resolve_barrier(OPTIQ_SX_BARRIER_DISSEMINATION) == OPTIQ_SX_BARRIER_DISSEMINATION, "explicit kinds stay");
  for (optiq_sx_barrier kind : {OPTIQ_SX_BARRIER_IBARRIER, OPTIQ_SX_BARRIER_DISSEMINATION}) {
    for (int late : {0, size - 1, size / 2}) late_rank(kind, late, comm, side, ck);
    back_to_back(kind, comm, ck);
  }
  MPI_Comm_free(&comm);
  MPI_Comm_free(&side);
  const int failures = ck.total();
  if (mpitest::world_rank() == 0)
    std::printf("%s: %d failures at %d ranks\n", failures ? "FAILED" : "passed", failures, size);
  MPI_Finalize();
  return failures ? 1 : 0;
}
