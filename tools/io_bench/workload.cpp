#include "tools/io_bench/workload.hpp"

#include <stdexcept>

#include "optiq/core/aggregation.hpp"

namespace optiq::iobench {

long long RankData::bytes() const {
  long long n = 0;
  for (const auto& d : data) n += (long long)d.size();
  return n;
}

std::vector<RankData> file_patterns(const std::string& workload, const std::string& layout, int members,
                                    long long per_rank) {
  std::vector<RankData> out(members);
  if (workload == "array") {
    for (int r = 0; r < members; ++r) out[r].vars.push_back({{r * per_rank, per_rank, 1, 0}});
    return out;
  }
  if (workload != "hacc") throw std::invalid_argument("unknown workload '" + workload + "' (hacc or array)");
  if (layout != "aos" && layout != "soa") throw std::invalid_argument("unknown layout '" + layout + "' (aos or soa)");
  const long long particles = per_rank / kHaccParticleBytes;
  const long long total = particles * members;
  long long field = 0;  // the variable's offset inside a particle
  for (int size : kHaccVariableBytes) {
    for (int r = 0; r < members; ++r) {
      if (layout == "aos")
        out[r].vars.push_back({{r * particles * kHaccParticleBytes + field, size, particles, kHaccParticleBytes}});
      else
        out[r].vars.push_back({{total * field + r * particles * size, particles * size, 1, 0}});
    }
    field += size;
  }
  return out;
}

void fill(RankData& r, int rank, unsigned long long seed) {
  r.data.clear();
  for (std::size_t v = 0; v < r.vars.size(); ++v) {
    long long n = 0;
    for (const auto& e : r.vars[v]) n += e.bytes * e.count;
    std::vector<char> d(static_cast<std::size_t>(n));
    unsigned long long x = seed ^ (0x9E3779B97F4A7C15ULL * (unsigned long long)(rank + 1)) ^ (v << 56);
    for (auto& c : d) {
      x ^= x << 13, x ^= x >> 7, x ^= x << 17;
      c = static_cast<char>(x);
    }
    r.data.push_back(std::move(d));
  }
}

}  // namespace optiq::iobench
