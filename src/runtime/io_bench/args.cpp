#include "args.hpp"

#include <mpi.h>

#include <cstdio>
#include <cstdlib>
#include <exception>
#include <string>

#include "optiq/optiq.h"

namespace optiq::iobench {

namespace {

[[noreturn]] void abort_job(const std::string& message, bool print) {
  if (print) {
    std::fprintf(stderr, "optiq-io-bench: error: %s\n", message.c_str());
    std::fflush(stderr);
  }
  MPI_Abort(MPI_COMM_WORLD, 2);
  std::exit(2);
}

}  // namespace

void fail(const std::string& message) {
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  abort_job(message, rank == 0);
}

void fail_alone(const std::string& message) { abort_job(message, true); }

namespace {

long long number(const std::string& flag, const std::string& text, long long lo, long long hi) {
  try {
    std::size_t used = 0;
    const long long v = std::stoll(text, &used);
    if (used == text.size() && v >= lo && v <= hi) return v;
  } catch (const std::exception&) {
  }
  fail(flag + " wants an integer in [" + std::to_string(lo) + ", " + std::to_string(hi) + "], got '" + text + "'");
}

unsigned long long size(const std::string& flag, const std::string& text) {
  unsigned long long v = 0;
  if (optiq_parse_size(text.c_str(), &v) != OPTIQ_SUCCESS) fail(flag + ": not a byte size: '" + text + "'");
  return v;
}

}  // namespace

Args parse(int argc, char** argv) {
  Args a;
  for (int i = 1; i < argc; ++i) {
    const std::string f = argv[i];
    if (f == "--keep") { a.keep = true; continue; }
    if (f == "--hints") { a.hints = true; continue; }
    if (f == "--io-ranks") { a.io_ranks = true; continue; }
    if (f == "--disk") { a.disk = true; continue; }
    if (f == "--forward") { a.forward = true; continue; }
    if (f == "--no-overlap") { a.overlap = false; continue; }
    if (i + 1 >= argc) fail("missing value after " + f);
    const std::string v = argv[++i];
    if (f == "--topology") a.topology = v;
    else if (f == "--ranks-per-node") a.ranks_per_node = int(number(f, v, 1, 1 << 20));
    else if (f == "--workload") a.workload = v;
    else if (f == "--layout") a.layout = v;
    else if (f == "--per-rank") a.per_rank = (long long)size(f, v);
    else if (f == "--files") a.files = v;
    else if (f == "--group-nodes") a.group_nodes = int(number(f, v, 1, 1 << 30));
    else if (f == "--aggregators") a.aggregators = int(number(f, v, 1, 1 << 20));
    else if (f == "--buffer") a.buffer = size(f, v);
    else if (f == "--placement") a.placement = v;
    else if (f == "--sink") a.sink = v;
    else if (f == "--dir") a.dir = v;
    else if (f == "--iterations") a.iterations = int(number(f, v, 1, 100000));
    else if (f == "--warmup") a.warmup = int(number(f, v, 0, 100000));
    else if (f == "--seed") a.seed = (unsigned long long)number(f, v, 0, (1LL << 62));
    else fail("unknown option " + f);
  }
  if (a.dir.empty() && !a.io_ranks) fail("--dir is required");
  if (a.disk && !a.io_ranks) fail("--disk is the I/O ranks' disk: it needs --io-ranks");
#ifndef OPTIQ_SMPI
  if (a.disk && a.dir.empty()) fail("--disk needs --dir for the I/O ranks' files");
#endif
  if (a.io_ranks && a.sink != "pwrite") fail("--io-ranks brings its own sink (the I/O nodes' ranks)");
  if (a.files != "shared" && a.files != "pset") fail("--files is shared or pset, got '" + a.files + "'");
  if (a.sink != "pwrite" && a.sink != "mpiio" && a.sink != "null") fail("--sink is pwrite, mpiio or null");
  if (a.per_rank > (1LL << 40)) fail("--per-rank is limited to 1 TiB");
  return a;
}

}  // namespace optiq::iobench
