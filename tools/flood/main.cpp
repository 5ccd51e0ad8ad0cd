// optiq-flood: nishtala2009's link microbenchmarks on a torus, for MPI_Isend/MPI_Irecv, MPI RMA
// puts and optiq.
//
//   flood:   node 0 streams messages of one size to k of its torus neighbours (one per link,
//            round-robin, all nonblocking); bandwidth = bytes delivered / time to the last
//            acknowledgement. optiq moves the same bytes in one optiq_alltoallv with the message
//            size as its chunk, so its plan may send one neighbour's bytes over several links.
//   latency: a round trip of an N-byte transfer and its acknowledgement between node 0 and its
//            first neighbour: MPI_Send + a 0-byte reply, MPI_Put + MPI_Win_unlock (remote
//            completion), or an optiq_alltoallv on a context of the two ranks and a 0-byte
//            reply.
//
// One rank per node, rank r on node r; every delivered byte is checked. Rank 0 prints one JSON
// line. Builds with smpicxx too: its bench (bench/applications/flood.py) runs it in SMPI.
#include <mpi.h>

#include <algorithm>
#include <cstdio>
#include <stdexcept>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "optiq/core/error.hpp"
#include "optiq/core/network.hpp"
#include "optiq/core/pattern.hpp"
#include "optiq/optiq.h"
#include "tools/common/cli.hpp"
#include "tools/common/tool_main.hpp"
#include "tools/common/record_options.hpp"

namespace {

struct Args {
  std::string topology;
  std::vector<int> links{1, 2, 4, 6};
  std::vector<std::string> sizes{"512", "2KiB", "8KiB", "32KiB", "128KiB", "512KiB", "2MiB"};
  std::vector<std::string> latency_sizes{"1", "8", "64", "512"};
  std::vector<std::string> methods{"isend", "put", "optiq"};
  int messages = 32;  // per link and size
  int repeats = 10;   // round trips per latency size
  optiq::tools::RecordValues runtime;
};

Args parse_args(int argc, char** argv) {
  Args a;
  CLI::App app{"nishtala2009's flood bandwidth and latency on a torus: MPI two-sided, MPI RMA and optiq.",
               "optiq-flood"};
  app.option_defaults()->multi_option_policy(CLI::MultiOptionPolicy::TakeLast);
  app.add_option("--topology", a.topology, "a torus spec: bgq:..., mira:N, torus:...")->required();
  app.add_option("--links", a.links, "how many of node 0's links to flood")->delimiter(',');
  app.add_option("--sizes", a.sizes, "message sizes of the flood")->delimiter(',');
  app.add_option("--latency-sizes", a.latency_sizes, "transfer sizes of the round trips")->delimiter(',');
  app.add_option("--methods", a.methods, "isend, put, optiq")->delimiter(',')->check(CLI::IsMember({"isend", "put", "optiq"}));
  app.add_option("--messages", a.messages, "messages per link and size")->check(CLI::Range(1, 100000));
  app.add_option("--repeats", a.repeats, "round trips per latency size")->check(CLI::Range(1, 100000));
  optiq::tools::add_record_options(app, "runtime", a.runtime);
  optiq::tools::parse_command_line(app, argc, argv);
  return a;
}

std::vector<long long> byte_sizes(const std::vector<std::string>& texts, long long most) {
  std::vector<long long> out;
  for (const auto& t : texts) {
    const long long b = static_cast<long long>(optiq::parse_bytes(t));
    if (b < 1 || b > most) throw optiq::Error("size " + t + " must be between 1 byte and " + std::to_string(most));
    out.push_back(b);
  }
  return out;
}

// Node 0's distinct neighbours, by port: +A, -A, +B, -B, ... (a size-2 ring has one).
std::vector<int> neighbours(const std::string& spec) {
  const optiq::Network net = optiq::parse_network(spec);
  const optiq::TorusShape* t = net.torus();
  if (!t) throw optiq::Error("--topology " + spec + ": the flood benchmark needs a torus (bgq, mira or torus)");
  std::vector<int> out;
  for (int d = 0; d < t->dims(); ++d)
    for (int dir : {+1, -1}) {
      const int n = t->step(0, d, dir);
      if (n > 0 && std::find(out.begin(), out.end(), n) == out.end()) out.push_back(n);
    }
  return out;
}

unsigned char byte_at(int link, long long offset) { return static_cast<unsigned char>(link * 131 + offset * 7 + 1); }

struct Flood {
  int k;
  long long size;
  long long per_link() const { return size * messages; }
  int messages;
};

// The sender's data for k links, link j's bytes at j * per_link.
std::vector<unsigned char> source_bytes(const Flood& f) {
  std::vector<unsigned char> out(static_cast<std::size_t>(f.k) * f.per_link());
  for (int j = 0; j < f.k; ++j)
    for (long long o = 0; o < f.per_link(); ++o) out[j * f.per_link() + o] = byte_at(j, o);
  return out;
}

bool intact(const unsigned char* got, int link, long long n) {
  for (long long o = 0; o < n; ++o)
    if (got[o] != byte_at(link, o)) return false;
  return true;
}

// optiq's flood: one optiq_alltoallv from rank 0 to its k neighbours, the message size as the
// chunk (every direct or forwarded message carries at most that).
struct OptiqFlood {
  optiq_t ctx = nullptr;
  std::vector<int> scounts, sdispls, rcounts, rdispls;

  void setup(const Flood& f, const std::vector<int>& nbr, int rank, int size, const optiq_options& base,
             const std::string& topology) {
    optiq_options o = base;
    optiq_options_set(&o, "chunk", std::to_string(f.size).c_str(), nullptr, 0);
    if (optiq_create(MPI_COMM_WORLD, topology.c_str(), &o, &ctx) != OPTIQ_SUCCESS)
      throw optiq::Error(std::string("optiq_create: ") + optiq_error_string(ctx));
    scounts.assign(size, 0), sdispls.assign(size, 0), rcounts.assign(size, 0), rdispls.assign(size, 0);
    for (int j = 0; j < f.k; ++j) {
      if (rank == 0) scounts[nbr[j]] = static_cast<int>(f.per_link()), sdispls[nbr[j]] = static_cast<int>(j * f.per_link());
      if (rank == nbr[j]) rcounts[0] = static_cast<int>(f.per_link());
    }
  }
  void run(const void* send, void* recv) {
    if (optiq_alltoallv(send, scounts.data(), sdispls.data(), MPI_BYTE, recv, rcounts.data(), rdispls.data(),
                        MPI_BYTE, ctx) != OPTIQ_SUCCESS)
      throw optiq::Error(std::string("optiq_alltoallv: ") + optiq_error_string(ctx));
  }
  ~OptiqFlood() {
    if (ctx) optiq_destroy(&ctx);
  }
};

// Returns (seconds at rank 0, every byte right) for one flood; collective.
std::pair<double, bool> flood(const std::string& method, const Flood& f, const std::vector<int>& nbr, int rank,
                              int size, const optiq_options& base, const std::string& topology) {
  const int link = static_cast<int>(std::find(nbr.begin(), nbr.begin() + f.k, rank) - nbr.begin());
  const bool receiver = link < f.k;
  std::vector<unsigned char> send = rank == 0 ? source_bytes(f) : std::vector<unsigned char>{};
  std::vector<unsigned char> recv(receiver ? f.per_link() : 0);
  MPI_Win win = MPI_WIN_NULL;
  if (method == "put")
    MPI_Win_create(recv.data(), static_cast<MPI_Aint>(recv.size()), 1, MPI_INFO_NULL, MPI_COMM_WORLD, &win);
  std::vector<MPI_Request> reqs;
  if (method == "isend" && receiver)
    for (int m = 0; m < f.messages; ++m) {
      reqs.emplace_back();
      MPI_Irecv(recv.data() + m * f.size, static_cast<int>(f.size), MPI_BYTE, 0, m, MPI_COMM_WORLD, &reqs.back());
    }
  OptiqFlood optiq;
  if (method == "optiq") {
    optiq.setup(f, nbr, rank, size, base, topology);
    optiq.run(send.data(), recv.data());  // untimed: plans the pattern, which later calls reuse
    std::fill(recv.begin(), recv.end(), 0);  // so that the check sees the timed call's bytes
  }
  MPI_Barrier(MPI_COMM_WORLD);
  const double t0 = MPI_Wtime();
  if (method == "isend") {
    if (rank == 0)
      for (int m = 0; m < f.messages; ++m)
        for (int j = 0; j < f.k; ++j) {
          reqs.emplace_back();
          MPI_Isend(send.data() + j * f.per_link() + m * f.size, static_cast<int>(f.size), MPI_BYTE, nbr[j], m,
                    MPI_COMM_WORLD, &reqs.back());
        }
    MPI_Waitall(static_cast<int>(reqs.size()), reqs.data(), MPI_STATUSES_IGNORE);
    if (receiver) MPI_Send(nullptr, 0, MPI_BYTE, 0, f.messages, MPI_COMM_WORLD);
    if (rank == 0)
      for (int j = 0; j < f.k; ++j) MPI_Recv(nullptr, 0, MPI_BYTE, nbr[j], f.messages, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  } else if (method == "put") {
    if (rank == 0) {
      MPI_Win_lock_all(0, win);
      for (int m = 0; m < f.messages; ++m)
        for (int j = 0; j < f.k; ++j)
          MPI_Put(send.data() + j * f.per_link() + m * f.size, static_cast<int>(f.size), MPI_BYTE, nbr[j],
                  static_cast<MPI_Aint>(m * f.size), static_cast<int>(f.size), MPI_BYTE, win);
      MPI_Win_flush_all(win);  // remote completion: every put is in its target's memory
      MPI_Win_unlock_all(win);
    }
  } else {
    optiq.run(send.data(), recv.data());
  }
  double seconds = MPI_Wtime() - t0;
  if (win != MPI_WIN_NULL) {
    MPI_Barrier(MPI_COMM_WORLD);  // the receivers read their windows only after the flush
    MPI_Win_free(&win);
  }
  MPI_Allreduce(MPI_IN_PLACE, &seconds, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  int ok = !receiver || intact(recv.data(), link, f.per_link());
  MPI_Allreduce(MPI_IN_PLACE, &ok, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  return {seconds, ok != 0};
}

// Mean round trip of `bytes` from rank 0 to its first neighbour and back; collective.
std::pair<double, bool> round_trip(const std::string& method, long long bytes, int repeats, int peer, int rank,
                                   MPI_Comm pair, optiq_t pair_ctx) {
  const bool in = rank == 0 || rank == peer;
  std::vector<unsigned char> send(rank == 0 ? bytes : 0), recv(rank == peer ? bytes : 0);
  for (long long o = 0; o < static_cast<long long>(send.size()); ++o) send[o] = byte_at(0, o);
  MPI_Win win = MPI_WIN_NULL;
  if (method == "put" && in) MPI_Win_create(recv.data(), recv.size(), 1, MPI_INFO_NULL, pair, &win);
  const int s[2] = {0, rank == 0 ? static_cast<int>(bytes) : 0}, r0[2] = {rank == peer ? static_cast<int>(bytes) : 0, 0};
  const int z[2] = {0, 0};
  auto optiq_trip = [&] {
    if (optiq_alltoallv(send.data(), s, z, MPI_BYTE, recv.data(), r0, z, MPI_BYTE, pair_ctx) != OPTIQ_SUCCESS)
      throw optiq::Error(std::string("optiq_alltoallv: ") + optiq_error_string(pair_ctx));
  };
  if (method == "optiq" && in) optiq_trip();  // untimed: plans the pattern
  std::fill(recv.begin(), recv.end(), 0);
  MPI_Barrier(MPI_COMM_WORLD);
  const double t0 = MPI_Wtime();
  for (int r = 0; r < repeats && in; ++r) {
    if (method == "isend") {
      if (rank == 0) {
        MPI_Send(send.data(), static_cast<int>(bytes), MPI_BYTE, peer, r, MPI_COMM_WORLD);
        MPI_Recv(nullptr, 0, MPI_BYTE, peer, r, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      } else {
        MPI_Recv(recv.data(), static_cast<int>(bytes), MPI_BYTE, 0, r, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Send(nullptr, 0, MPI_BYTE, 0, r, MPI_COMM_WORLD);
      }
    } else if (method == "put") {
      if (rank == 0) {
        MPI_Win_lock(MPI_LOCK_SHARED, 1, 0, win);
        MPI_Put(send.data(), static_cast<int>(bytes), MPI_BYTE, 1, 0, static_cast<int>(bytes), MPI_BYTE, win);
        MPI_Win_unlock(1, win);  // returns once the put is complete at the target
      }
    } else {
      // optiq_alltoallv returns at the sender once its bytes are handed over, so the receiver
      // acknowledges them as MPI_Send's round trip does.
      optiq_trip();
      if (rank == 0) MPI_Recv(nullptr, 0, MPI_BYTE, peer, r, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      else MPI_Send(nullptr, 0, MPI_BYTE, 0, r, MPI_COMM_WORLD);
    }
  }
  const double seconds = (MPI_Wtime() - t0) / repeats;
  if (win != MPI_WIN_NULL) {
    MPI_Barrier(pair);
    MPI_Win_free(&win);
  }
  int ok = rank != peer || intact(recv.data(), 0, bytes);
  MPI_Allreduce(MPI_IN_PLACE, &ok, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  double most = seconds;
  MPI_Bcast(&most, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
  return {most, ok != 0};
}

int run(const Args& a, int rank, int size) {
  const std::vector<int> nbr = neighbours(a.topology);
  for (int k : a.links)
    if (k < 1 || k > static_cast<int>(nbr.size()))
      throw optiq::Error("--links " + std::to_string(k) + ": node 0 of " + a.topology + " has " +
                         std::to_string(nbr.size()) + " distinct neighbours");
  if (nbr.back() >= size)
    throw optiq::Error("node 0's neighbour " + std::to_string(nbr.back()) + " has no rank: run one rank per node");
  const std::vector<long long> sizes = byte_sizes(a.sizes, (1LL << 31) / (a.messages * 8));
  const std::vector<long long> latency_sizes = byte_sizes(a.latency_sizes, 1LL << 30);

  optiq_options o;
  optiq_options_init(&o);
  optiq::tools::apply_record_values(o, a.runtime);
  // The two ranks of the round trips, placed on their own nodes.
  const int peer = nbr[0];
  MPI_Comm pair;
  MPI_Comm_split(MPI_COMM_WORLD, rank == 0 || rank == peer ? 0 : MPI_UNDEFINED, rank, &pair);
  optiq_t pair_ctx = nullptr;
  if (pair != MPI_COMM_NULL) {
    int nodes[2] = {0, peer};
    optiq_options placed = o;
    placed.rank_to_node = nodes;
    if (optiq_create(pair, a.topology.c_str(), &placed, &pair_ctx) != OPTIQ_SUCCESS)
      throw optiq::Error(std::string("optiq_create on the pair: ") + optiq_error_string(pair_ctx));
  }

  nlohmann::ordered_json doc = {{"program", "optiq-flood"}, {"topology", a.topology}, {"ranks", size},
                                {"neighbours", nbr}, {"messages", a.messages}, {"repeats", a.repeats}};
  bool all_ok = true;
  auto& floods = doc["flood"] = nlohmann::ordered_json::array();
  for (const auto& method : a.methods)
    for (int k : a.links)
      for (long long s : sizes) {
        const Flood f{k, s, a.messages};
        const auto [seconds, ok] = flood(method, f, nbr, rank, size, o, a.topology);
        all_ok = all_ok && ok;
        floods.push_back({{"method", method}, {"links", k}, {"size", s}, {"bytes", k * f.per_link()},
                          {"seconds", seconds}, {"bytes_per_second", k * f.per_link() / seconds}, {"verified", ok}});
      }
  auto& latency = doc["latency"] = nlohmann::ordered_json::array();
  for (const auto& method : a.methods)
    for (long long s : latency_sizes) {
      const auto [seconds, ok] = round_trip(method, s, a.repeats, peer, rank, pair, pair_ctx);
      all_ok = all_ok && ok;
      latency.push_back({{"method", method}, {"size", s}, {"round_trip_seconds", seconds}, {"verified", ok}});
    }
  doc["verified"] = all_ok;
  if (pair_ctx) optiq_destroy(&pair_ctx);
  if (pair != MPI_COMM_NULL) MPI_Comm_free(&pair);
  if (rank == 0) std::printf("%s\n", doc.dump().c_str());
  return all_ok ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  // Every rank parses the same arguments and so reaches the same verdict.
  return optiq::tools::mpi_tool_main(argc, argv, "optiq-flood",
                                     [&](int rank, int size) { return run(parse_args(argc, argv), rank, size); });
}
