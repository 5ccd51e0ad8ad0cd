// optiq-io-bench's command line: every rank parses the same arguments; a bad one ends the job.
#pragma once

#include <string>

#include "optiq/io.h"
#include "tools/common/record_options.hpp"

namespace optiq::iobench {

struct Args {
  std::string topology, workload = "hacc", layout = "aos", dir;
  long long per_rank = 1 << 20;
  int iterations = 5, warmup = 1;
  unsigned long long seed = 1;
  bool keep = false, hints = false, io_ranks = false;
  bool disk = false;  // the I/O ranks store what they receive (io-node.K in --dir; under SMPI, the node's disk)
  tools::RecordValues runtime, io;  // the runtime's and the I/O library's options as given

  // The options these values describe (text fields point into this Args).
  optiq_options runtime_options() const;
  optiq_io_options io_options() const;
};

Args parse(int argc, char** argv);

// Rank 0 prints "optiq-io-bench: error: MESSAGE" and the whole job ends (with --io-ranks the I/O
// nodes' ranks would otherwise wait for a last word that never comes).
[[noreturn]] void fail(const std::string& message);

// The same for an error only this rank meets (an I/O rank's disk): it prints the line itself.
[[noreturn]] void fail_alone(const std::string& message);

}  // namespace optiq::iobench
