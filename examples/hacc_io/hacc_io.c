/* HACC-IO's checkpoint through optiq's collective I/O: every rank holds N particles as nine
 * arrays (positions, velocities, potential as floats, an 8-byte id, a 2-byte mask) and writes
 * them into one shared file, particle records one after another in rank order (array of
 * structures) or one section per variable (structure of arrays). Then it reads them back and
 * checks every byte.
 *
 *   mpirun -np 8 hacc_io [TOPOLOGY] [PARTICLES] [aos|soa] [PATH]
 *   (defaults: torus:<np>, 5000, aos, hacc_io.dat) */
#include <mpi.h>
#include <optiq/io.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NVARS 9
static const int var_bytes[NVARS] = {4, 4, 4, 4, 4, 4, 4, 8, 2}; /* xx yy zz vx vy vz phi pid mask */
#define RECORD 38                                                 /* the sum of var_bytes */

static int check(int status, optiq_t ctx, const char *what) {
  if (status != OPTIQ_SUCCESS) {
    fprintf(stderr, "%s: %s: %s\n", what, optiq_status_name(status), optiq_error_string(ctx));
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
  return status;
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  char ring[32];
  snprintf(ring, sizeof ring, "torus:%d", size);
  const char *topology = argc > 1 ? argv[1] : ring;
  const long long n = argc > 2 ? atoll(argv[2]) : 5000;
  const int soa = argc > 3 && strcmp(argv[3], "soa") == 0;
  const char *path = argc > 4 ? argv[4] : "hacc_io.dat";

  /* The particles: variable v of particle i of rank r is filled from (r, v, i). */
  char *vars[NVARS], *back[NVARS];
  for (int v = 0; v < NVARS; ++v) {
    vars[v] = malloc((size_t)(n * var_bytes[v]) + 1);
    back[v] = malloc((size_t)(n * var_bytes[v]) + 1);
    for (long long b = 0; b < n * var_bytes[v]; ++b) vars[v][b] = (char)(rank * 131 + v * 17 + b * 7);
  }

  /* Where each variable goes: AoS, n blocks one record apart after the lower ranks' records;
   * SoA, one block inside the variable's section, after the lower ranks' values. */
  optiq_io_extent extents[NVARS];
  const optiq_io_extent *lists[NVARS];
  int counts[NVARS];
  long long field = 0;
  for (int v = 0; v < NVARS; ++v) {
    if (soa)
      extents[v] = (optiq_io_extent){n * size * field + rank * n * var_bytes[v], n * var_bytes[v], 1, 0};
    else
      extents[v] = (optiq_io_extent){rank * n * RECORD + field, var_bytes[v], n, RECORD};
    lists[v] = &extents[v];
    counts[v] = 1;
    field += var_bytes[v];
  }

  optiq_t ctx;
  check(optiq_create(MPI_COMM_WORLD, topology, NULL, &ctx), ctx, "optiq_create");
  optiq_io_options options;
  optiq_io_options_init(&options); /* 16 aggregators, 2 x 16 MiB buffers, pwrite on a thread */
  optiq_file_t file;
  check(optiq_file_open(ctx, path, OPTIQ_IO_CREATE, &options, &file), ctx, "optiq_file_open");
  check(optiq_file_declare(file, NVARS, counts, lists), ctx, "optiq_file_declare");

  double t = MPI_Wtime();
  check(optiq_file_write(file, (const void *const *)vars), ctx, "optiq_file_write");
  t = MPI_Wtime() - t;
  check(optiq_file_read(file, (void *const *)back), ctx, "optiq_file_read");

  int wrong = 0;
  for (int v = 0; v < NVARS; ++v) wrong |= memcmp(vars[v], back[v], (size_t)(n * var_bytes[v])) != 0;
  MPI_Allreduce(MPI_IN_PLACE, &wrong, 1, MPI_INT, MPI_LOR, MPI_COMM_WORLD);
  MPI_Allreduce(MPI_IN_PLACE, &t, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  if (rank == 0)
    printf("%d ranks wrote %lld particles (%s) to %s in %.3f ms; read back %s\n", size, n * size, soa ? "SoA" : "AoS",
           path, t * 1e3, wrong ? "WRONG" : "correct");

  check(optiq_file_close(&file), ctx, "optiq_file_close");
  optiq_destroy(&ctx);
  for (int v = 0; v < NVARS; ++v) free(vars[v]), free(back[v]);
  MPI_Finalize();
  return wrong;
}
