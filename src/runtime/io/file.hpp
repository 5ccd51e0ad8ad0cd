// What an optiq_file_t is on the inside.
#pragma once

#include <mpi.h>

#include <memory>
#include <string>
#include <vector>

#include "runtime/api/context.hpp"
#include "runtime/io/layout.hpp"
#include "runtime/io/memory.hpp"
#include "optiq/io.h"
#include "runtime/io/sink.hpp"

namespace optiq::rt::io {

// The puts (or gets) of one epoch to one aggregator: parts [first, end) of Declared::parts,
// `bytes` in all. Their origin is the application's buffer itself when they come from one
// stretch of one variable in buffer order (`direct`), else `packed` in the staging buffer. In
// the aggregator's buffer they land at `disp`, spread by `type` (MPI_DATATYPE_NULL: contiguous).
struct Transfer {
  int epoch = 0;
  int target = 0;  // rank in the file's communicator
  MPI_Aint disp = 0;
  Bytes bytes = 0;
  MPI_Datatype type = MPI_DATATYPE_NULL;
  std::size_t first = 0, end = 0;
  bool direct = false;
  Bytes packed = 0;
};

// A run of bytes in one round's buffer of one domain: where forwarded bytes land.
struct Run {
  int domain = 0;
  Bytes target = 0;
  Bytes bytes = 0;
};

// One epoch moved through the context's exchange (options.forward). A rank packs its pieces of
// the epoch, aggregator by aggregator, at send_base of the staging buffer; an aggregator
// receives each source's bytes at recv_off[source] of its incoming buffer and lays them out by
// that source's runs, in the order the source packed them.
struct ForwardedEpoch {
  std::vector<std::size_t> order;  // this rank's transfers of the epoch, in packing order
  Bytes send_base = 0;
  std::vector<Bytes> send_off, recv_off;  // by rank of the file's communicator
  Bytes recv_bytes = 0;
  std::vector<std::pair<int, std::vector<Run>>> runs;  // by source, ascending
  LocalPattern pattern;  // sends by aggregator, receives by source (reads swap them)
  std::shared_ptr<const RankSchedule> write, read;  // the read's is planned by the first read
};

// A declared pattern and what it set up; freed by the next declare or close.
struct Declared {
  GroupLayout layout;
  std::vector<Bytes> var_bytes;
  std::vector<Part> parts;  // this rank's, per epoch and aggregator in buffer order
  std::vector<Transfer> transfers;
  Bytes staged_bytes = 0;  // of the transfers that are not direct
  std::vector<int> domains;  // the domains this rank aggregates, ascending (their slots in order)
  std::vector<std::vector<std::vector<Interval>>> covered;  // per domain of its, per epoch: what the file gets
  int all_epochs = 0;  // the most epochs of any group: every rank fences that often
  MPI_Win win = MPI_WIN_NULL;  // over all the file's ranks
  std::unique_ptr<Memory> window;  // two buffers of layout.buffer bytes per domain aggregated
  char* base = nullptr;            // window's memory, or null
  std::unique_ptr<Sink> sink;
  std::vector<ForwardedEpoch> forwarded;  // per epoch of all_epochs, with options.forward
  Bytes incoming_bytes = 0;               // the most any epoch brings this rank as aggregator
  // A group of one rank whose pieces are large writes and reads them straight from its variables
  // (in file order, adjacent ones joined): no parts, no buffers, one transfer per call.
  std::vector<Block> in_place;
  // An aggregator's own large parts, ordered as `parts`: written and read straight from its
  // variables between the buffer's other bytes, never put into its buffer.
  std::vector<Part> own;
  Bytes in_place_bytes = 0;  // of in_place and own
  ~Declared();
};

}  // namespace optiq::rt::io

struct optiq_file {
  optiq_context* ctx = nullptr;
  MPI_Comm comm = MPI_COMM_NULL;   // the context's ranks
  MPI_Comm group = MPI_COMM_NULL;  // this rank's file group
  int group_index = 0;
  int group_rank = 0;
  int group_size = 0;
  optiq::NodeId group_io = -1;  // the group's I/O node, -1 without one (or, for a shared file, several)
  bool io_nodes = false;        // the network has I/O nodes
  std::string path;             // this rank's file
  optiq_io_mode mode = OPTIQ_IO_CREATE;
  optiq_io_options options{};
  std::string placement;  // options.placement, owned
  optiq_io_custom_sink custom{};  // *options.custom, copied
  std::unique_ptr<optiq::rt::io::Declared> declared;
  optiq_io_stats stats{};
};

namespace optiq::rt::io {

inline Comms comms_of(MPI_Comm comm) {
  Comms c;
  c.ctrl = comm;
  MPI_Comm_rank(comm, &c.rank);
  MPI_Comm_size(comm, &c.size);
  return c;
}

// Every collective call on a file starts here: the ranks agree on their local verdicts, then
// that they are all in the same call (a rank in read while the others write would mismatch
// every exchange after). Throws Failure on every rank alike.
inline void agree_call(optiq_file* f, const char* call, const Verdict& local) {
  agree_status_and_same(comms_of(f->comm), local.code, local.message, fingerprint({call}),
                        "another call on the file (declare, write, read and close are collective)");
}

// n as an MPI count; throws optiq::Error naming `what` when it does not fit.
int checked_int(std::size_t n, const char* what);

// Each entry point's first check: a usable file whose context is idle.
int usable(optiq_file* file);
// Plans, checks and sets up a pattern (optiq_file_declare's work; collective, throws Failure).
std::unique_ptr<Declared> declare(optiq_file* file, const std::vector<std::vector<optiq_io_extent>>& vars);
// Copies a transfer's parts between the variables and the staging buffer from byte `at` of it
// (pack: into it); returns where the next transfer's bytes start.
Bytes copy_parts(const Declared& d, const Transfer& t, char* const* data, char* staged, Bytes at, bool pack);

// With options.forward: what each epoch sends and receives, and its planned exchange
// (collective over the file's communicator, after the transfers are built).
void plan_forwarding(optiq_file* file, Declared* d);
// One epoch through the exchange: a write packs nothing here (the staging buffer holds every
// epoch, packed by the caller) and lays the incoming bytes out in the buffers; a read does the
// reverse (planning its exchange the first time).
void forward_epoch(optiq_file* file, Declared& d, int epoch, char* staged, char* incoming, bool write);
// The staging buffer of a forwarded write or read: pack (true) or unpack the variables.
void stage_forwarded(const Declared& d, char* const* data, char* staged, bool pack);

// The pipelines (collective; throw Failure on every rank alike).
void write(optiq_file* file, const void* const data[]);
void read(optiq_file* file, void* const data[]);

}  // namespace optiq::rt::io
