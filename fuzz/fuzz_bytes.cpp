// Byte sizes as users type them (parse_bytes) and size specs drawn per job (assign_sizes).
// Beyond not crashing: a size is at most kMaxBytes and reads back the same from format_bytes
// and from plain digits; a size spec gives sizes within that limit, the same for the same seed.
#include <cstdint>
#include <string>
#include <vector>

#include "invariant.hpp"
#include "optiq/core/bytes.hpp"
#include "optiq/core/error.hpp"
#include "optiq/core/pattern.hpp"

using namespace optiq;

namespace {

void sizes(const std::string& spec) {
  const std::vector<Pair> pairs = {{0, 1}, {1, 2}, {2, 0}, {3, 3}, {4, 1}};
  std::vector<Job> a, b;
  try {
    a = assign_sizes(pairs, spec, 7);
  } catch (const Error&) {
    return;
  }
  b = assign_sizes(pairs, spec, 7);
  FUZZ_CHECK(a.size() == pairs.size(), "%zu jobs for %zu pairs", a.size(), pairs.size());
  for (std::size_t i = 0; i < a.size(); ++i) {
    FUZZ_CHECK(a[i].src == pairs[i].first && a[i].dst == pairs[i].second, "job %zu moved", i);
    FUZZ_CHECK(a[i].bytes <= kMaxBytes, "job %zu: %llu bytes", i, static_cast<unsigned long long>(a[i].bytes));
    FUZZ_CHECK(a[i].bytes == b[i].bytes, "job %zu differs between two draws of one seed", i);
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  try {
    const Bytes b = parse_bytes(text);
    const auto n = static_cast<unsigned long long>(b);
    FUZZ_CHECK(b <= kMaxBytes, "'%s' gives %llu", text.c_str(), n);
    FUZZ_CHECK(parse_bytes(format_bytes(b)) == b, "%llu formats as '%s'", n, format_bytes(b).c_str());
    FUZZ_CHECK(parse_bytes(std::to_string(b)) == b, "%llu in digits", n);
  } catch (const Error&) {
  }
  if (text.find(':') != std::string::npos) sizes(text);
  return 0;
}
