#include "tools/io_bench/args.hpp"

#include <mpi.h>

#include <cstdio>
#include <cstdlib>

#include "optiq/core/error.hpp"
#include "optiq/core/pattern.hpp"

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

void describe(CLI::App& app, Args& a) {
  app.option_defaults()->multi_option_policy(CLI::MultiOptionPolicy::TakeLast);  // a repeated option: the last counts
  app.add_option("--topology", a.topology, "the topology spec (default: torus:N/R)");
  app.add_option("--workload", a.workload)->check(CLI::IsMember({"hacc", "array"}));
  app.add_option("--layout", a.layout)->check(CLI::IsMember({"aos", "soa"}));
  app.add_option_function<std::string>("--per-rank", [&a](const std::string& v) {
    const Bytes b = parse_bytes(v);
    if (b > (Bytes(1) << 40)) throw CLI::ValidationError("--per-rank", "is limited to 1 TiB");
    a.per_rank = static_cast<long long>(b);
  });
  app.add_option("--dir", a.dir, "where the files go");
  app.add_option("--iterations", a.iterations)->check(CLI::Range(1, 100000));
  app.add_option("--warmup", a.warmup)->check(CLI::Range(0, 100000));
  app.add_option("--seed", a.seed)->check(CLI::Range(0ULL, 1ULL << 62));
  app.add_flag("--keep", a.keep, "leave both files in --dir");
  app.add_flag("--hints", a.hints, "ROMIO-style hints for MPI-IO matching optiq's settings");
  app.add_flag("--io-ranks", a.io_ranks, "the last ranks serve the I/O nodes (simulations)");
  app.add_flag("--disk", a.disk, "the I/O ranks store what they receive");
  tools::add_record_options(app, "runtime", a.runtime);
  tools::add_record_options(app, "io", a.io);
}

}  // namespace

void fail(const std::string& message) {
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  abort_job(message, rank == 0);
}

void fail_alone(const std::string& message) { abort_job(message, true); }

optiq_options Args::runtime_options() const {
  optiq_options o;
  optiq_options_init(&o);
  tools::apply_record_values(o, runtime);
  return o;
}

optiq_io_options Args::io_options() const {
  optiq_io_options o;
  optiq_io_options_init(&o);
  tools::apply_record_values(o, io);
  return o;
}

Args parse(int argc, char** argv) {
  Args a;
  CLI::App app{"The collective-write benchmark behind `optiq io-bench`.", "optiq-io-bench"};
  describe(app, a);
  try {
    tools::parse_command_line(app, argc, argv);
  } catch (const Error& e) {
    fail(e.what());
  }
  const std::string sink = get_option(a.io_options(), "sink");
  if (a.dir.empty() && !a.io_ranks) fail("--dir is required");
  if (a.disk && !a.io_ranks) fail("--disk is the I/O ranks' disk: it needs --io-ranks");
#ifndef OPTIQ_SMPI
  if (a.disk && a.dir.empty()) fail("--disk needs --dir for the I/O ranks' files");
#endif
  if (a.io_ranks && sink != "pwrite") fail("--io-ranks brings its own sink (the I/O nodes' ranks)");
  if (sink == "custom") fail("--sink is pwrite, mpiio or null");
  return a;
}

}  // namespace optiq::iobench
