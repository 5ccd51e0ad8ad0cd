#include "tools/driver/workload.hpp"

#include <climits>

#include "tools/common/message_bytes.hpp"
#include "optiq/core/error.hpp"
#include "optiq/core/pattern.hpp"

namespace optiq::driver {

namespace {

void lay_out(const std::vector<std::uint64_t>& bytes, std::vector<int>* counts, std::vector<int>* displs,
             std::uint64_t* total) {
  std::uint64_t at = 0;
  for (std::uint64_t b : bytes) {
    if (b > INT_MAX || at > INT_MAX) throw Error("a rank's messages exceed the 2 GiB an MPI count can describe");
    counts->push_back(static_cast<int>(b));
    displs->push_back(static_cast<int>(at));
    at += b;
  }
  if (at > INT_MAX) throw Error("a rank's messages exceed the 2 GiB an MPI count can describe");
  *total = at;
}

// Every rank's counts and displacements from the whole exchange's jobs (a pair named twice adds up).
Workload jobs_workload(const std::vector<Job>& jobs, int rank, int size) {
  std::vector<std::uint64_t> out(size, 0), in(size, 0);
  Workload w;
  for (const Job& j : jobs) {
    if (j.src == rank) out[j.dst] += j.bytes;
    if (j.dst == rank) in[j.src] += j.bytes;
    w.total_bytes += j.bytes;
    if (j.bytes > 0) ++w.pairs;
  }
  lay_out(out, &w.sendcounts, &w.sdispls, &w.send_bytes);
  lay_out(in, &w.recvcounts, &w.rdispls, &w.recv_bytes);
  return w;
}

}  // namespace

Workload pattern_workload(const Args& args, int rank, int size) {
  std::vector<Pair> pairs;
  if (args.pattern == "alltoall") {
    for (int s = 0; s < size; ++s)
      for (int d = 0; d < size; ++d) pairs.push_back({s, d});
  } else if (args.pattern == "shift") {
    for (int s = 0; s < size; ++s) pairs.push_back({s, (s + size / 2) % size});
  } else {
    PatternOptions po;
    po.num_nodes = size;  // ranks are the pattern's endpoints
    po.sources = args.sources;
    po.dests = args.dests;
    po.start_src = args.start_src;
    po.start_dst = args.start_dst;
    po.seed = args.seed;
    pairs = named_pattern(args.pattern, po);
  }
  return jobs_workload(assign_sizes(pairs, args.bytes, args.seed), rank, size);
}

Workload requests_workload(const std::string& path, int rank, int size) {
  return jobs_workload(read_requests(path, size), rank, size);
}

Workload counts_workload(const std::vector<long long>& sendbytes, const std::vector<long long>& recvbytes) {
  Workload w;
  lay_out(std::vector<std::uint64_t>(sendbytes.begin(), sendbytes.end()), &w.sendcounts, &w.sdispls, &w.send_bytes);
  lay_out(std::vector<std::uint64_t>(recvbytes.begin(), recvbytes.end()), &w.recvcounts, &w.rdispls, &w.recv_bytes);
  return w;
}

void fill_send(const Workload& w, unsigned char* buf, int rank, std::uint64_t salt) {
  for (std::size_t d = 0; d < w.sendcounts.size(); ++d)
    data::fill(buf + w.sdispls[d], rank, static_cast<int>(d), w.sendcounts[d], salt);
}

void poison_recv(const Workload& w, unsigned char* buf, int rank, std::uint64_t salt) {
  for (std::size_t s = 0; s < w.recvcounts.size(); ++s)
    data::fill(buf + w.rdispls[s], static_cast<int>(s), rank, w.recvcounts[s], salt, true);
}

int wrong_messages(const Workload& w, const unsigned char* buf, int rank, std::uint64_t salt) {
  int wrong = 0;
  for (std::size_t s = 0; s < w.recvcounts.size(); ++s) {
    const std::uint64_t n = static_cast<std::uint64_t>(w.recvcounts[s]);
    if (data::first_wrong(buf + w.rdispls[s], static_cast<int>(s), rank, n, salt) != n) ++wrong;
  }
  return wrong;
}

}  // namespace optiq::driver
