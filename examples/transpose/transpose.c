/* A distributed matrix transpose, the classic all-to-all: rank r owns rows r*B .. r*B+B-1 of
 * an N x N matrix (N = B * ranks) and must end up owning the same rows of the transpose.
 *
 * Built twice from this file: transpose-mpi calls MPI_Alltoallv, transpose-optiq calls
 * optiq_alltoallv. The exchange itself is the one line marked SWAP; optiq adds a context,
 * created once with the machine's topology and destroyed at the end.
 *
 *   mpirun -np 8 ./transpose-optiq torus:2x2x2 [block]
 */
#include <stdio.h>
#include <stdlib.h>

#include <mpi.h>
#ifdef USE_OPTIQ
#include "optiq/optiq.h"
#endif

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const char *topology = argc > 1 ? argv[1] : "torus:2x2x2";
  const int B = argc > 2 ? atoi(argv[2]) : 64; /* rows per rank */
  const int N = B * size;
  (void)topology;

#ifdef USE_OPTIQ
  optiq_t ctx;
  optiq_options options;
  optiq_options_init(&options); /* planner heu2, automatic chunks, two-sided transport */
  if (optiq_create(MPI_COMM_WORLD, topology, &options, &ctx) != OPTIQ_SUCCESS) {
    if (rank == 0) fprintf(stderr, "optiq_create: %s\n", optiq_error_string(ctx));
    optiq_destroy(&ctx);
    MPI_Finalize();
    return 2;
  }
#endif

  /* Pack: the B x B block destined for rank p goes to sbuf[p*B*B ...], already transposed. */
  double *a = malloc(sizeof(double) * B * N), *sbuf = malloc(sizeof(double) * B * N);
  double *rbuf = malloc(sizeof(double) * B * N);
  int *counts = malloc(sizeof(int) * size), *displs = malloc(sizeof(int) * size);
  for (int i = 0; i < B; ++i)
    for (int j = 0; j < N; ++j) a[i * N + j] = (double)(rank * B + i) * N + j; /* a[i][j] = global index */
  for (int p = 0; p < size; ++p) {
    counts[p] = B * B;
    displs[p] = p * B * B;
    for (int i = 0; i < B; ++i)
      for (int j = 0; j < B; ++j) sbuf[p * B * B + j * B + i] = a[i * N + p * B + j];
  }

#ifdef USE_OPTIQ
  int status = optiq_alltoallv(sbuf, counts, displs, MPI_DOUBLE, rbuf, counts, displs, MPI_DOUBLE, ctx); /* SWAP */
  if (status != OPTIQ_SUCCESS && rank == 0) fprintf(stderr, "optiq_alltoallv: %s\n", optiq_error_string(ctx));
#else
  MPI_Alltoallv(sbuf, counts, displs, MPI_DOUBLE, rbuf, counts, displs, MPI_DOUBLE, MPI_COMM_WORLD); /* SWAP */
#endif

  /* Check: the block from rank p holds, row-major, my rows i of the transpose at columns p*B+j,
   * and transposed[rank*B+i][p*B+j] = a[p*B+j][rank*B+i] = (p*B+j)*N + rank*B+i. */
  long wrong = 0, all_wrong = 0;
  for (int p = 0; p < size; ++p)
    for (int i = 0; i < B; ++i)
      for (int j = 0; j < B; ++j)
        if (rbuf[p * B * B + i * B + j] != (double)(p * B + j) * N + rank * B + i) ++wrong;
  MPI_Reduce(&wrong, &all_wrong, 1, MPI_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
  if (rank == 0) printf("transposed %d x %d on %d ranks: %s\n", N, N, size, all_wrong ? "WRONG" : "correct");

#ifdef USE_OPTIQ
  optiq_destroy(&ctx);
#endif
  free(a), free(sbuf), free(rbuf), free(counts), free(displs);
  MPI_Finalize();
  return all_wrong ? 1 : 0;
}
