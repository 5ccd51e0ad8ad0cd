#include "args.hpp"

// SimGrid's SMPI build defines exit() as a macro, which CLI11's App::exit member cannot survive.
#pragma push_macro("exit")
#undef exit
#include <CLI/CLI.hpp>
#pragma pop_macro("exit")

#include "optiq/error.hpp"
#include "optiq/pattern.hpp"

namespace optiq::driver {

namespace {

CLI::App& describe(CLI::App& app, Args& a) {
  app.add_option("--topology", a.topology, "the topology spec, e.g. torus:2x2x2")->required();
  app.add_option("--ranks-per-node", a.ranks_per_node)->check(CLI::Range(1, 1 << 20));
  app.add_option("--pattern", a.pattern, "alltoall, shift, or a core pattern name");
  app.add_option("--plan", a.plan, "a plan file instead of a pattern and planner");
  app.add_option("--bytes", a.bytes);
  for (auto [flag, field] : {std::pair{"--sources", &a.sources}, {"--dests", &a.dests},
                             {"--start-src", &a.start_src}, {"--start-dst", &a.start_dst}})
    app.add_option(flag, *field)->check(CLI::Range(-1, 1000000000));
  app.add_option("--seed", a.seed)->check(CLI::Range(0, 1000000000));
  app.add_option("--planner", a.planner);
  app.add_option("--transport", a.transport)->check(CLI::IsMember({"p2p", "rma"}));
  app.add_option("--queue", a.queue)->check(CLI::IsMember({"forward-first", "local-first", "round-robin"}));
  for (auto [flag, field] : {std::pair{"--chunk", &a.chunk}, {"--budget", &a.budget}, {"--threshold", &a.threshold}})
    app.add_option_function<std::string>(flag, [field = field](const std::string& v) { *field = parse_bytes(v); });
  app.add_option("--iterations", a.iterations)->check(CLI::Range(1, 1000000000));
  app.add_option("--warmup", a.warmup)->check(CLI::Range(0, 1000000000));
  app.add_option("--max-inflight", a.max_inflight)->check(CLI::Range(1, 1000000000));
  app.add_option("--dispatch", a.dispatch)->check(CLI::IsMember({"paced", "eager"}));
  app.add_option("--min-gain", a.min_gain)->check(CLI::Range(0.0, 0.999999));
  app.add_option("--routing", a.routing);
  app.add_option("--only", a.only)->check(CLI::IsMember({"optiq", "mpi"}));
  app.add_flag("--agreement-baseline", a.agreement_baseline);
  app.add_flag("--mpi-p2p", a.mpi_p2p);
  app.add_flag("--shared-buffers", a.shared_buffers);
  app.add_option("--background", a.background, "SENDER RECEIVER RATE lines: a second job's flows");
  app.add_option("--job-ranks", a.job_ranks)->check(CLI::Range(1, 1 << 30));
  app.add_flag("--io-ranks", a.io_ranks, "the last ranks run one on each I/O node (simulations of I/O)");
  return app;
}

}  // namespace

std::string usage() {
  return "usage: optiq-driver --topology SPEC [--ranks-per-node R] (--pattern P [--bytes SIZE] [--planner X] |"
         " --plan FILE) [--transport p2p|rma] [--chunk SIZE] [--budget SIZE] [--threshold SIZE]"
         " [--queue forward-first|local-first|round-robin] [--iterations K] [--warmup W] [--seed S]"
         " [--sources M] [--dests N] [--start-src R] [--start-dst R] [--max-inflight N] [--dispatch paced|eager]"
         " [--min-gain FRACTION] [--agreement-baseline]"
         " [--routing MODEL] [--only optiq|mpi] [--mpi-p2p] [--shared-buffers]"
         " [--job-ranks J --background FLOWS]\n";
}

Args parse_args(int argc, char** argv) {
  Args a;
  CLI::App app{"The benchmark and verification driver behind `optiq run`.", "optiq-driver"};
  describe(app, a);
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp&) {
    throw Error(usage());
  } catch (const CLI::ParseError& e) {
    throw Error(e.what());
  }
  if (a.agreement_baseline && !a.only.empty()) throw Error("--agreement-baseline times both; drop --only");
#ifndef OPTIQ_SMPI
  if (a.shared_buffers) throw Error("--shared-buffers needs the SimGrid SMPI build of the driver");
#endif
  return a;
}

}  // namespace optiq::driver
