/* What testing a pending request costs on this machine: MPI_Test on one request, and
 * MPI_Testsome and MPI_Iprobe, none of which find anything. SimGrid SMPI charges a simulated
 * rank smpi/test for every request it tests (bench/poll_cost.py, docs/simulation.md).
 * Prints one JSON object per line: {"call", "requests", "ns_per_call"}. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

static void report(const char *call, int requests, double seconds, long calls) {
  printf("{\"call\": \"%s\", \"requests\": %d, \"ns_per_call\": %.2f}\n", call, requests, seconds / calls * 1e9);
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  const int counts[] = {1, 16, 64, 256};
  for (int c = 0; c < 4; ++c) {
    const int n = counts[c];
    if (rank == 0) {
      MPI_Request *req = malloc(sizeof *req * n);
      int *index = malloc(sizeof *index * n);
      char byte;
      /* Receives no one will match until they are cancelled. */
      for (int i = 0; i < n; ++i) MPI_Irecv(&byte, 1, MPI_BYTE, 1, 100 + i, MPI_COMM_WORLD, &req[i]);
      const long calls = 2000000 / n + 10000;
      int found = 0, flag = 0;
      double t = MPI_Wtime();
      for (long k = 0; k < calls; ++k) MPI_Testsome(n, req, &found, index, MPI_STATUSES_IGNORE);
      report("MPI_Testsome", n, MPI_Wtime() - t, calls);
      if (n == 1) {
        t = MPI_Wtime();
        for (long k = 0; k < calls; ++k) MPI_Test(&req[0], &flag, MPI_STATUS_IGNORE);
        report("MPI_Test", 1, MPI_Wtime() - t, calls);
        t = MPI_Wtime();
        for (long k = 0; k < calls; ++k) MPI_Iprobe(1, 99, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE);
        report("MPI_Iprobe", 0, MPI_Wtime() - t, calls);
      }
      for (int i = 0; i < n; ++i) {
        MPI_Cancel(&req[i]);
        MPI_Wait(&req[i], MPI_STATUS_IGNORE);
      }
      free(req);
      free(index);
    }
    MPI_Barrier(MPI_COMM_WORLD);
  }
  MPI_Finalize();
  return 0;
}
