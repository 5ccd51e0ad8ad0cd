// optiq-io-bench's command line: every rank parses the same arguments; a bad one ends the job.
#pragma once

#include <string>

namespace optiq::iobench {

struct Args {
  std::string topology, workload = "hacc", layout = "aos", files = "shared", dir, placement, sink = "pwrite";
  long long per_rank = 1 << 20;
  int ranks_per_node = 1, group_nodes = 128, aggregators = 16, iterations = 5, warmup = 1;
  unsigned long long buffer = 16ULL << 20, seed = 1;
  bool keep = false, hints = false, io_ranks = false, overlap = true;
  bool disk = false;
  bool forward = false;  // optiq_io_options.forward: rounds through the context's multi-path exchange  // the I/O ranks store what they receive (io-node.K in --dir; under SMPI, the node's disk)
};

Args parse(int argc, char** argv);

// Rank 0 prints "optiq-io-bench: error: MESSAGE" and the whole job ends (with --io-ranks the I/O
// nodes' ranks would otherwise wait for a last word that never comes).
[[noreturn]] void fail(const std::string& message);

// The same for an error only this rank meets (an I/O rank's disk): it prints the line itself.
[[noreturn]] void fail_alone(const std::string& message);

}  // namespace optiq::iobench
