// The nonblocking barriers NBX ends with (src/exchange/barrier.hpp), both kinds:
// 1. No rank completes before the last one enters. The late rank enters only after every
//    other rank has entered and then tested in vain for a while (it waits for their word), so
//    a barrier that completes early is caught every time, not by luck of timing.
// 2. Many barriers back to back on one communicator, ranks skewed at random: consecutive
//    barriers overlap in time and must neither hang nor complete each other.
// 3. AUTO resolves to MPI_Ibarrier in a build against a real MPI library, and to the
//    dissemination barrier under SimGrid SMPI. There MPI_Ibarrier goes through check 1 only
//    as a report: SMPI 3.32's completes before the late rank enters.
#include <sched.h>
#include <unistd.h>

#include <cstdio>

#include "exchange/barrier.hpp"
#include "sparse.hpp"

using namespace optiq::sx;

namespace {

constexpr int kGoTag = 7;

// True on a rank whose barrier completed before the late rank entered.
bool completed_early(optiq_sx_barrier kind, int late, MPI_Comm comm, MPI_Comm side) {
  const int rank = mpitest::world_rank(), size = mpitest::world_size();
  auto barrier = make_barrier(kind, comm);
  bool early = false;
  if (rank != late) {
    barrier->start();
    // Long on a loaded machine; in simulated time (SMPI) a millisecond is hundreds of latencies.
    const double until = MPI_Wtime() + (OPTIQ_SX_SMPI ? 0.001 : 0.02);
    while (MPI_Wtime() < until && !early) {
      early = barrier->test();
      sched_yield();
    }
    MPI_Send(nullptr, 0, MPI_BYTE, late, kGoTag, side);
  } else {
    for (int i = 0; i < size - 1; ++i) MPI_Recv(nullptr, 0, MPI_BYTE, MPI_ANY_SOURCE, kGoTag, side, MPI_STATUS_IGNORE);
    barrier->start();
  }
  while (!barrier->test()) sched_yield();
  return early;
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
  const optiq_sx_barrier automatic = OPTIQ_SX_SMPI ? OPTIQ_SX_BARRIER_DISSEMINATION : OPTIQ_SX_BARRIER_IBARRIER;
  ck.expect(resolve_barrier(OPTIQ_SX_BARRIER_AUTO) == automatic, "AUTO resolved to %s",
            optiq_sx_barrier_name(resolve_barrier(OPTIQ_SX_BARRIER_AUTO)));
  ck.expect(resolve_barrier(OPTIQ_SX_BARRIER_DISSEMINATION) == OPTIQ_SX_BARRIER_DISSEMINATION &&
                resolve_barrier(OPTIQ_SX_BARRIER_IBARRIER) == OPTIQ_SX_BARRIER_IBARRIER,
            "explicit kinds stay");
  for (optiq_sx_barrier kind : {OPTIQ_SX_BARRIER_IBARRIER, OPTIQ_SX_BARRIER_DISSEMINATION}) {
    const bool checked = !(OPTIQ_SX_SMPI && kind == OPTIQ_SX_BARRIER_IBARRIER);
    for (int late : {0, size - 1, size / 2}) {
      const int early = completed_early(kind, late, comm, side) ? 1 : 0;
      if (checked) {
        ck.expect(!early, "%s barrier completed on rank %d before rank %d entered", optiq_sx_barrier_name(kind),
                  mpitest::world_rank(), late);
      } else {
        int ranks = 0;
        MPI_Reduce(&early, &ranks, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
        if (mpitest::world_rank() == 0)
          std::printf("note: SMPI's MPI_Ibarrier completed on %d of %d ranks before rank %d entered\n", ranks,
                      size - 1, late);
      }
    }
    if (checked) back_to_back(kind, comm, ck);
  }
  MPI_Comm_free(&comm);
  MPI_Comm_free(&side);
  const int failures = ck.total();
  if (mpitest::world_rank() == 0)
    std::printf("%s: %d failures at %d ranks\n", failures ? "FAILED" : "passed", failures, size);
  MPI_Finalize();
  return failures ? 1 : 0;
}
