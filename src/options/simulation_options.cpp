// The simulated machine's settings: the one place their defaults are written. The Python
// simulation layer (python/optiq/simulation) and the commands that build networks read them.
#include "optiq/core/aggregation.hpp"
#include "optiq/core/network.hpp"
#include "options/table.hpp"

namespace optiq::options {

const std::vector<OptionRecord>& simulation_records() {
  static const std::vector<OptionRecord> records = [] {
    std::vector<OptionRecord> r{
        real("link-bandwidth", format_number(kBgqLinkBandwidth), 1, 1e15,
             "bytes/s per link and direction of generated networks (the default is BG/Q's usable rate); a graph file's "
             "links keep their own, and a fat-tree's or dragonfly's cables carry their count times it"),
        real("latency", format_number(kHopLatency), 0, 1, "seconds per link crossed"),
        // Measured on this machine kind (docs/simulation.md, "CPU costs charged in simulated time").
        with_special(real("copy-bandwidth", "3.4e9", 1, 1e15, "bytes/s at which a forwarding rank copies what it relays"),
                     "inf", "copies that cost nothing"),
        real("message-overhead", "4e-7", 0, 1, "seconds charged per message sent below 64 KiB (SMPI's smpi/os)"),
        // Measured by bench/poll_cost.py (bench/results/poll_cost.md).
        real("poll-cost", "1.7e-8", 0, 1, "seconds charged per request tested (smpi/test)"),
        real("probe-cost", "2.7e-8", 0, 1, "seconds charged per MPI_Iprobe (smpi/iprobe)"),
        // FFTW 3.3.10 on one core of this machine kind, NPB FT class B on one rank: 9.0e9 flop/s
        // counted as 5 n log2 n per line (docs/applications.md, "NAS FT").
        real("fft-rate", "9e9", 1, 1e15, "flop/s at which a simulated rank runs its local FFTs (5 n log2 n per line of n points)"),
    };
    for (auto& record : r) record.field = record.name;
    return r;
  }();
  return records;
}

}  // namespace optiq::options
