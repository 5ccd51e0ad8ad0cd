#include "tools/driver/args.hpp"

#include "optiq/core/error.hpp"

namespace optiq::driver {

namespace {

void describe(CLI::App& app, Args& a) {
  app.option_defaults()->multi_option_policy(CLI::MultiOptionPolicy::TakeLast);  // a repeated option: the last counts
  app.add_option("--topology", a.topology, "the topology spec, e.g. torus:2x2x2")->required();
  app.add_option("--pattern", a.pattern, "alltoall, shift, or a core pattern name");
  app.add_option("--plan", a.plan, "a plan file instead of a pattern and planner");
  app.add_option("--requests", a.requests, "SRC DST BYTES lines between ranks instead of a pattern");
  app.add_option("--bytes", a.bytes, "bytes per message, or a size law of optiq's");
  for (auto [flag, field] : {std::pair{"--sources", &a.sources}, {"--dests", &a.dests},
                             {"--start-src", &a.start_src}, {"--start-dst", &a.start_dst}})
    app.add_option(flag, *field)->check(CLI::Range(-1, 1000000000));
  app.add_option("--seed", a.seed)->check(CLI::Range(0, 1000000000));
  tools::add_record_options(app, "runtime", a.runtime);
  app.add_option("--iterations", a.iterations)->check(CLI::Range(1, 1000000000));
  app.add_option("--warmup", a.warmup)->check(CLI::Range(0, 1000000000));
  app.add_option("--only", a.only)->check(CLI::IsMember({"optiq", "mpi"}));
  app.add_flag("--agreement-baseline", a.agreement_baseline, "also time MPI_Alltoallv after an allgather");
  app.add_flag("--mpi-p2p", a.mpi_p2p, "time MPI_Isend/MPI_Irecv of the non-empty messages instead");
  app.add_flag("--shared-buffers", a.shared_buffers, "SMPI only: one shared allocation, bytes unchecked");
  app.add_option("--background", a.background, "SENDER RECEIVER RATE lines: a second job's flows");
  app.add_option("--job-ranks", a.job_ranks)->check(CLI::Range(1, 1 << 30));
  app.add_flag("--io-ranks", a.io_ranks, "the last ranks run one on each I/O node (simulations of I/O)");
  app.add_option("--compute", a.compute, "start each call non-blocking, compute this many seconds, then wait")
      ->check(CLI::Range(0.0, 3600.0));
  app.add_flag("--progress-calls", a.progress_calls,
               "with --compute: optiq_progress (MPI_Test for MPI) between slices of the computation");
}

}  // namespace

Args parse_args(int argc, char** argv) {
  Args a;
  CLI::App app{"The benchmark and verification driver behind `optiq run`.", "optiq-driver"};
  describe(app, a);
  tools::parse_command_line(app, argc, argv);
  if (a.progress_calls && a.compute <= 0) throw Error("--progress-calls needs --compute SECONDS");
  if (a.compute > 0 && a.agreement_baseline) throw Error("--compute times non-blocking calls; drop --agreement-baseline");
  if (a.compute > 0 && !a.plan.empty()) throw Error("--compute overlaps alltoallv calls, not plan files");
  if (!a.plan.empty() && !a.requests.empty()) throw Error("--plan and --requests both name the exchange; give one");
  if (a.agreement_baseline && !a.only.empty()) throw Error("--agreement-baseline times both; drop --only");
#ifndef OPTIQ_SMPI
  if (a.shared_buffers) throw Error("--shared-buffers needs the SimGrid SMPI build of the driver");
#endif
  return a;
}

}  // namespace optiq::driver
