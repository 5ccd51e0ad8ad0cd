// Bad input to optiq/io.h, on one rank or all: the same status on every rank, a message that
// names the problem, no hang; and the file still works afterwards.
#include <sys/stat.h>

#include <cstring>

#include "common.hpp"
#include "io_files.hpp"
#include "optiq/io.h"

using namespace mpitest;

namespace {

Checker check;

// Expects `status` on every rank and, when a fragment is given, in the message.
void expect(int status, optiq_t ctx, int want, const char* fragment, const char* what) {
  const int common = common_status(status);
  check.expect(common == want, "%s: status %s (want %s): %s", what, optiq_status_name(status), optiq_status_name(want),
               optiq_error_string(ctx));
  if (fragment && status != OPTIQ_SUCCESS)
    check.expect(std::strstr(optiq_error_string(ctx), fragment) != nullptr, "%s: message '%s' lacks '%s'", what,
                 optiq_error_string(ctx), fragment);
}

// Each rank writes `bytes` bytes at rank * bytes (one variable).
int declare_block(optiq_file_t f, long long offset, long long bytes) {
  const optiq_io_extent e = {offset, bytes, 1, 0};
  const optiq_io_extent* lists[] = {&e};
  const int count = 1;
  return optiq_file_declare(f, 1, &count, lists);
}

// A custom sink whose first `failures` starts fail, then every one succeeds (bytes are taken).
struct Flaky {
  int failures = 1;
  long long taken = 0;
};

int flaky_start(void* state, int, int, const optiq_io_span* spans, int count) {
  auto* s = static_cast<Flaky*>(state);
  if (s->failures > 0) {
    --s->failures;
    return 7;
  }
  for (int i = 0; i < count; ++i) s->taken += spans[i].bytes;
  return 0;
}

int flaky_wait(void*) { return 0; }

long long file_size(const std::string& path) {
  struct stat st;
  return stat(path.c_str(), &st) == 0 ? (long long)st.st_size : -1;
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  const int rank = world_rank(), size = world_size();
  const std::string dir = make_test_dir("");
  const std::string path = dir + "/errors.dat";
  optiq_t ctx = nullptr;
  optiq_create(MPI_COMM_WORLD, ("torus:" + std::to_string(size)).c_str(), nullptr, &ctx);
  optiq_io_options o;
  optiq_io_options_init(&o);
  o.buffer_bytes = 64;
  optiq_file_t f = nullptr;

  // Options and modes.
  optiq_io_options bad = o;
  bad.aggregators = rank == size - 1 ? 0 : 4;
  expect(optiq_file_open(ctx, path.c_str(), OPTIQ_IO_CREATE, &bad, &f), ctx, OPTIQ_ERR_ARG, "aggregators",
         "zero aggregators on the last rank");
  check.expect(f == nullptr, "a failed open leaves the handle NULL");
  bad = o;
  bad.buffer_bytes = 0;
  expect(optiq_file_open(ctx, path.c_str(), OPTIQ_IO_CREATE, &bad, &f), ctx, OPTIQ_ERR_ARG, "buffer_bytes",
         "no buffer");
  bad = o;
  bad.placement = "nearest";
  expect(optiq_file_open(ctx, path.c_str(), OPTIQ_IO_CREATE, &bad, &f), ctx, OPTIQ_ERR_ARG, "unknown placement",
         "unknown placement");
  expect(optiq_file_open(ctx, path.c_str(), optiq_io_mode(7), &o, &f), ctx, OPTIQ_ERR_ARG, "mode", "bad mode");

  // Arguments that differ across ranks, each valid where it is given: every rank fails alike,
  // and no file but the agreed one is touched (the open creates nothing before agreeing).
  if (size > 1) {
    const bool odd = rank % 2 == 1;
    const std::string other = dir + "/other.dat";
    expect(optiq_file_open(ctx, (odd ? other : path).c_str(), OPTIQ_IO_CREATE, &o, &f), ctx, OPTIQ_ERR_ARG,
           "other than rank 0's", "paths that differ");
    check.expect(file_size(other) < 0, "a mismatched open created %s", other.c_str());
    optiq_io_options varied = o;
    varied.aggregators = odd ? 2 : 4;
    expect(optiq_file_open(ctx, path.c_str(), OPTIQ_IO_CREATE, &varied, &f), ctx, OPTIQ_ERR_ARG, "other than rank 0's",
           "aggregators that differ");
    varied = o;
    varied.forward = odd ? 1 : 0;
    expect(optiq_file_open(ctx, path.c_str(), OPTIQ_IO_CREATE, &varied, &f), ctx, OPTIQ_ERR_ARG, "other than rank 0's",
           "forward on some ranks only");
    varied = o;
    varied.files = odd ? OPTIQ_FILES_GROUP : OPTIQ_FILES_SHARED;
    expect(optiq_file_open(ctx, path.c_str(), OPTIQ_IO_CREATE, &varied, &f), ctx, OPTIQ_ERR_ARG, "other than rank 0's",
           "files that differ");
    expect(optiq_file_open(ctx, path.c_str(), odd ? OPTIQ_IO_RDWR : OPTIQ_IO_CREATE, &o, &f), ctx, OPTIQ_ERR_ARG,
           "other than rank 0's", "modes that differ");
    check.expect(f == nullptr, "a mismatched open leaves the handle NULL");
  }
  expect(optiq_file_open(ctx, nullptr, OPTIQ_IO_CREATE, &o, &f), ctx, OPTIQ_ERR_ARG, "path", "NULL path");
  expect(optiq_file_open(ctx, (dir + "/missing.dat").c_str(), OPTIQ_IO_RDONLY, &o, &f), ctx, OPTIQ_ERR_IO,
         "missing.dat", "reading a file that does not exist");
  expect(optiq_file_open(ctx, (dir + "/no/such/dir.dat").c_str(), OPTIQ_IO_CREATE, &o, &f), ctx, OPTIQ_ERR_IO,
         "dir.dat", "creating in a directory that does not exist");

  // Topology-aware placement needs I/O nodes, which a torus has not.
  bad = o;
  bad.placement = "topology-aware";
  expect(optiq_file_open(ctx, path.c_str(), OPTIQ_IO_CREATE, &bad, &f), ctx, OPTIQ_SUCCESS, nullptr,
         "open with topology-aware on a torus");
  expect(declare_block(f, 64LL * rank, 64), ctx, OPTIQ_ERR_ARG, "I/O node", "topology-aware on a torus");
  expect(optiq_file_close(&f), ctx, OPTIQ_SUCCESS, nullptr, "close");

  expect(optiq_file_open(ctx, path.c_str(), OPTIQ_IO_CREATE, &o, &f), ctx, OPTIQ_SUCCESS, nullptr, "open");
  int one = 1;
  std::vector<char> data(300, char(rank + 1));
  const void* ptrs[] = {data.data()};
  expect(optiq_file_write(f, ptrs), ctx, OPTIQ_ERR_ARG, "no pattern declared", "write before declare");

  // Declarations: bad on one rank fails everywhere.
  expect(declare_block(f, rank == 0 ? -5 : 100LL * rank, 10), ctx, OPTIQ_ERR_ARG, ">= 0", "negative offset");
  const optiq_io_extent strided = {0, 8, 3, rank == size - 1 ? 4 : 8 * size};
  const optiq_io_extent* lists[] = {&strided};
  expect(optiq_file_declare(f, 1, &one, lists), ctx, OPTIQ_ERR_ARG, "stride", "stride shorter than the block");
  expect(optiq_file_declare(f, rank == 0 ? -1 : 0, nullptr, nullptr), ctx, OPTIQ_ERR_ARG, "nvars", "negative nvars");
  // Two ranks (or one rank twice) on the same bytes.
  if (size > 1) {
    expect(declare_block(f, rank == 1 ? 10 : 100LL * rank, 20), ctx, OPTIQ_ERR_ARG, "twice",
           "ranks 0 and 1 overlap");
  }
  const optiq_io_extent twice[] = {{100LL * rank, 20, 1, 0}, {100LL * rank + 19, 5, 1, 0}};
  const optiq_io_extent* twice_list[] = {twice};
  const int two = 2;
  expect(optiq_file_declare(f, 1, &two, twice_list), ctx, OPTIQ_ERR_ARG, "twice", "a rank overlaps itself");

  // A good pattern after all that, then bad data pointers.
  expect(declare_block(f, 300LL * rank, 300), ctx, OPTIQ_SUCCESS, nullptr, "a good declaration after bad ones");
  const void* none[] = {rank == size - 1 ? nullptr : data.data()};
  expect(optiq_file_write(f, none), ctx, OPTIQ_ERR_ARG, "NULL", "NULL data on the last rank");
  expect(optiq_file_write(f, ptrs), ctx, OPTIQ_SUCCESS, nullptr, "write");
  check.expect(file_size(path) == 300LL * size, "file size %lld, want %lld", file_size(path), 300LL * size);

  // Ranks in different calls on one file: every rank fails alike before any byte moves, the
  // file keeps its contents and handle, and the next call in step works.
  if (size > 1) {
    const bool odd = rank % 2 == 1;
    std::vector<char> scratch(300);
    void* into_scratch[] = {scratch.data()};
    const std::vector<char> poison(300, char(0x5a));
    const void* poisoned[] = {poison.data()};
    expect(odd ? optiq_file_read(f, into_scratch) : optiq_file_write(f, poisoned), ctx, OPTIQ_ERR_ARG,
           "another call on the file", "write on some ranks, read on others");
    expect(odd ? declare_block(f, 0, 300) : optiq_file_write(f, poisoned), ctx, OPTIQ_ERR_ARG,
           "another call on the file", "declare on some ranks, write on others");
    optiq_file_t same = f;
    expect(odd ? optiq_file_close(&same) : optiq_file_read(f, into_scratch), ctx, OPTIQ_ERR_ARG,
           "another call on the file", "close on some ranks, read on others");
    check.expect(same == f, "a refused close keeps the handle");
    std::vector<char> back_now(300);
    void* into_now[] = {back_now.data()};
    expect(optiq_file_read(f, into_now), ctx, OPTIQ_SUCCESS, nullptr, "read after calls that differed");
    check.expect(back_now == data, "the mismatched calls changed the file");
  }

  // Reading more than the file holds.
  expect(declare_block(f, 300LL * rank + 150, 300), ctx, OPTIQ_SUCCESS, nullptr, "declare past the end");
  std::vector<char> back(300);
  void* into[] = {back.data()};
  expect(optiq_file_read(f, into), ctx, OPTIQ_ERR_IO, "ends", "read past the end of the file");
  expect(declare_block(f, 300LL * rank, 300), ctx, OPTIQ_SUCCESS, nullptr, "declare again");
  expect(optiq_file_read(f, into), ctx, OPTIQ_SUCCESS, nullptr, "read after a failed read");
  check.expect(back == data, "read back what was written");

  // Closed: the handle is NULL, and every use says so.
  expect(optiq_file_close(&f), ctx, OPTIQ_SUCCESS, nullptr, "close");
  check.expect(f == nullptr, "close sets the handle to NULL");
  check.expect(optiq_file_write(f, ptrs) == OPTIQ_ERR_ARG, "write on a closed file");
  check.expect(optiq_file_read(f, into) == OPTIQ_ERR_ARG, "read on a closed file");
  check.expect(optiq_file_close(&f) == OPTIQ_ERR_ARG, "closing twice");

  // Read-only files refuse writes; the null sink writes nothing and refuses reads.
  expect(optiq_file_open(ctx, path.c_str(), OPTIQ_IO_RDONLY, &o, &f), ctx, OPTIQ_SUCCESS, nullptr, "open read-only");
  expect(declare_block(f, 300LL * rank, 300), ctx, OPTIQ_SUCCESS, nullptr, "declare read-only");
  expect(optiq_file_write(f, ptrs), ctx, OPTIQ_ERR_ARG, "read-only", "write to a read-only file");
  expect(optiq_file_read(f, into), ctx, OPTIQ_SUCCESS, nullptr, "read a read-only file");
  expect(optiq_file_close(&f), ctx, OPTIQ_SUCCESS, nullptr, "close read-only");
  optiq_io_options null_sink = o;
  null_sink.sink = OPTIQ_SINK_NULL;
  expect(optiq_file_open(ctx, path.c_str(), OPTIQ_IO_CREATE, &null_sink, &f), ctx, OPTIQ_SUCCESS, nullptr,
         "open with the null sink");
  expect(declare_block(f, 300LL * rank, 300), ctx, OPTIQ_SUCCESS, nullptr, "declare, null sink");
  expect(optiq_file_write(f, ptrs), ctx, OPTIQ_SUCCESS, nullptr, "write to the null sink");
  optiq_io_stats st;
  optiq_file_stats(f, &st);
  unsigned long long sunk = st.file_bytes, total = 0;
  MPI_Allreduce(&sunk, &total, 1, MPI_UNSIGNED_LONG_LONG, MPI_SUM, MPI_COMM_WORLD);
  check.expect(total == 300ULL * size, "the null sink took %llu bytes, want %llu", total, 300ULL * size);
  check.expect(file_size(path) == 300LL * size, "the null sink touched the file (%lld bytes, was %lld)",
               file_size(path), 300LL * size);
  expect(optiq_file_read(f, into), ctx, OPTIQ_ERR_ARG, "null sink", "read from the null sink");
  expect(optiq_file_close(&f), ctx, OPTIQ_SUCCESS, nullptr, "close null sink");

  // A failure does not poison the next call: the sink's first start fails, the next write
  // works (every byte reaches the sink), and the one after too.
  Flaky flaky;
  const optiq_io_custom_sink callbacks = {&flaky, flaky_start, flaky_wait};
  optiq_io_options custom = o;
  custom.sink = OPTIQ_SINK_CUSTOM;
  custom.custom = &callbacks;
  expect(optiq_file_open(ctx, path.c_str(), OPTIQ_IO_CREATE, &custom, &f), ctx, OPTIQ_SUCCESS, nullptr,
         "open with a custom sink");
  expect(declare_block(f, 300LL * rank, 300), ctx, OPTIQ_SUCCESS, nullptr, "declare, custom sink");
  optiq_io_stats before;
  optiq_file_stats(f, &before);
  const bool aggregates = before.aggregator != 0;
  int aggregators = aggregates ? 1 : 0;
  MPI_Allreduce(MPI_IN_PLACE, &aggregators, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  expect(optiq_file_write(f, ptrs), ctx, OPTIQ_ERR_IO, "the custom sink's start returned 7", "a failing start");
  for (int round = 0; round < 2; ++round) {
    const long long had = flaky.taken;
    expect(optiq_file_write(f, ptrs), ctx, OPTIQ_SUCCESS, nullptr, "a write after a failed one");
    long long took = flaky.taken - had, all = 0;
    MPI_Allreduce(&took, &all, 1, MPI_LONG_LONG, MPI_SUM, MPI_COMM_WORLD);
    check.expect(all == 300LL * size, "after a failure the sink took %lld bytes, want %lld", all, 300LL * size);
  }
  check.expect(aggregators > 0, "no aggregator");
  expect(optiq_file_close(&f), ctx, OPTIQ_SUCCESS, nullptr, "close custom sink");

  optiq_destroy(&ctx);
  const int failures = check.total();
  if (rank == 0) {
    remove_dir(dir);
    std::printf("mpi_io_errors: %d failures\n", failures);
  }
  MPI_Finalize();
  return failures == 0 ? 0 : 1;
}
