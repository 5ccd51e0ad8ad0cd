#include "exchange/driver/args.hpp"

#include <cstdlib>
#include <stdexcept>

namespace optiq::sxdriver {

std::string usage() {
  return "usage: optiq-exchange [--neighbors K] [--bytes SIZE] [--protocol nbx,pcx,pex,rsx,auto]"
         " [--barrier auto|ibarrier|dissemination] [--iterations I] [--warmup W] [--seed S] [--no-verify]\n";
}

namespace {

long to_long(const std::string& flag, const std::string& v, long lo, long hi) {
  char* end = nullptr;
  const long x = std::strtol(v.c_str(), &end, 10);
  if (v.empty() || *end || x < lo || x > hi)
    throw std::runtime_error(flag + " must be an integer from " + std::to_string(lo) + " to " + std::to_string(hi) +
                             ", not '" + v + "'");
  return x;
}

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

std::uint64_t parse_size(const std::string& text) {
  size_t i = 0;
  while (i < text.size() && text[i] >= '0' && text[i] <= '9') ++i;
  const std::string unit = text.substr(i);
  std::uint64_t factor = 0;
  if (unit.empty() || unit == "B") factor = 1;
  else if (unit == "k" || unit == "K" || unit == "kB" || unit == "KB") factor = 1000;
  else if (unit == "M" || unit == "MB") factor = 1000000;
  else if (unit == "Ki" || unit == "KiB") factor = 1ULL << 10;
  else if (unit == "Mi" || unit == "MiB") factor = 1ULL << 20;
  else if (unit == "Gi" || unit == "GiB") factor = 1ULL << 30;
  if (i == 0 || i > 12 || factor == 0) throw std::runtime_error("bad byte size '" + text + "' (e.g. 1024, 64KiB, 8MiB)");
  return std::stoull(text.substr(0, i)) * factor;
}

Args parse_args(int argc, char** argv) {
  Args a;
  for (int i = 1; i < argc; ++i) {
    const std::string flag = argv[i];
    if (flag == "--help" || flag == "-h") throw std::runtime_error(usage());
    if (flag == "--no-verify") {
      a.verify = false;
      continue;
    }
    if (i + 1 >= argc) throw std::runtime_error(flag.rfind("--", 0) == 0 ? flag + " needs a value"
                                                                          : "unknown argument '" + flag + "'");
    const std::string v = argv[++i];
    if (flag == "--neighbors") {
      a.neighbors = static_cast<int>(to_long(flag, v, 0, 1000000));
    } else if (flag == "--bytes") {
      a.bytes = parse_size(v);
      if (a.bytes > 0x7fffffffULL) throw std::runtime_error("--bytes must be below 2 GiB (message sizes are int)");
    } else if (flag == "--protocol") {
      a.protocols.clear();
      size_t start = 0;
      while (start <= v.size()) {
        const size_t comma = v.find(',', start);
        const std::string name = v.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
        if (!name.empty()) a.protocols.push_back(protocol_named(name));
        if (comma == std::string::npos) break;
        start = comma + 1;
      }
      if (a.protocols.empty()) throw std::runtime_error("--protocol names no protocol");
    } else if (flag == "--barrier") {
      a.barrier = barrier_named(v);
    } else if (flag == "--iterations") {
      a.iterations = static_cast<int>(to_long(flag, v, 1, 1000000));
    } else if (flag == "--warmup") {
      a.warmup = static_cast<int>(to_long(flag, v, 0, 1000000));
    } else if (flag == "--seed") {
      a.seed = static_cast<std::uint64_t>(to_long(flag, v, 0, 1000000000L));
    } else {
      throw std::runtime_error("unknown argument '" + flag + "'");
    }
  }
  return a;
}

}  // namespace optiq::sxdriver
