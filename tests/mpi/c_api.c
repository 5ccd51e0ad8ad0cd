/* The C API from a plain C program: this file is compiled as C, proving optiq.h is C. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "optiq/optiq.h"

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

/* Rank s sends (s + d) % 5 + 1 ints to rank d, each int = s * 1000000 + d * 1000 + i. */
static int count(int s, int d) { return (s + d) % 5 + 1; }

static int exchange(optiq_t ctx, int rank, int size, int blocking) {
  int *sc = malloc(sizeof(int) * size), *sd = malloc(sizeof(int) * size);
  int *rc = malloc(sizeof(int) * size), *rd = malloc(sizeof(int) * size);
  int ns = 0, nr = 0, p, i, status, ok = 1;
  for (p = 0; p < size; ++p) {
    sc[p] = count(rank, p);
    sd[p] = ns;
    ns += sc[p];
    rc[p] = count(p, rank);
    rd[p] = nr;
    nr += rc[p];
  }
  int *sbuf = malloc(sizeof(int) * ns), *rbuf = malloc(sizeof(int) * nr);
  for (p = 0; p < size; ++p)
    for (i = 0; i < sc[p]; ++i) sbuf[sd[p] + i] = rank * 1000000 + p * 1000 + i;
  memset(rbuf, 0xff, sizeof(int) * nr);
  if (blocking) {
    status = optiq_alltoallv(sbuf, sc, sd, MPI_INT, rbuf, rc, rd, MPI_INT, ctx);
  } else {
    optiq_request_t req = NULL;
    int flag = 0;
    status = optiq_ialltoallv(sbuf, sc, sd, MPI_INT, rbuf, rc, rd, MPI_INT, ctx, &req);
    while (status == OPTIQ_SUCCESS && !flag) status = optiq_test(&req, &flag);
  }
  CHECK(status == OPTIQ_SUCCESS, "alltoallv: %s: %s", optiq_status_name(status), optiq_error_string(ctx));
  for (p = 0; p < size; ++p)
    for (i = 0; i < rc[p]; ++i)
      if (rbuf[rd[p] + i] != p * 1000000 + rank * 1000 + i) ok = 0;
  CHECK(ok, "rank %d received wrong data", rank);
  free(sc), free(sd), free(rc), free(rd), free(sbuf), free(rbuf);
  return ok;
}

int main(int argc, char **argv) {
  int rank, size, t, total = 0;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  char topology[32];
  snprintf(topology, sizeof topology, "torus:%d", size);
  for (t = 0; t < 2; ++t) {
    optiq_options o;
    optiq_t ctx = NULL;
    optiq_stats stats;
    optiq_options_init(&o);
    o.planner = "heu1";
    o.transport = t ? OPTIQ_TRANSPORT_RMA : OPTIQ_TRANSPORT_P2P;
    o.chunk_bytes = 4;
    o.direct_threshold_bytes = 0;
    o.min_gain = 0;
    CHECK(optiq_create(MPI_COMM_WORLD, topology, &o, &ctx) == OPTIQ_SUCCESS, "create: %s", optiq_error_string(ctx));
    exchange(ctx, rank, size, 1);
    exchange(ctx, rank, size, 0);
    CHECK(optiq_get_stats(ctx, &stats) == OPTIQ_SUCCESS && stats.operations == 2, "stats: %llu operations",
          stats.operations);
    /* A non-contiguous type is refused with a status and a message, on every rank. */
    {
      MPI_Datatype strided;
      int one = 1, zero = 0, buf[4] = {0, 0, 0, 0};
      int *counts = calloc(size, sizeof(int)), *displs = calloc(size, sizeof(int));
      counts[rank] = one;
      MPI_Type_vector(2, 1, 2, MPI_INT, &strided);
      MPI_Type_commit(&strided);
      int status = optiq_alltoallv(buf, counts, displs, strided, buf + 2, counts, displs, strided, ctx);
      CHECK(status == OPTIQ_ERR_DATATYPE, "strided type: %s", optiq_status_name(status));
      CHECK(strstr(optiq_error_string(ctx), "contiguous") != NULL, "message: %s", optiq_error_string(ctx));
      MPI_Type_free(&strided);
      free(counts), free(displs);
      (void)zero;
    }
    CHECK(optiq_destroy(&ctx) == OPTIQ_SUCCESS && ctx == NULL, "destroy");
  }
  MPI_Allreduce(&failures, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (rank == 0) printf("%s: %d failures at %d ranks\n", total ? "FAILED" : "passed", total, size);
  MPI_Finalize();
  return total ? 1 : 0;
}
