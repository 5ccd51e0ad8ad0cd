#include "tools/driver/background.hpp"

#include <mpi.h>
#include <time.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>
#include <fstream>
#include <set>
#include <sstream>

#include "optiq/core/error.hpp"

namespace optiq::driver {

namespace {

constexpr int kMessage = 256 << 10;  // bytes per background message
constexpr int kTagData = 9001, kTagEnd = 9002, kTagStop = 9003;

// Under SMPI, nanosleep is the simulator's: the rank waits in simulated time.
void pause_for(double seconds) {
  timespec t{static_cast<time_t>(seconds), static_cast<long>((seconds - std::floor(seconds)) * 1e9)};
  nanosleep(&t, nullptr);
}

bool stop_requested() {
  int stop = 0;
  MPI_Iprobe(0, kTagStop, MPI_COMM_WORLD, &stop, MPI_STATUS_IGNORE);
  if (stop) MPI_Recv(nullptr, 0, MPI_BYTE, 0, kTagStop, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  return stop != 0;
}

// Rounds of `streams` messages, each round no earlier than the rate allows: a flow below its
// cap runs at whatever share of its links the network gives it.
void send_until_stopped(const BackgroundFlow& f) {
  const int streams = f.streams;
  std::vector<char> buf(static_cast<std::size_t>(kMessage) * streams);
  std::vector<MPI_Request> req(streams);
  const double start = MPI_Wtime(), round_bytes = static_cast<double>(kMessage) * streams;
  for (std::uint64_t rounds = 0; !stop_requested();) {
    if (std::isfinite(f.rate)) {
      const double due = start + static_cast<double>(rounds) * round_bytes / f.rate, now = MPI_Wtime();
      if (due > now) {
        pause_for(std::min(due - now, 1e-3));  // wakes up now and then to look for the stop
        continue;
      }
    }
    for (int i = 0; i < streams; ++i)
      MPI_Isend(buf.data() + static_cast<std::size_t>(i) * kMessage, kMessage, MPI_BYTE, f.receiver, kTagData,
                MPI_COMM_WORLD, &req[i]);
    MPI_Waitall(streams, req.data(), MPI_STATUSES_IGNORE);
    ++rounds;
  }
  for (int i = 0; i < streams; ++i) MPI_Send(nullptr, 0, MPI_BYTE, f.receiver, kTagEnd, MPI_COMM_WORLD);
}

void receive_until_end(const BackgroundFlow& f) {
  const int streams = f.streams;
  std::vector<char> buf(static_cast<std::size_t>(kMessage) * streams);
  std::vector<MPI_Request> req(streams);
  std::vector<MPI_Status> st(streams);
  for (bool end = false; !end;) {
    for (int i = 0; i < streams; ++i)
      MPI_Irecv(buf.data() + static_cast<std::size_t>(i) * kMessage, kMessage, MPI_BYTE, f.sender, MPI_ANY_TAG,
                MPI_COMM_WORLD, &req[i]);
    MPI_Waitall(streams, req.data(), st.data());
    for (const MPI_Status& s : st) end = end || s.MPI_TAG == kTagEnd;
  }
}

}  // namespace

std::vector<BackgroundFlow> read_background(const std::string& path, int job_ranks, int world_size) {
  std::ifstream in(path);
  if (!in) throw Error("--background: cannot read " + path);
  std::vector<BackgroundFlow> flows;
  std::set<int> seen;
  std::string line;
  for (int n = 1; std::getline(in, line); ++n) {
    if (const auto hash = line.find('#'); hash != std::string::npos) line.resize(hash);
    std::istringstream words(line);
    BackgroundFlow f;
    std::string rate, extra;
    int streams = 1;
    if (!(words >> f.sender)) {
      if (words.eof() && line.find_first_not_of(" \t\r") == std::string::npos) continue;  // blank
      throw Error(path + ":" + std::to_string(n) + ": expected SENDER RECEIVER RATE [STREAMS]");
    }
    if (!(words >> f.receiver >> rate) || (!(words >> streams) && !words.eof()) || (words >> extra))
      throw Error(path + ":" + std::to_string(n) + ": expected SENDER RECEIVER RATE [STREAMS]");
    if (streams < 1 || streams > 1024)
      throw Error(path + ":" + std::to_string(n) + ": STREAMS must be 1..1024");
    f.streams = streams;
    try {
      std::size_t used = 0;
      f.rate = rate == "inf" ? INFINITY : std::stod(rate, &used);
      if (rate != "inf" && used != rate.size()) throw std::invalid_argument(rate);
    } catch (const std::exception&) {
      throw Error(path + ":" + std::to_string(n) + ": the rate '" + rate + "' is not a number");
    }
    if (!(f.rate > 0)) throw Error(path + ":" + std::to_string(n) + ": the rate must be positive");
    for (int r : {f.sender, f.receiver}) {
      if (r < job_ranks || r >= world_size)
        throw Error(path + ":" + std::to_string(n) + ": rank " + std::to_string(r) + " is not a background rank (" +
                    std::to_string(job_ranks) + ".." + std::to_string(world_size - 1) + ")");
      if (!seen.insert(r).second)
        throw Error(path + ":" + std::to_string(n) + ": rank " + std::to_string(r) + " is in two flows");
    }
    flows.push_back(f);
  }
  if (static_cast<int>(seen.size()) != world_size - job_ranks)
    throw Error(path + ": " + std::to_string(world_size - job_ranks) + " ranks beyond the job, but " +
                std::to_string(seen.size()) + " in flows");
  return flows;
}

void run_background(const std::vector<BackgroundFlow>& flows, int world_rank) {
  for (const BackgroundFlow& f : flows) {
    if (f.sender == world_rank) return send_until_stopped(f);
    if (f.receiver == world_rank) return receive_until_end(f);
  }
}

void stop_background(const std::vector<BackgroundFlow>& flows) {
  for (const BackgroundFlow& f : flows) MPI_Send(nullptr, 0, MPI_BYTE, f.sender, kTagStop, MPI_COMM_WORLD);
}

}  // namespace optiq::driver
