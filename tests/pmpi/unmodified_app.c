/* An MPI application that knows nothing of optiq: all-to-all exchanges of every kind the
 * interposer meets (blocking, nonblocking with each wait/test call, MPI_IN_PLACE, sub- and
 * intercommunicators, non-contiguous datatypes, MPI_Alltoall above and below the direct
 * threshold, MPI_Ialltoall, freed communicators), each checked byte by byte. Run it under LD_PRELOAD of
 * liboptiq_pmpi.so (run_under_preload.sh) or without: the results must be the same.
 *
 *   mpirun -np 8 ./unmodified_app [seed]       prints "unmodified_app: N checks, 0 errors" */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static long checks, errors;

/* The byte rank `from` sends rank `to` at position i of their message, in communicator tag c. */
static unsigned char expected(int c, int from, int to, long i) {
  return (unsigned char)(c * 131 + from * 31 + to * 7 + i * 13 + (i >> 8));
}

static unsigned rng_state;
static int draw(int n) { /* seeded, the same sequence on every rank */
  rng_state = rng_state * 1103515245u + 12345u;
  return (int)((rng_state >> 8) % (unsigned)n);
}

static void check(int ok, const char *what, int rank) {
  ++checks;
  if (!ok) {
    ++errors;
    fprintf(stderr, "rank %d: %s: wrong data\n", rank, what);
  }
}

/* counts[from * size + to]: bytes from -> to, drawn so that every rank agrees. */
static int *draw_counts(int size, int max_bytes) {
  int *m = malloc(sizeof(int) * size * size);
  for (int k = 0; k < size * size; ++k) m[k] = draw(4) == 0 ? 0 : draw(max_bytes + 1);
  return m;
}

typedef struct {
  int size, rank, tag;
  int *scounts, *sdispls, *rcounts, *rdispls;
  unsigned char *sbuf, *rbuf;
  long stotal, rtotal;
} exchange;

/* Lays out one alltoallv (in units of `unit` bytes) with a gap between blocks, so that a write
 * past a block shows. */
static void prepare(exchange *x, MPI_Comm comm, int tag, const int *m, int unit) {
  MPI_Comm_size(comm, &x->size);
  MPI_Comm_rank(comm, &x->rank);
  x->tag = tag;
  int n = x->size, r = x->rank;
  x->scounts = malloc(sizeof(int) * n), x->sdispls = malloc(sizeof(int) * n);
  x->rcounts = malloc(sizeof(int) * n), x->rdispls = malloc(sizeof(int) * n);
  x->stotal = x->rtotal = 0;
  for (int p = 0; p < n; ++p) {
    x->scounts[p] = m[r * n + p] / unit, x->sdispls[p] = (int)x->stotal, x->stotal += x->scounts[p] + 1;
    x->rcounts[p] = m[p * n + r] / unit, x->rdispls[p] = (int)x->rtotal, x->rtotal += x->rcounts[p] + 1;
  }
  x->sbuf = malloc((size_t)x->stotal * unit + 1);
  x->rbuf = malloc((size_t)x->rtotal * unit + 1);
  memset(x->rbuf, 0xEE, (size_t)x->rtotal * unit + 1);
  for (int p = 0; p < n; ++p)
    for (long i = 0; i < (long)x->scounts[p] * unit; ++i)
      x->sbuf[(long)x->sdispls[p] * unit + i] = expected(tag, r, p, i);
}

static void verify(exchange *x, const char *what, int unit) {
  int ok = 1;
  for (int p = 0; p < x->size; ++p) {
    for (long i = 0; i < (long)x->rcounts[p] * unit; ++i)
      ok &= x->rbuf[(long)x->rdispls[p] * unit + i] == expected(x->tag, p, x->rank, i);
    for (long i = 0; i < unit; ++i) /* the gap after each block stays untouched */
      ok &= x->rbuf[((long)x->rdispls[p] + x->rcounts[p]) * unit + i] == 0xEE;
  }
  check(ok, what, x->rank);
}

static void release(exchange *x) {
  free(x->scounts), free(x->sdispls), free(x->rcounts), free(x->rdispls), free(x->sbuf), free(x->rbuf);
}

static void blocking(MPI_Comm comm, int tag, int max_bytes, MPI_Datatype type, int unit, const char *what) {
  int size;
  MPI_Comm_size(comm, &size);
  int *m = draw_counts(size, max_bytes);
  exchange x;
  prepare(&x, comm, tag, m, unit);
  MPI_Alltoallv(x.sbuf, x.scounts, x.sdispls, type, x.rbuf, x.rcounts, x.rdispls, type, comm);
  verify(&x, what, unit);
  release(&x);
  free(m);
}

/* MPI_IN_PLACE: the receive buffer holds the outgoing data; counts must be symmetric. */
static void in_place(MPI_Comm comm, int tag, int max_bytes) {
  int size, rank;
  MPI_Comm_size(comm, &size);
  MPI_Comm_rank(comm, &rank);
  int *m = draw_counts(size, max_bytes);
  for (int a = 0; a < size; ++a)
    for (int b = 0; b < a; ++b) m[a * size + b] = m[b * size + a];
  exchange x;
  prepare(&x, comm, tag, m, 1);
  for (int p = 0; p < size; ++p) memcpy(x.rbuf + x.rdispls[p], x.sbuf + x.sdispls[p], (size_t)x.scounts[p]);
  MPI_Alltoallv(MPI_IN_PLACE, NULL, NULL, MPI_DATATYPE_NULL, x.rbuf, x.rcounts, x.rdispls, MPI_BYTE, comm);
  verify(&x, "MPI_IN_PLACE", 1);
  release(&x);
  free(m);
}

/* Nonblocking exchanges completed by each of the wait and test calls. */
static void nonblocking(MPI_Comm comm, int tag) {
  int size, rank;
  MPI_Comm_size(comm, &size);
  MPI_Comm_rank(comm, &rank);
  for (int how = 0; how < 5; ++how) {
    int *m = draw_counts(size, 48 << 10);
    exchange x;
    prepare(&x, comm, tag + how, m, 1);
    MPI_Request req[2];
    MPI_Ialltoallv(x.sbuf, x.scounts, x.sdispls, MPI_BYTE, x.rbuf, x.rcounts, x.rdispls, MPI_BYTE, comm, &req[0]);
    /* A point-to-point ring message beside it, for the calls that take several requests. */
    int token = rank, got = -1;
    MPI_Request ring[2];
    MPI_Irecv(&got, 1, MPI_INT, (rank + size - 1) % size, 99, comm, &ring[0]);
    MPI_Isend(&token, 1, MPI_INT, (rank + 1) % size, 99, comm, &ring[1]);
    req[1] = ring[0];
    int flag = 0, index = -1, outcount = 0, indices[2];
    switch (how) {
      case 0: MPI_Wait(&req[0], MPI_STATUS_IGNORE); MPI_Wait(&req[1], MPI_STATUS_IGNORE); break;
      case 1:
        while (!flag) MPI_Test(&req[0], &flag, MPI_STATUS_IGNORE);
        MPI_Wait(&req[1], MPI_STATUS_IGNORE);
        break;
      case 2: MPI_Waitall(2, req, MPI_STATUSES_IGNORE); break;
      case 3:
        for (int done = 0; done < 2; ++done) MPI_Waitany(2, req, &index, MPI_STATUS_IGNORE);
        break;
      case 4:
        for (int done = 0; done < 2;) {
          MPI_Testsome(2, req, &outcount, indices, MPI_STATUSES_IGNORE);
          if (outcount != MPI_UNDEFINED) done += outcount;
        }
        break;
    }
    MPI_Wait(&ring[1], MPI_STATUS_IGNORE);
    check(got == (rank + size - 1) % size, "ring message beside MPI_Ialltoallv", rank);
    verify(&x, "MPI_Ialltoallv", 1);
    release(&x);
    free(m);
  }
}

static void alltoall(MPI_Comm comm, int per_pair, int nonblocking, const char *what) {
  int size, rank;
  MPI_Comm_size(comm, &size);
  MPI_Comm_rank(comm, &rank);
  unsigned char *s = malloc((size_t)per_pair * size), *r = malloc((size_t)per_pair * size);
  for (int p = 0; p < size; ++p)
    for (long i = 0; i < per_pair; ++i) s[(long)p * per_pair + i] = expected(5, rank, p, i);
  if (nonblocking) {
    MPI_Request req;
    MPI_Ialltoall(s, per_pair, MPI_BYTE, r, per_pair, MPI_BYTE, comm, &req);
    MPI_Wait(&req, MPI_STATUS_IGNORE);
  } else {
    MPI_Alltoall(s, per_pair, MPI_BYTE, r, per_pair, MPI_BYTE, comm);
  }
  int ok = 1;
  for (int p = 0; p < size; ++p)
    for (long i = 0; i < per_pair; ++i) ok &= r[(long)p * per_pair + i] == expected(5, p, rank, i);
  check(ok, what, rank);
  free(s), free(r);
}

/* Every other int of a buffer: not contiguous, so optiq hands the call to MPI. */
static void strided(MPI_Comm comm) {
  int size, rank;
  MPI_Comm_size(comm, &size);
  MPI_Comm_rank(comm, &rank);
  MPI_Datatype pair;
  MPI_Type_vector(2, 1, 2, MPI_INT, &pair);
  MPI_Type_commit(&pair);
  int *s = calloc((size_t)size * 4, sizeof(int)), *r = calloc((size_t)size * 4, sizeof(int));
  int *counts = malloc(sizeof(int) * size), *displs = malloc(sizeof(int) * size);
  for (int p = 0; p < size; ++p) {
    counts[p] = 1, displs[p] = p; /* extent of `pair` is 3 ints; blocks start 3 ints apart */
    s[p * 3] = rank * 1000 + p, s[p * 3 + 2] = -(rank * 1000 + p);
  }
  MPI_Alltoallv(s, counts, displs, pair, r, counts, displs, pair, comm);
  int ok = 1;
  for (int p = 0; p < size; ++p) ok &= r[p * 3] == p * 1000 + rank && r[p * 3 + 2] == -(p * 1000 + rank);
  check(ok, "non-contiguous datatype", rank);
  MPI_Type_free(&pair);
  free(s), free(r), free(counts), free(displs);
}

static void intercommunicator(MPI_Comm world) {
  int size, rank;
  MPI_Comm_size(world, &size);
  MPI_Comm_rank(world, &rank);
  if (size < 2) return;
  MPI_Comm half, inter;
  const int color = rank < size / 2;
  MPI_Comm_split(world, color, rank, &half);
  MPI_Intercomm_create(half, 0, world, color ? size / 2 : 0, 7, &inter);
  int remote;
  MPI_Comm_remote_size(inter, &remote);
  int *s = malloc(sizeof(int) * remote), *r = malloc(sizeof(int) * remote);
  int *counts = malloc(sizeof(int) * remote), *displs = malloc(sizeof(int) * remote);
  for (int p = 0; p < remote; ++p) s[p] = rank * 100 + p, counts[p] = 1, displs[p] = p;
  MPI_Alltoallv(s, counts, displs, MPI_INT, r, counts, displs, MPI_INT, inter);
  int local;
  MPI_Comm_rank(inter, &local);
  int ok = 1;
  for (int p = 0; p < remote; ++p) ok &= r[p] % 100 == local;
  check(ok, "intercommunicator", rank);
  free(s), free(r), free(counts), free(displs);
  MPI_Comm_free(&inter);
  MPI_Comm_free(&half);
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int size, rank;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  rng_state = argc > 1 ? (unsigned)atoi(argv[1]) : 1u;

  for (int round = 0; round < 2; ++round) { /* the second round meets cached plans */
    blocking(MPI_COMM_WORLD, 1, 96 << 10, MPI_BYTE, 1, "MPI_Alltoallv bytes");
    blocking(MPI_COMM_WORLD, 2, 96 << 10, MPI_INT, 4, "MPI_Alltoallv ints");
  }
  in_place(MPI_COMM_WORLD, 3, 64 << 10);
  nonblocking(MPI_COMM_WORLD, 10);

  MPI_Comm parity, reversed;
  MPI_Comm_split(MPI_COMM_WORLD, rank % 2, rank, &parity);
  MPI_Comm_split(MPI_COMM_WORLD, 0, size - rank, &reversed);
  blocking(parity, 20, 64 << 10, MPI_BYTE, 1, "MPI_Alltoallv on a split communicator");
  blocking(reversed, 21, 64 << 10, MPI_BYTE, 1, "MPI_Alltoallv on a reordered communicator");
  nonblocking(reversed, 30);
  MPI_Comm_free(&parity);  /* its optiq context goes with it */
  MPI_Comm_free(&reversed);

  alltoall(MPI_COMM_WORLD, 64 << 10, 0, "MPI_Alltoall 64 KiB per pair");
  alltoall(MPI_COMM_WORLD, 16, 0, "MPI_Alltoall 16 bytes per pair");
  alltoall(MPI_COMM_WORLD, 64 << 10, 1, "MPI_Ialltoall 64 KiB per pair");
  strided(MPI_COMM_WORLD);
  intercommunicator(MPI_COMM_WORLD);

  long all_checks = 0, all_errors = 0;
  MPI_Reduce(&checks, &all_checks, 1, MPI_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
  MPI_Reduce(&errors, &all_errors, 1, MPI_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
  if (rank == 0) printf("unmodified_app: %ld checks, %ld errors\n", all_checks, all_errors);
  MPI_Finalize();
  return all_errors ? 1 : 0;
}
