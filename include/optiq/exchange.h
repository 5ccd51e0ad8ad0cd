/* optiq sparse exchange: each rank knows whom it sends to, not who sends to it.
 *
 *   optiq_sx_result r;
 *   int status = optiq_sparse_exchange(comm, nsend, dests, sendbufs, sendsizes, OPTIQ_SX_AUTO, NULL, &r);
 *   for (int i = 0; i < r.nrecv; ++i) use(r.sources[i], r.recvbufs[i], r.sizes[i]);
 *   optiq_sx_result_free(&r);
 *
 * The four protocols of Hoefler, Siebert and Lumsdaine (PPoPP 2010) differ only in how a rank
 * learns how many messages to expect (see docs/exchange.md):
 *   PEX  sizes of every pair by MPI_Alltoall, then point-to-point receives from known sources;
 *   PCX  the number of incoming messages by MPI_Reduce_scatter_block, then that many receives
 *        from MPI_ANY_SOURCE;
 *   RSX  the same number by MPI_Accumulate into a one-int window between two fences;
 *   NBX  synchronous sends, receives from MPI_ANY_SOURCE until a nonblocking barrier, entered
 *        once this rank's own sends are matched, completes. No step costs O(P).
 *
 * Conventions (as optiq.h, whose status codes are used): plain C, every function returns an
 * int status. optiq_sparse_exchange is collective: every rank of comm calls it, in the same
 * order as its other optiq_sparse_exchange calls on comm, with the same protocol and options.
 * Calls on one communicator never see each other's messages, nor the application's: the
 * first call on a communicator duplicates it (a collective step) and caches the copies on it
 * as an attribute; they are freed with the communicator (MPI_COMM_WORLD's at MPI_Finalize).
 *
 * Bad arguments on any rank (negative nsend or size, a destination outside comm or repeated,
 * NULL arrays or buffers, a NULL result) fail the call on every rank with OPTIQ_ERR_ARG:
 * the failing rank's message says what is wrong, the others' name the failing rank, and no
 * rank keeps any message. Nothing hangs. The protocol and options must be the same on every
 * rank: one allreduce agrees on them first, and a difference, or a value outside the enums
 * below on any rank, fails the call on every rank with OPTIQ_ERR_ARG. Only the communicator
 * itself is checked before any communication: a NULL or inter-communicator, or MPI not
 * initialised, returns OPTIQ_ERR_ARG at once on the calling rank. */
#ifndef OPTIQ_EXCHANGE_H
#define OPTIQ_EXCHANGE_H

#include <mpi.h>

#include "optiq/optiq.h" /* OPTIQ_SUCCESS, OPTIQ_ERR_ARG, ... (declarations only: no link dependency) */

#ifdef __cplusplus
extern "C" {
#endif

typedef enum {
  OPTIQ_SX_AUTO = 0, /* chosen by communicator size and options.max_neighbors, see docs/exchange.md */
  OPTIQ_SX_PEX = 1,
  OPTIQ_SX_PCX = 2,
  OPTIQ_SX_RSX = 3,
  OPTIQ_SX_NBX = 4
} optiq_sx_protocol;

/* The nonblocking barrier NBX ends with. MPI_Ibarrier is the MPI library's; DISSEMINATION is
 * optiq's own, ceil(log2 P) rounds of zero-byte MPI_Isend/MPI_Irecv, for libraries whose
 * MPI_Ibarrier is slow or wrong (SimGrid SMPI 3.32's completes as soon as rank 0 enters). AUTO
 * is DISSEMINATION when compiled against SMPI and IBARRIER otherwise. */
typedef enum {
  OPTIQ_SX_BARRIER_AUTO = 0,
  OPTIQ_SX_BARRIER_IBARRIER = 1,
  OPTIQ_SX_BARRIER_DISSEMINATION = 2
} optiq_sx_barrier;

typedef struct optiq_sx_options {
  optiq_sx_barrier barrier; /* NBX's barrier (default AUTO) */
  int max_neighbors;        /* for AUTO: the most messages any rank sends in this call, the same
                               value on every rank; -1 (default): unknown, AUTO decides by size alone */
} optiq_sx_options;

/* What a rank received. Owned by the caller after a call (successful or not) and released by
 * optiq_sx_result_free. Sources are in ascending rank order, a rank's own message included. */
typedef struct optiq_sx_result {
  int nrecv;                  /* messages received */
  int *sources;               /* [nrecv] the sending ranks, ascending */
  int *sizes;                 /* [nrecv] their sizes in bytes */
  void **recvbufs;            /* [nrecv] their bytes (malloc'd; NULL for a zero-byte message) */
  optiq_sx_protocol protocol; /* the protocol that ran (AUTO resolved) */
  optiq_sx_barrier barrier;   /* the barrier NBX used (AUTO resolved); AUTO for other protocols */
  char message[256];          /* on failure, what went wrong; "" on success */
} optiq_sx_result;

/* Fills *options with the defaults above. */
void optiq_sx_options_init(optiq_sx_options *options);

/* Collective over comm. This rank sends nsend messages: sendsizes[i] bytes (>= 0) from
 * sendbufs[i] to rank dests[i] of comm. dests, sendbufs and sendsizes are [nsend] arrays (may
 * be NULL when nsend == 0); a destination appears at most once (concatenate messages to one
 * rank) and may be the rank itself; sendbufs[i] may be NULL when sendsizes[i] == 0. The send
 * buffers are not modified and may be reused when the call returns. options may be NULL for
 * the defaults. *result is overwritten (free a previous result first) and must be released
 * with optiq_sx_result_free whatever the status. */
int optiq_sparse_exchange(MPI_Comm comm, int nsend, const int *dests, const void *const *sendbufs,
                          const int *sendsizes, optiq_sx_protocol protocol, const optiq_sx_options *options,
                          optiq_sx_result *result);

/* Frees the received buffers and arrays and leaves *result empty (nrecv 0). NULL is allowed. */
int optiq_sx_result_free(optiq_sx_result *result);

/* "auto", "pex", "pcx", "rsx", "nbx"; NULL for a value outside the enum. */
const char *optiq_sx_protocol_name(optiq_sx_protocol protocol);
/* "auto", "ibarrier", "dissemination"; NULL for a value outside the enum. */
const char *optiq_sx_barrier_name(optiq_sx_barrier barrier);

#ifdef __cplusplus
}
#endif

#endif /* OPTIQ_EXCHANGE_H */
