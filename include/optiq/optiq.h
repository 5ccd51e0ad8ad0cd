/* optiq runtime: multi-path bulk data movement for MPI applications.
 *
 * Replace   MPI_Alltoallv(sbuf, scounts, sdispls, stype, rbuf, rcounts, rdispls, rtype, comm)
 * with      optiq_alltoallv(sbuf, scounts, sdispls, stype, rbuf, rcounts, rdispls, rtype, ctx)
 * where ctx comes from optiq_create(comm, "torus:4x4x4", &options, &ctx) once at start-up.
 *
 * Conventions: plain C; no global state (everything lives in a context); every function
 * returns an int status (OPTIQ_SUCCESS or one of the codes below) and, on failure,
 * optiq_error_string(ctx) says what went wrong; no C++ exception ever leaves a function.
 * Collective calls must be made by every rank of the context's communicator in the same order;
 * an error found on any rank of a collective call is returned on every rank, so a bad argument
 * never leaves ranks waiting. Only a context that cannot take part at all (NULL, failed to
 * initialise, or busy with another operation) is refused on its own rank. One operation at a
 * time per context. Arrays described as "[size]" have one entry per rank of the communicator.
 * Byte counts, and their sums over a call or a plan, must stay below 2^63. See docs/runtime.md. */
#ifndef OPTIQ_OPTIQ_H
#define OPTIQ_OPTIQ_H

#include <mpi.h>
#include <stddef.h>

#include "optiq/options.h" /* optiq_options and its enums, optiq_options_init */

#ifdef __cplusplus
extern "C" {
#endif

enum {
  OPTIQ_SUCCESS = 0,
  OPTIQ_ERR_ARG = 1,       /* a bad argument: NULL pointer, negative count, bad option value */
  OPTIQ_ERR_DATATYPE = 2,  /* a datatype optiq cannot move: only contiguous ones are supported */
  OPTIQ_ERR_MISMATCH = 3,  /* a rank's receive counts differ from what its senders send */
  OPTIQ_ERR_PLANNER = 4,   /* an unknown planner, or planning failed */
  OPTIQ_ERR_PLAN = 5,      /* an unreadable plan file, or one for another topology or communicator */
  OPTIQ_ERR_SCHEDULE = 6,  /* the forwarding budget (or the tag range) cannot hold the schedule */
  OPTIQ_ERR_TOPOLOGY = 7,  /* a bad topology spec or rank placement */
  OPTIQ_ERR_BUSY = 8,      /* an operation is still in flight on this context */
  OPTIQ_ERR_STATE = 9,     /* the context failed to initialise, or a handle belongs to another context */
  OPTIQ_ERR_INTERNAL = 10, /* a bug in optiq (the message says where) */
  OPTIQ_ERR_IO = 11        /* the file system refused a file operation (optiq/io.h) */
};

typedef struct optiq_context *optiq_t;
typedef struct optiq_request *optiq_request_t;
typedef struct optiq_plan *optiq_plan_t;

/* Counters of one context, summed over its operations unless marked "last". */
typedef struct optiq_stats {
  unsigned long long operations;        /* alltoallv, ialltoallv and execute calls that moved data */
  unsigned long long plans_made;        /* schedules computed (cache misses and plan files) */
  unsigned long long plan_cache_hits;
  double plan_seconds;                  /* last: time this rank spent agreeing on the schedule */
  unsigned long long injected_bytes;    /* from this rank's send buffer to other ranks */
  unsigned long long forwarded_bytes;   /* copied on by this rank for other ranks */
  unsigned long long forwarded_chunks;
  unsigned long long off_plan_bytes;    /* of this rank's bytes, those whose path turned at a node without
                                           a rank and went on by the default route instead */
  unsigned long long budget_bytes;      /* the forwarding budget */
  unsigned long long slot_bytes_lent;   /* most slot memory lent in one operation */
  unsigned long long held_bytes_peak;   /* most bytes held in forwarding slots at once */
  unsigned long long reserved_bytes;    /* forwarding memory the transport holds (<= budget) */
  unsigned long long early_starts;      /* cache hits whose bytes began to move before the ranks had agreed
                                           (this rank's part repeated the last call's and is direct) */
  unsigned long long early_starts_withdrawn; /* early starts the agreement undid (a peer's part changed) */
  double predicted_seconds;              /* last: the operation's time in the planner's model (its paths and
                                           the default route of direct messages; 0 if nothing crosses nodes) */
  unsigned long long planned_jobs;       /* last: jobs its plan routed (rank pairs, or pairs of nodes under
                                           aggregation; direct messages not counted) */
  unsigned long long planned_paths;      /* last: paths of those jobs that carry bytes */
  unsigned long long most_paths;         /* last: the most paths of one job */
  unsigned long long aggregated_operations; /* operations whose rank jobs moved as one transfer per pair
                                           of nodes (optiq_options.aggregate_node) */
  unsigned long long held_rounds;       /* progress rounds in which this context's operation sent nothing new
                                           because a more urgent class's operation was in flight in the process */
  int node;                             /* the network vertex this rank runs on (placement: rank_placement) */
} optiq_stats;

/* Collective over comm. topology: a spec such as "torus:4x4x4", "bgq:2x2x2x2x2", "mira:512".
 * options may be NULL for the defaults and must agree on every rank. On failure *ctx is still
 * set, to a context that only optiq_error_string and optiq_destroy accept. */
int optiq_create(MPI_Comm comm, const char *topology, const optiq_options *options, optiq_t *ctx);
/* Collective. Frees the context and sets *ctx to NULL. */
int optiq_destroy(optiq_t *ctx);

/* The message of the last failure on ctx ("" if none). Valid until the next call on ctx. */
const char *optiq_error_string(optiq_t ctx);
/* A short name for a status code, e.g. "OPTIQ_ERR_MISMATCH". */
const char *optiq_status_name(int status);

/* Collective. MPI_Alltoallv's arguments and meaning; counts and displacements are [size], in
 * units of the datatypes, which must be contiguous (extent == size, no holes). sendbuf may be
 * MPI_IN_PLACE, as in MPI_Alltoallv: each rank sends peer p the recvcounts[p] elements of
 * recvtype at rdispls[p] in recvbuf, which then receive what p sends (so recvcounts must be
 * symmetric across ranks); sendcounts, sdispls and sendtype are ignored, and optiq keeps a
 * copy of the outgoing bytes until the operation completes. recvbuf may not be MPI_IN_PLACE.
 * After an error the receive regions hold undefined bytes, as after MPI_Alltoallv's: a call
 * repeating the last call's pattern may start writing them before every rank has checked its
 * arguments. Nothing outside the regions the arguments name is ever written. */
int optiq_alltoallv(const void *sendbuf, const int sendcounts[], const int sdispls[], MPI_Datatype sendtype,
                    void *recvbuf, const int recvcounts[], const int rdispls[], MPI_Datatype recvtype, optiq_t ctx);

/* Collective start of the same exchange: agrees on the schedule (blocking, short when the
 * plan is cached), then returns; bytes move while the application calls optiq_test,
 * optiq_wait or optiq_progress, or all the time with options.progress_thread. The buffers and
 * arrays must stay untouched until completion. */
int optiq_ialltoallv(const void *sendbuf, const int sendcounts[], const int sdispls[], MPI_Datatype sendtype,
                     void *recvbuf, const int recvcounts[], const int rdispls[], MPI_Datatype recvtype, optiq_t ctx,
                     optiq_request_t *request);
/* Completes the operation, frees it and sets *request to NULL. */
int optiq_wait(optiq_request_t *request);
/* Makes progress; *flag = 1 when complete (then as optiq_wait), else 0. */
int optiq_test(optiq_request_t *request, int *flag);
/* Advances the context's operation in flight, if any, by one round that never blocks, and
 * returns: cheap enough to call between the application's work items (as one would call
 * MPI_Test), so that forwarded chunks move on while the application computes. Completion is
 * still collected by optiq_test or optiq_wait. OPTIQ_SUCCESS when nothing is in flight. */
int optiq_progress(optiq_t ctx);

/* Collective. Rank 0 reads a plan file (docs/plan-format.md) made for this context's topology;
 * each job runs from the lowest rank on its source node to the lowest rank on its destination
 * node, several jobs between the same two nodes one after another in the file's order. A
 * plan is usable only with the context that loaded it and may be freed after that context. */
int optiq_plan_load(optiq_t ctx, const char *path, optiq_plan_t *plan);
/* Bytes this rank sends to / receives from every rank under the plan: [size] arrays or NULL. */
int optiq_plan_counts(optiq_plan_t plan, long long sendbytes[], long long recvbytes[]);
int optiq_plan_free(optiq_plan_t *plan);
/* Collective. Moves the plan's bytes between the application's buffers; displacements are
 * [size], in bytes (only the entries of peers the plan has bytes for are read). Every rank
 * calls it, with or without a part in the plan: the ranks first agree that all arguments are
 * good (one small allreduce), so that a bad one on any rank fails the call on every rank
 * instead of leaving its peers waiting for bytes that will not come. */
int optiq_execute(optiq_t ctx, optiq_plan_t plan, const void *sendbuf, const MPI_Aint sdispls[], void *recvbuf,
                  const MPI_Aint rdispls[]);

int optiq_get_stats(optiq_t ctx, optiq_stats *stats);
/* Local. Whether optiq_create on `topology` with `options` (NULL: the defaults) and no
 * rank_to_node places ranks by host name (1) or by block (0); a negative status when the
 * topology cannot be read. Wrappers that otherwise pass their own block map (the interposer,
 * for sub-communicators) ask this first. */
int optiq_places_by_host(const char *topology, const optiq_options *options);

/* Reads a byte size as optiq's tools write them: "65536", "64KiB", "1MiB", "1.5GB" (binary
 * Ki/Mi/Gi/Ti, decimal k/K/M/G/T, optional B). OPTIQ_ERR_ARG for anything else. */
int optiq_parse_size(const char *text, unsigned long long *bytes);

#ifdef __cplusplus
}
#endif

#endif /* OPTIQ_OPTIQ_H */
