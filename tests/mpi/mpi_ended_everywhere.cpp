// The end notices behind class_until_done (src/runtime/api/ended_everywhere.hpp): on one
// communicator, many in a row with ranks arriving in random order all end, none before the last
// rank has ended its part, and dropping one still open completes it.
#include <unistd.h>

#include <memory>

#include "common.hpp"
#include "runtime/api/ended_everywhere.hpp"

using namespace mpitest;
using optiq::rt::EndedEverywhere;

namespace {

// Polls until it ended or `seconds` passed; true if it ended.
bool poll(EndedEverywhere& n, double seconds) {
  const double until = MPI_Wtime() + seconds;
  while (!n.test()) {
    if (MPI_Wtime() > until) return false;
    usleep(50);
  }
  return true;
}

void in_a_row(MPI_Comm comm, Checker& ck) {
  const int rank = world_rank();
  optiq::Rng rng(1000 + rank);
  for (int i = 0; i < 40; ++i) {
    usleep(static_cast<useconds_t>(rng.below(3000)));  // ranks end their parts in a different order each time
    EndedEverywhere n(comm);
    if (!ck.expect(poll(n, 60), "notice %d did not end within a minute", i)) return;
  }
}

void not_before_the_last(MPI_Comm comm, Checker& ck) {
  const int rank = world_rank(), last = world_size() - 1;
  MPI_Barrier(comm);
  if (rank == last) usleep(500000);
  EndedEverywhere n(comm);
  if (rank != last) ck.expect(!poll(n, 0.1), "a notice ended while the last rank had not ended its part");
  ck.expect(poll(n, 60), "the notice did not end once every rank had");
}

void dropped_open(MPI_Comm comm, Checker& ck) {
  auto n = std::make_unique<EndedEverywhere>(comm);
  n.reset();  // blocks until every rank has ended too
  EndedEverywhere after(comm);  // the next one on the same communicator is not confused by it
  ck.expect(poll(after, 60), "the notice after a dropped one did not end");
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  Checker ck;
  MPI_Comm comm;
  MPI_Comm_dup(MPI_COMM_WORLD, &comm);
  in_a_row(comm, ck);
  not_before_the_last(comm, ck);
  dropped_open(comm, ck);
  MPI_Comm_free(&comm);
  const int failures = ck.total();
  if (world_rank() == 0) std::printf("mpi_ended_everywhere (%d ranks): %s\n", world_size(), failures ? "FAILED" : "ok");
  MPI_Finalize();
  return failures ? 1 : 0;
}
