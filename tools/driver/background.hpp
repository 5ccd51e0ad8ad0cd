// A second job's traffic, for simulations of a shared machine: ranks beyond the measured job
// stream data between pairs, each flow capped at a rate, until the job is done.
#pragma once

#include <string>
#include <vector>

namespace optiq::driver {

struct BackgroundFlow {
  int sender = 0, receiver = 0;  // MPI_COMM_WORLD ranks
  double rate = 0;               // bytes/s at most (inf: as fast as the network lets it)
  int streams = 1;               // messages it keeps in flight (each link shares among messages)
};

// Reads "SENDER RECEIVER RATE [STREAMS]" lines ('#' starts a comment). Every rank of a flow must be at
// or above `job_ranks` and below `world_size`, and in one flow only. Throws optiq::Error.
std::vector<BackgroundFlow> read_background(const std::string& path, int job_ranks, int world_size);

// A background rank's whole life: sends (or receives) its flow until world rank 0 says stop.
void run_background(const std::vector<BackgroundFlow>& flows, int world_rank);

// Called by world rank 0 once the job is done: every sender stops after its current message.
void stop_background(const std::vector<BackgroundFlow>& flows);

}  // namespace optiq::driver
