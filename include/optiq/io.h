/* optiq collective I/O: two-phase writes and reads through aggregators placed on the network.
 *
 *   optiq_file_t f;
 *   optiq_file_open(ctx, "out.dat", OPTIQ_IO_CREATE, NULL, &f);          collective
 *   optiq_file_declare(f, nvars, counts, extents);                        collective, once per pattern
 *   optiq_file_write(f, data);                                            collective, as often as needed
 *   optiq_file_close(&f);                                                 collective
 *
 * Each rank declares, per variable, where in the file the variable's bytes go; data[v] then
 * holds variable v's bytes packed in that order (extent by extent, repetition by repetition).
 * The file is divided among aggregators in contiguous domains, as ROMIO does; every rank puts
 * its pieces into its aggregators' buffers with MPI one-sided communication, round by round,
 * while each aggregator writes the previous round's buffer (two buffers per aggregator).
 * Reads run the same rounds backwards. docs/io.md has the pipeline and what it supports.
 *
 * Conventions are those of optiq.h: no global state, int status codes, the message of the last
 * failure in optiq_error_string(ctx), the same status on every rank of a collective call. */
#ifndef OPTIQ_IO_H
#define OPTIQ_IO_H

#include "optiq/optiq.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Where each rank's pieces land: `count` blocks of `bytes` bytes, the i-th at file offset
 * offset + i * stride (count 1: one block, stride ignored). All values >= 0; no byte of a file
 * may be declared twice, by one rank or by two. */
typedef struct optiq_io_extent {
  long long offset;
  long long bytes;
  long long count;
  long long stride;
} optiq_io_extent;

typedef enum {
  OPTIQ_IO_CREATE = 0, /* create the file(s), or truncate them to nothing; read and write */
  OPTIQ_IO_RDWR = 1,   /* existing file(s), read and write */
  OPTIQ_IO_RDONLY = 2  /* existing file(s), read only */
} optiq_io_mode;

typedef struct optiq_file *optiq_file_t;

/* Per-file counters, this rank's view. */
typedef struct optiq_io_stats {
  int group;                      /* this rank's file group (0 for a shared file) */
  int aggregator;                 /* 1 if this rank aggregates a domain of the last declared pattern */
  int rounds;                     /* rounds of the last declared pattern (with data in them) */
  int in_place;                   /* 1 if this rank, alone in its file group, writes and reads its
                                     pieces straight from its variables (they are large: docs/io.md) */
  unsigned long long put_bytes;   /* moved into (or out of) aggregators' buffers by this rank */
  unsigned long long file_bytes;  /* written or read by this rank as aggregator */
  unsigned long long in_place_bytes; /* of put_bytes, those that went between this rank's variables
                                        and the file directly, its own as aggregator (docs/io.md) */
  double last_seconds;            /* of the last write or read, on this rank */
} optiq_io_stats;

/* Collective over the context's communicator. options may be NULL (defaults); they, path and
 * mode must agree on every rank. With the null or a custom sink the file system is left alone:
 * nothing is created, opened or truncated. */
int optiq_file_open(optiq_t ctx, const char *path, optiq_io_mode mode, const optiq_io_options *options,
                    optiq_file_t *file);

/* Collective. Declares this rank's pieces: nvars variables, variable v with counts[v] extents
 * at extents[v]. Plans the domains, aggregators and rounds and sets up the buffers; replaces
 * any earlier pattern. A rank with nothing to write passes nvars 0. */
int optiq_file_declare(optiq_file_t file, int nvars, const int counts[], const optiq_io_extent *const extents[]);

/* Collective. data[v] holds variable v's declared bytes (may be NULL when it declared none). */
int optiq_file_write(optiq_file_t file, const void *const data[]);
/* Collective. Fills data[v] with variable v's declared bytes as the file holds them; fails
 * with OPTIQ_ERR_IO if any of them lie beyond the end of the file. */
int optiq_file_read(optiq_file_t file, void *const data[]);

int optiq_file_stats(optiq_file_t file, optiq_io_stats *stats);

/* Collective. Frees the file and sets *file to NULL (the file stays on disk). */
int optiq_file_close(optiq_file_t *file);

#ifdef __cplusplus
}
#endif

#endif /* OPTIQ_IO_H */
