/* optiq/exchange.h from a plain C program: this file is compiled as C99, proving the header
 * is C. Rank r sends r + 1 ints to rank r + 1 and 3 ints to itself, with NBX, AUTO and PCX.
 * Also enum values outside the enums, which C (unlike C++) lets a caller pass. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "optiq/exchange.h"

static int failures = 0;
#define CHECK(cond, ...)                                  \
  do {                                                    \
    if (!(cond)) {                                        \
      fprintf(stderr, "FAIL %s:%d: ", __FILE__, __LINE__); \
      fprintf(stderr, __VA_ARGS__);                       \
      fprintf(stderr, "\n");                              \
      ++failures;                                         \
    }                                                     \
  } while (0)

static void run(int rank, int size, optiq_sx_protocol protocol) {
  int next = (rank + 1) % size, prev = (rank + size - 1) % size;
  int to_next[64], to_self[3], i;
  int dests[2], sizes[2], nsend = 0, status, j;
  const void *bufs[2];
  optiq_sx_options options;
  optiq_sx_result r;
  for (i = 0; i < rank + 1; ++i) to_next[i] = rank * 100 + i;
  for (i = 0; i < 3; ++i) to_self[i] = -rank - i;
  if (next != rank) {
    dests[nsend] = next, bufs[nsend] = to_next, sizes[nsend] = (int)sizeof(int) * (rank + 1), ++nsend;
  }
  dests[nsend] = rank, bufs[nsend] = to_self, sizes[nsend] = (int)sizeof to_self, ++nsend;
  optiq_sx_options_init(&options);
  options.max_neighbors = 2;
  status = optiq_sparse_exchange(MPI_COMM_WORLD, nsend, dests, bufs, sizes, protocol, &options, &r);
  CHECK(status == OPTIQ_SUCCESS, "%s: %s", optiq_sx_protocol_name(protocol), r.message);
  CHECK(r.protocol != OPTIQ_SX_AUTO, "AUTO was not resolved");
  CHECK(r.nrecv == (size > 1 ? 2 : 1), "rank %d received %d messages", rank, r.nrecv);
  for (j = 0; j < r.nrecv; ++j) {
    const int *got = (const int *)r.recvbufs[j];
    if (r.sources[j] == rank) {
      CHECK(r.sizes[j] == (int)sizeof to_self && memcmp(got, to_self, sizeof to_self) == 0, "self message");
    } else {
      CHECK(r.sources[j] == prev && r.sizes[j] == (int)sizeof(int) * (prev + 1), "message from %d", r.sources[j]);
      for (i = 0; i < prev + 1 && r.sizes[j] == (int)sizeof(int) * (prev + 1); ++i)
        CHECK(got[i] == prev * 100 + i, "int %d from %d", i, prev);
    }
  }
  optiq_sx_result_free(&r);
  CHECK(r.nrecv == 0 && r.recvbufs == NULL, "result not emptied");
}

int main(int argc, char **argv) {
  int rank, size, total = 0;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (size > 64) MPI_Abort(MPI_COMM_WORLD, 2);
  run(rank, size, OPTIQ_SX_NBX);
  run(rank, size, OPTIQ_SX_AUTO);
  run(rank, size, OPTIQ_SX_PCX);
  {
    optiq_sx_result r;
    int status = optiq_sparse_exchange(MPI_COMM_WORLD, 0, NULL, NULL, NULL, (optiq_sx_protocol)9, NULL, &r);
    CHECK(status == OPTIQ_ERR_ARG && strstr(r.message, "protocol 9 is not a protocol"), "protocol 9: %s", r.message);
    status = optiq_sparse_exchange(MPI_COMM_WORLD, 0, NULL, NULL, NULL, (optiq_sx_protocol)-1, NULL, &r);
    CHECK(status == OPTIQ_ERR_ARG && strstr(r.message, "protocol -1 is not a protocol"), "protocol -1: %s", r.message);
    CHECK(optiq_sx_protocol_name((optiq_sx_protocol)5) == NULL && optiq_sx_barrier_name((optiq_sx_barrier)3) == NULL &&
              optiq_sx_barrier_name((optiq_sx_barrier)-7) == NULL,
          "names outside the enums");
    CHECK(strcmp(optiq_sx_protocol_name(OPTIQ_SX_RSX), "rsx") == 0 &&
              strcmp(optiq_sx_barrier_name(OPTIQ_SX_BARRIER_DISSEMINATION), "dissemination") == 0,
          "names");
  }
  MPI_Allreduce(&failures, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (rank == 0) printf("%s: %d failures at %d ranks\n", total ? "FAILED" : "passed", total, size);
  MPI_Finalize();
  return total ? 1 : 0;
}
