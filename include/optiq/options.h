/* optiq's option structs for C: the runtime's (optiq.h) and the collective I/O library's (io.h).
 *
 * Every field that takes a value has one record in the core (include/optiq/core/options.hpp): its
 * name, bounds, default and description. optiq_options_init and optiq_io_options_init fill a
 * struct from those records; the interposer reads the same records from its environment
 * (OPTIQ_<NAME>), optiq's command lines take them as --<name>, and docs/options.md lists them.
 * The defaults quoted below are the records' (a test holds them equal).
 *
 * This header needs no MPI: the planning core reads it too. */
#ifndef OPTIQ_OPTIONS_H
#define OPTIQ_OPTIONS_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum { OPTIQ_TRANSPORT_P2P = 0, OPTIQ_TRANSPORT_RMA = 1 } optiq_transport;

/* Which waiting chunk a rank sends first when it may send: chunks it forwards for others
 * (they hold slots upstream ranks wait for), its own, or alternately. */
typedef enum { OPTIQ_QUEUE_FORWARD_FIRST = 0, OPTIQ_QUEUE_LOCAL_FIRST = 1, OPTIQ_QUEUE_ROUND_ROBIN = 2 } optiq_queue;

/* When a rank sends its own chunks. Paced: a plan that forwards runs each path at the rate its
 * share needs, so that all finish at the plan's predicted time (a chunk leaves once the path's
 * bytes before it would have at that rate); forwarded chunks move on as they arrive. Eager: as
 * soon as a send is free, the path least far along first. */
typedef enum { OPTIQ_DISPATCH_PACED = 0, OPTIQ_DISPATCH_EAGER = 1 } optiq_dispatch;

/* Where ranks run. Block: rank r on the (r / ranks_per_node)-th endpoint. Hosts: on the endpoint
 * named by the rank's host name (MPI_Get_processor_name, or the environment variable OPTIQ_HOST
 * where set), for networks that name their hosts (imported ones). Auto: hosts where the network
 * names its hosts, else block. rank_to_node, when given, overrides all three. */
typedef enum { OPTIQ_PLACEMENT_AUTO = 0, OPTIQ_PLACEMENT_BLOCK = 1, OPTIQ_PLACEMENT_HOSTS = 2 } optiq_placement;

typedef struct optiq_options {
  const char *planner;           /* a planner of the core: "default", "heu1", "heu2", ... (default "mcf")  */
  const char *routing;           /* the network's default routing model; NULL: the topology's own */
  size_t chunk_bytes;            /* bytes per message; 0: automatic by message size and hop count */
  optiq_transport transport;     /* two-sided (default) or one-sided */
  size_t forward_budget_bytes;   /* forwarding slot memory per rank (default 16 MiB) */
  size_t direct_threshold_bytes; /* messages smaller than this go directly, unplanned (default 16 KiB) */
  int ranks_per_node;            /* rank r runs on node r / ranks_per_node (default 1) */
  const int *rank_to_node;       /* NULL, or [size]: the node each rank runs on (overrides ranks_per_node
                                    and rank_placement); copied by optiq_create */
  optiq_placement rank_placement;/* block, by host name, or auto (default): see optiq_placement */
  int aggregate_node;            /* nonzero: the ranks of one node send to the ranks of another as one
                                    planned transfer, gathered at one rank of the node and scattered at
                                    the other (default 0) */
  int plan_cache;                /* nonzero: reuse the schedule of a pattern seen before (default 1) */
  optiq_queue queue;             /* queue discipline (default forward-first) */
  int max_inflight;              /* data messages in flight per rank (default 512) */
  int paths_per_job;             /* candidate paths per message for heu1/heu2 (default 50) */
  optiq_dispatch dispatch;       /* paced (default) or eager */
  int progress_thread;           /* nonzero: a thread of each rank advances its operations while the
                                    application computes (needs MPI_THREAD_MULTIPLE; not under SMPI)
                                    (default 0) */
  double min_gain;               /* a plan runs only if it predicts at least this fraction less time than
                                    the network's default route, which runs otherwise (default 0.1);
                                    0: every plan runs */
  int priority;                  /* traffic class of the context's operations, 0 (default) the most urgent:
                                    while an operation of a more urgent class is in flight in the same
                                    process, this context's operations send nothing new (docs/qos.md) */
  double class_window;           /* how long every rank keeps the network for an operation of this context
                                    from its start, as a multiple of its planned time: less urgent classes
                                    send nothing new meanwhile, even on ranks without a part in it; 0: only
                                    where it is active (default 1.5) */
  double class_share;            /* held back by a more urgent class, the fraction of its planned rate at
                                    which an operation of this context still sends, one message at a
                                    time; 0 (default): nothing new */
  int class_until_done;          /* nonzero: the network is kept for an operation of this context only until
                                    it has ended on every rank (each rank tells rank 0, which answers all),
                                    or its window has passed, whichever is first (default 0) */
} optiq_options;

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

/* Fill *options with every record's default. NULL is ignored. */
void optiq_options_init(optiq_options *options);
void optiq_io_options_init(optiq_io_options *options);

/* The records by name, for configuring from text (a command line, a file, the environment):
 * optiq_options_name(i) is the i-th option's name ("planner", "chunk", "forward-budget", ...),
 * NULL past the last; optiq_options_set sets one from text as optiq's command lines take it
 * ("64KiB", "rma", "0.1"), checked against its record. A text option keeps the pointer `value`.
 * Returns OPTIQ_SUCCESS, or OPTIQ_ERR_ARG for an unknown name or a bad value, with the reason
 * in message (at most message_size bytes with its NUL; message may be NULL). */
const char *optiq_options_name(int index);
int optiq_options_set(optiq_options *options, const char *name, const char *value, char *message,
                      size_t message_size);
const char *optiq_io_options_name(int index);
int optiq_io_options_set(optiq_io_options *options, const char *name, const char *value, char *message,
                         size_t message_size);

#ifdef __cplusplus
}
#endif

#endif /* OPTIQ_OPTIONS_H */
