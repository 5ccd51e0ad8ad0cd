#include "tools/exchange/args.hpp"

#include "tools/common/cli.hpp"

#include <sstream>
#include <stdexcept>

#include "optiq/core/error.hpp"
#include "optiq/core/pattern.hpp"

namespace optiq::sxdriver {

std::string usage() {
  return "usage: optiq-exchange [--neighbors K] [--bytes SIZE] [--protocol nbx,pcx,pex,rsx,auto]"
         " [--barrier auto|ibarrier|dissemination] [--iterations I] [--warmup W] [--seed S] [--no-verify]\n";
}

namespace {

optiq_sx_protocol protocol_named(const std::string& name) {
  for (int p = OPTIQ_SX_AUTO; p <= OPTIQ_SX_NBX; ++p)
    if (name == optiq_sx_protocol_name(static_cast<optiq_sx_protocol>(p))) return static_cast<optiq_sx_protocol>(p);
  throw std::runtime_error("unknown protocol '" + name + "' (known: nbx, pcx, pex, rsx, auto)");
}

optiq_sx_barrier barrier_named(const std::string& name) {
  for (int b = OPTIQ_SX_BARRIER_AUTO; b <= OPTIQ_SX_BARRIER_DISSEMINATION; ++b)
    if (name == optiq_sx_barrier_name(static_cast<optiq_sx_barrier>(b))) return static_cast<optiq_sx_barrier>(b);
  throw std::runtime_error("--barrier must be auto, ibarrier or dissemination, not '" + name + "'");
}

}  // namespace

Args parse_args(int argc, char** argv) {
  Args a;
  CLI::App app{"The sparse data exchange microbenchmark behind `optiq exchange`.", "optiq-exchange"};
  app.add_option("--neighbors", a.neighbors, "messages each rank sends per exchange")->check(CLI::Range(0, 1000000));
  app.add_option_function<std::string>("--bytes", [&](const std::string& v) {
    a.bytes = optiq::parse_bytes(v);
    if (a.bytes > 0x7fffffffULL) throw CLI::ValidationError("--bytes", "must be below 2 GiB (message sizes are int)");
  });
  app.add_option_function<std::string>("--protocol", [&](const std::string& v) {
    a.protocols.clear();
    std::stringstream names(v);
    for (std::string name; std::getline(names, name, ',');)
      if (!name.empty()) a.protocols.push_back(protocol_named(name));
    if (a.protocols.empty()) throw CLI::ValidationError("--protocol", "names no protocol");
  });
  app.add_option_function<std::string>("--barrier", [&](const std::string& v) { a.barrier = barrier_named(v); });
  app.add_option("--iterations", a.iterations)->check(CLI::Range(1, 1000000));
  app.add_option("--warmup", a.warmup)->check(CLI::Range(0, 1000000));
  app.add_option("--seed", a.seed)->check(CLI::Range(0, 1000000000));
  app.add_flag("--no-verify{false}", a.verify, "do not fill and check the bytes");
  tools::parse_command_line(app, argc, argv, usage());
  return a;
}

}  // namespace optiq::sxdriver
