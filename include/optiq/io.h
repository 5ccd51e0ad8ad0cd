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
  OPTIQ_FILES_SHARED = 0, /* one file, path itself, for every rank of the context */
  OPTIQ_FILES_GROUP = 1   /* one file per I/O group, "path.G" for group G = 0, 1, ... (below) */
} optiq_io_files;

typedef enum {
  OPTIQ_SINK_PWRITE = 0, /* each aggregator writes with pwrite/pread on a thread of its own */
  OPTIQ_SINK_MPIIO = 1,  /* each aggregator writes with MPI_File_iwrite_at/iread_at on its own handle */
  OPTIQ_SINK_NULL = 2,   /* writes go nowhere (like /dev/null): the aggregation alone; reads refused */
  OPTIQ_SINK_CUSTOM = 3  /* the application's own callbacks (options.custom) */
} optiq_io_sink;

/* One stretch of an aggregator's buffer and the file offset it belongs at. */
typedef struct optiq_io_span {
  void *buffer;
  long long offset;
  long long bytes;
} optiq_io_span;

/* A destination of the application's own for the aggregators' buffers: an I/O forwarding layer,
 * a burst buffer, a simulated I/O node. Each aggregator calls start with one round's spans of
 * file group `group` (write nonzero: from the buffers to the file; zero: from the file into the
 * buffers) and later wait, before it reuses those buffers; at most one start is outstanding per
 * aggregator. The spans' array lives only during start; the buffers until wait returns. Both
 * return 0 on success; anything else fails the write or read with OPTIQ_ERR_IO on every rank. */
typedef struct optiq_io_custom_sink {
  void *state;
  int (*start)(void *state, int group, int write, const optiq_io_span *spans, int count);
  int (*wait)(void *state);
} optiq_io_custom_sink;

typedef enum {
  OPTIQ_IO_CREATE = 0, /* create the file(s), or truncate them to nothing; read and write */
  OPTIQ_IO_RDWR = 1,   /* existing file(s), read and write */
  OPTIQ_IO_RDONLY = 2  /* existing file(s), read only */
} optiq_io_mode;

typedef struct optiq_io_options {
  optiq_io_files files;  /* shared (default) or one per group */
  int group_nodes;       /* groups on a network without I/O nodes: this many consecutive nodes
                            (default 128, a BG/Q pset); on one with I/O nodes, the nodes that
                            reach the same I/O node first */
  int aggregators;       /* per file (default 16), and per I/O group within a shared file on a
                            network with I/O nodes; at most one per node */
  size_t buffer_bytes;   /* per buffer, two per aggregator (default 16 MiB, below 2 GiB) */
  const char *placement; /* where aggregators go: "spread" (evenly over the file's nodes, as
                            ROMIO's default), or a strategy of docs/io.md ("romio-bgq",
                            "topology-aware", "greedy", ...) on networks with I/O nodes; a shared
                            file over several I/O groups takes spread or romio-bgq.
                            NULL: romio-bgq on networks with I/O nodes (the best simulated there,
                            docs/io.md), else spread */
  optiq_io_sink sink;    /* default pwrite */
  const optiq_io_custom_sink *custom; /* OPTIQ_SINK_CUSTOM: the callbacks (copied by optiq_file_open) */
  int overlap;           /* nonzero (default): an aggregator writes round e - 1 while round e
                            aggregates; 0: one after the other, as ROMIO's two-phase I/O does */
  int forward;           /* nonzero: each round's pieces reach the aggregators through the
                            context's exchange, on the paths its planner (optiq_options.planner)
                            chooses, forwarded by other nodes where the plan says so; every
                            round is planned by optiq_file_declare. 0 (default): one-sided puts
                            straight into the aggregators' buffers, on the network's own routes */
} optiq_io_options;

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

void optiq_io_options_init(optiq_io_options *options);

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
