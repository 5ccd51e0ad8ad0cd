// The driver's exchange: per-rank counts and displacements (in bytes) for a named pattern or
// a plan file, and the deterministic contents of every message.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "tools/driver/args.hpp"

namespace optiq::driver {

struct Workload {
  std::vector<int> sendcounts, sdispls, recvcounts, rdispls;  // bytes, one entry per rank
  std::uint64_t send_bytes = 0, recv_bytes = 0;               // this rank's buffers
  std::uint64_t total_bytes = 0;                              // moved by all ranks together
  std::uint64_t pairs = 0;                                    // messages with bytes, all ranks
};

// Every rank derives the whole pattern from the same arguments and seed, keeping its own part.
Workload pattern_workload(const Args& args, int rank, int size);
// A request file's jobs between ranks (pairs named twice add up). Throws optiq::Error.
Workload requests_workload(const std::string& path, int rank, int size);
// From per-peer byte counts (a plan file's); totals are summed by the caller.
Workload counts_workload(const std::vector<long long>& sendbytes, const std::vector<long long>& recvbytes);

void fill_send(const Workload& w, unsigned char* buf, int rank, std::uint64_t salt);
void poison_recv(const Workload& w, unsigned char* buf, int rank, std::uint64_t salt);
// Messages received with at least one wrong byte.
int wrong_messages(const Workload& w, const unsigned char* buf, int rank, std::uint64_t salt);

}  // namespace optiq::driver
