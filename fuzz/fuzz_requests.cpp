// Request files (parse_requests): "src dst bytes [priority]" lines. The first two bytes of an input set
// the topology's node count. Beyond not crashing: every job is inside the topology, the bytes
// of all jobs add up within kMaxBytes, and the jobs written back as a request file read back
// the same.
#include <cstdint>
#include <string>
#include <vector>

#include "invariant.hpp"
#include "optiq/core/bytes.hpp"
#include "optiq/core/error.hpp"
#include "optiq/core/pattern.hpp"

using namespace optiq;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size < 2) return 0;
  const int num_nodes = 1 + (data[0] | data[1] << 8);
  const std::string text(reinterpret_cast<const char*>(data) + 2, size - 2);
  std::vector<Job> jobs;
  try {
    jobs = parse_requests(text, num_nodes, "fuzz");
  } catch (const Error&) {
    return 0;
  }
  FUZZ_CHECK(!jobs.empty(), "no jobs accepted");
  std::string again;
  for (const Job& j : jobs) {
    FUZZ_CHECK(j.src >= 0 && j.src < num_nodes && j.dst >= 0 && j.dst < num_nodes, "job %d->%d in %d nodes", j.src,
               j.dst, num_nodes);
    FUZZ_CHECK(j.priority >= 0 && j.priority <= kMaxPriority, "priority %d", j.priority);
    again += std::to_string(j.src) + " " + std::to_string(j.dst) + " " + format_bytes(j.bytes) + " " +
             std::to_string(j.priority) + "\n";
  }
  try {
    total_bytes(jobs);
  } catch (const Error& e) {
    FUZZ_CHECK(false, "accepted jobs whose total is refused: %s", e.what());
  }
  const std::vector<Job> back = parse_requests(again, num_nodes, "again");
  FUZZ_CHECK(back.size() == jobs.size(), "%zu jobs read back as %zu", jobs.size(), back.size());
  for (std::size_t i = 0; i < jobs.size(); ++i)
    FUZZ_CHECK(back[i].src == jobs[i].src && back[i].dst == jobs[i].dst && back[i].bytes == jobs[i].bytes &&
                   back[i].priority == jobs[i].priority,
               "job %zu reads back differently", i);
  return 0;
}
