#include "args.hpp"

#include <cstdlib>
#include <functional>
#include <map>

#include "optiq/error.hpp"
#include "optiq/pattern.hpp"

namespace optiq::driver {

std::string usage() {
  return "usage: optiq-driver --topology SPEC [--ranks-per-node R] (--pattern P [--bytes SIZE] [--planner X] |"
         " --plan FILE) [--transport p2p|rma] [--chunk SIZE] [--budget SIZE] [--threshold SIZE]"
         " [--queue forward-first|local-first|round-robin] [--iterations K] [--warmup W] [--seed S]"
         " [--sources M] [--dests N] [--start-src R] [--start-dst R] [--max-inflight N] [--agreement-baseline]"
         " [--routing MODEL] [--only optiq|mpi] [--mpi-p2p] [--shared-buffers]\n";
}

namespace {

int to_int(const std::string& flag, const std::string& v) {
  char* end = nullptr;
  const long x = std::strtol(v.c_str(), &end, 10);
  if (v.empty() || *end || x < -1000000000L || x > 1000000000L) throw Error(flag + ": not an integer: '" + v + "'");
  return static_cast<int>(x);
}

}  // namespace

Args parse_args(int argc, char** argv) {
  Args a;
  std::map<std::string, std::function<void(const std::string&)>> opts = {
      {"--topology", [&](const std::string& v) { a.topology = v; }},
      {"--ranks-per-node", [&](const std::string& v) { a.ranks_per_node = to_int("--ranks-per-node", v); }},
      {"--pattern", [&](const std::string& v) { a.pattern = v; }},
      {"--plan", [&](const std::string& v) { a.plan = v; }},
      {"--bytes", [&](const std::string& v) { a.bytes = v; }},
      {"--sources", [&](const std::string& v) { a.sources = to_int("--sources", v); }},
      {"--dests", [&](const std::string& v) { a.dests = to_int("--dests", v); }},
      {"--start-src", [&](const std::string& v) { a.start_src = to_int("--start-src", v); }},
      {"--start-dst", [&](const std::string& v) { a.start_dst = to_int("--start-dst", v); }},
      {"--seed", [&](const std::string& v) { a.seed = static_cast<std::uint64_t>(to_int("--seed", v)); }},
      {"--planner", [&](const std::string& v) { a.planner = v; }},
      {"--transport", [&](const std::string& v) { a.transport = v; }},
      {"--queue", [&](const std::string& v) { a.queue = v; }},
      {"--chunk", [&](const std::string& v) { a.chunk = parse_bytes(v); }},
      {"--budget", [&](const std::string& v) { a.budget = parse_bytes(v); }},
      {"--threshold", [&](const std::string& v) { a.threshold = parse_bytes(v); }},
      {"--iterations", [&](const std::string& v) { a.iterations = to_int("--iterations", v); }},
      {"--warmup", [&](const std::string& v) { a.warmup = to_int("--warmup", v); }},
      {"--max-inflight", [&](const std::string& v) { a.max_inflight = to_int("--max-inflight", v); }},
      {"--routing", [&](const std::string& v) { a.routing = v; }},
      {"--only", [&](const std::string& v) { a.only = v; }},
  };
  for (int i = 1; i < argc; ++i) {
    const std::string flag = argv[i];
    if (flag == "--help" || flag == "-h") throw Error(usage());
    if (flag == "--agreement-baseline") {
      a.agreement_baseline = true;
      continue;
    }
    if (flag == "--mpi-p2p") {
      a.mpi_p2p = true;
      continue;
    }
    if (flag == "--shared-buffers") {
      a.shared_buffers = true;
      continue;
    }
    auto it = opts.find(flag);
    if (it == opts.end()) throw Error("unknown argument '" + flag + "'");
    if (i + 1 >= argc) throw Error(flag + " needs a value");
    it->second(argv[++i]);
  }
  if (a.topology.empty()) throw Error("--topology is required");
  if (a.transport != "p2p" && a.transport != "rma")
    throw Error("--transport must be p2p or rma, not '" + a.transport + "'");
  if (a.queue != "forward-first" && a.queue != "local-first" && a.queue != "round-robin")
    throw Error("--queue must be forward-first, local-first or round-robin, not '" + a.queue + "'");
  if (!a.only.empty() && a.only != "optiq" && a.only != "mpi")
    throw Error("--only must be optiq or mpi, not '" + a.only + "'");
  if (a.agreement_baseline && !a.only.empty()) throw Error("--agreement-baseline times both; drop --only");
#ifndef OPTIQ_SMPI
  if (a.shared_buffers) throw Error("--shared-buffers needs the SimGrid SMPI build of the driver");
#endif
  if (a.iterations < 1) throw Error("--iterations must be at least 1");
  if (a.warmup < 0) throw Error("--warmup must not be negative");
  if (a.seed > 1000000000ULL) throw Error("--seed must be between 0 and 1e9");
  return a;
}

}  // namespace optiq::driver
