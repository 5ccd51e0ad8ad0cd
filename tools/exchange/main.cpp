// optiq-exchange: the sparse exchange microbenchmark of Hoefler, Siebert and Lumsdaine (PPoPP
// 2010). In every exchange each rank sends one message to k random distinct other ranks; each
// protocol runs the same draws in turn. Times one call per exchange (after a barrier) on every
// rank, keeps the slowest rank's time, and checks every received byte and that each rank got
// exactly the messages meant for it. Rank 0 prints one JSON line.
//
// Depends on MPI, optiq_exchange and the header-only nlohmann-json only, so that it also builds
// with SimGrid's smpicxx.
#include <mpi.h>

#include <algorithm>
#include <cstdio>
#include <stdexcept>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "exchange/barrier.hpp"
#include "tools/common/cli.hpp"
#include "tools/common/tool_main.hpp"
#include "tools/exchange/args.hpp"
#include "tools/exchange/workload.hpp"
#include "optiq/exchange.h"

using namespace optiq::sxdriver;

namespace {

struct Tally {
  long long received = 0;  // messages received, over all checked exchanges
  long long wrong = 0;     // messages with a wrong source, size or byte
};

// Checks one rank's result of exchange `call` (iteration `it`) against the draws of its senders.
void check(const optiq_sx_result& r, const Args& a, std::uint64_t it, std::uint64_t call, int rank, int size, int k,
           Tally& tally) {
  for (int i = 0; i < r.nrecv; ++i) {
    const int src = r.sources[i];
    bool ok = src >= 0 && src < size && (i == 0 || r.sources[i - 1] < src) &&
              static_cast<std::uint64_t>(r.sizes[i]) == a.bytes;
    if (ok) {
      const std::vector<int> theirs = neighbours(a.seed, it, src, size, k);
      ok = std::binary_search(theirs.begin(), theirs.end(), rank) &&
           intact(static_cast<const unsigned char*>(r.recvbufs[i]), src, rank, call, a.bytes);
    }
    ++tally.received;
    if (!ok) ++tally.wrong;
  }
}

struct Summary {
  double min, median, max;
};

Summary summarise(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const size_t n = v.size();
  return {v.front(), n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2, v.back()};
}

int run(const Args& a, int rank, int size) {
  const int k = std::min(a.neighbors, size - 1);
  const size_t np = a.protocols.size();
  std::vector<std::vector<unsigned char>> storage(k, std::vector<unsigned char>(a.bytes));
  std::vector<const void*> bufs(k);
  std::vector<int> sizes(k, static_cast<int>(a.bytes));
  for (int j = 0; j < k; ++j) bufs[j] = storage[j].data();
  std::vector<std::vector<double>> seconds(np);
  std::vector<optiq_sx_protocol> ran(np, OPTIQ_SX_AUTO);
  std::vector<optiq_sx_barrier> barrier_used(np, OPTIQ_SX_BARRIER_AUTO);
  optiq_sx_options options;
  optiq_sx_options_init(&options);
  options.barrier = a.barrier;
  options.max_neighbors = k;
  Tally tally;

  for (int it = 0; it < a.warmup + a.iterations; ++it) {
    const std::vector<int> dests = neighbours(a.seed, it, rank, size, k);
    for (size_t p = 0; p < np; ++p) {
      const std::uint64_t call = static_cast<std::uint64_t>(it) * np + p;
      if (a.verify)
        for (int j = 0; j < k; ++j) fill(storage[j].data(), rank, dests[j], call, a.bytes);
      optiq_sx_result r;
      MPI_Barrier(MPI_COMM_WORLD);
      const double t0 = MPI_Wtime();
      const int status = optiq_sparse_exchange(MPI_COMM_WORLD, k, dests.data(), bufs.data(), sizes.data(),
                                               a.protocols[p], &options, &r);
      const double t = MPI_Wtime() - t0;
      if (status != OPTIQ_SUCCESS) {  // the same on every rank
        if (rank == 0) std::fprintf(stderr, "optiq-exchange: error: %s\n", r.message);
        optiq_sx_result_free(&r);
        return 1;
      }
      if (it >= a.warmup) seconds[p].push_back(t);
      ran[p] = r.protocol;
      barrier_used[p] = r.barrier;
      if (a.verify) check(r, a, it, call, rank, size, k, tally);
      optiq_sx_result_free(&r);
    }
  }

  // Every received message was meant for its receiver and unique there, so equal totals mean
  // every sent message arrived.
  long long local[2] = {tally.received, tally.wrong}, total[2] = {0, 0};
  MPI_Reduce(local, total, 2, MPI_LONG_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
  std::vector<std::vector<double>> slowest(np, std::vector<double>(a.iterations));
  for (size_t p = 0; p < np; ++p)
    MPI_Reduce(seconds[p].data(), slowest[p].data(), a.iterations, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
  if (rank != 0) return 0;

  const long long sent = static_cast<long long>(size) * k * (a.warmup + a.iterations) * static_cast<long long>(np);
  const bool verified = total[1] == 0 && total[0] == sent;
  nlohmann::ordered_json doc = {{"program", "optiq-exchange"}, {"ranks", size},         {"neighbors", k},
                                 {"bytes", a.bytes},           {"iterations", a.iterations}, {"warmup", a.warmup},
                                 {"seed", a.seed},             {"smpi", OPTIQ_SX_SMPI != 0},
                                 {"barrier", optiq_sx_barrier_name(a.barrier)}};
  nlohmann::ordered_json& protocols = doc["protocols"] = nlohmann::ordered_json::array();
  for (size_t p = 0; p < np; ++p) {
    const Summary s = summarise(slowest[p]);
    protocols.push_back({{"protocol", optiq_sx_protocol_name(a.protocols[p])},
                         {"ran", optiq_sx_protocol_name(ran[p])},
                         {"barrier", ran[p] == OPTIQ_SX_NBX ? optiq_sx_barrier_name(barrier_used[p]) : ""},
                         {"seconds", {{"min", s.min}, {"median", s.median}, {"max", s.max}}}});
  }
  doc["messages_sent"] = sent;
  if (a.verify) {
    doc["messages_received"] = total[0];
    doc["wrong_messages"] = total[1];
    doc["verified"] = verified;
  } else {
    doc["verified"] = nullptr;
  }
  std::printf("%s\n", doc.dump().c_str());
  return a.verify && !verified ? 1 : 0;
}

}  // namespace

int main(int argc, char** argv) {
  // Every rank parses the same arguments and so reaches the same verdict.
  return optiq::tools::mpi_tool_main(argc, argv, "optiq-exchange",
                                     [&](int rank, int size) { return run(parse_args(argc, argv), rank, size); });
}
