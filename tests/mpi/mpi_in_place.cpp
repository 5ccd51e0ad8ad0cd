// MPI_IN_PLACE as the send buffer, with MPI_Alltoallv's meaning: what a rank sends to peer p
// is the recvcounts[p] elements of recvtype at rdispls[p] in the receive buffer, replaced by
// what p sends; sendcounts, sdispls and sendtype are ignored. Checked byte for byte, gaps
// included, and against MPI_Alltoallv's own MPI_IN_PLACE on the same buffers.
#include <utility>

#include "scenario.hpp"

using namespace mpitest;

namespace {

// A symmetric pattern (in place, a rank sends each peer as much as it receives from it) laid
// out with gaps and in a random peer order. Sends and receives share the receive layout.
Exchange symmetric_exchange(std::uint64_t seed, int rank, int size, int elem, double density, int max_count) {
  optiq::Rng rng(seed);
  std::vector<std::vector<int>> count(size, std::vector<int>(size, 0));
  for (int a = 0; a < size; ++a)
    for (int b = a; b < size; ++b) {
      const bool on = rng.unit() < density;
      const int n = static_cast<int>(rng.below(static_cast<std::uint64_t>(max_count) + 1));
      count[a][b] = count[b][a] = on ? n : 0;
    }
  optiq::Rng mine(seed ^ (0x9E3779B97F4A7C15ULL * static_cast<std::uint64_t>(rank + 1)));
  std::vector<int> order(size);
  for (int i = 0; i < size; ++i) order[i] = i;
  for (int i = size - 1; i > 0; --i) std::swap(order[i], order[mine.below(static_cast<std::uint64_t>(i) + 1)]);
  Exchange x;
  x.elem = elem;
  x.rcounts.assign(size, 0);
  x.rdispls.assign(size, 0);
  std::size_t at = mine.below(3);
  for (int p : order) {
    x.rcounts[p] = count[rank][p];
    x.rdispls[p] = static_cast<int>(at);
    at += count[rank][p] + mine.below(3);
  }
  x.recv_elems = at + 1;
  return x;
}

// The receive buffer before the call: each peer's region holds what this rank sends it, the
// gaps a canary.
std::vector<unsigned char> in_place_buffer(const Exchange& x, int rank, std::uint64_t salt) {
  std::vector<unsigned char> buf(x.recv_elems * x.elem, kCanary);
  for (std::size_t p = 0; p < x.rcounts.size(); ++p)
    optiq::data::fill(buf.data() + std::size_t(x.rdispls[p]) * x.elem, rank, static_cast<int>(p),
                      std::uint64_t(x.rcounts[p]) * x.elem, salt);
  return buf;
}

struct Case {
  const char* planner;
  int elem;
  double density;
  int max_count;
  bool nonblocking;
};

void run_case(optiq_t ctx, const Case& c, MPI_Datatype type, std::uint64_t seed, std::uint64_t salt, Checker& ck,
              const std::string& what) {
  const int rank = world_rank(), size = world_size();
  const Exchange x = symmetric_exchange(seed, rank, size, c.elem, c.density, c.max_count);
  std::vector<unsigned char> buf = in_place_buffer(x, rank, salt), mpi = buf;
  // Send arguments are ignored: pass garbage and NULL.
  const std::vector<int> junk(size, -7);
  int status;
  if (c.nonblocking) {
    optiq_request_t req = nullptr;
    status = optiq_ialltoallv(MPI_IN_PLACE, junk.data(), nullptr, MPI_DATATYPE_NULL, buf.data(), x.rcounts.data(),
                              x.rdispls.data(), type, ctx, &req);
    int flag = 0;
    while (status == OPTIQ_SUCCESS && !flag) status = optiq_test(&req, &flag);
  } else {
    status = optiq_alltoallv(MPI_IN_PLACE, nullptr, junk.data(), MPI_DATATYPE_NULL, buf.data(), x.rcounts.data(),
                             x.rdispls.data(), type, ctx);
  }
  status = common_status(status);
  if (!ck.expect(status == OPTIQ_SUCCESS, "%s: %s: %s", what.c_str(), optiq_status_name(status),
                 optiq_error_string(ctx)))
    return;
  std::string why;
  const bool right = verify_buffers(x, buf, rank, salt, &why);
  ck.expect(right, "%s: %s", what.c_str(), why.c_str());
  MPI_Alltoallv(MPI_IN_PLACE, nullptr, nullptr, MPI_DATATYPE_NULL, mpi.data(), x.rcounts.data(), x.rdispls.data(),
                type, MPI_COMM_WORLD);
  ck.expect(mpi == buf, "%s: the buffer differs from MPI_Alltoallv's in-place result", what.c_str());
}

void in_place(optiq_transport tr, Checker& ck) {
  const int size = world_size();
  MPI_Datatype triple;
  MPI_Type_contiguous(3, MPI_BYTE, &triple);
  MPI_Type_commit(&triple);
  const std::vector<Case> cases = {
      {"default", 1, 1.0, 300, false}, {"heu2", 4, 0.7, 200, false}, {"mcf", 3, 1.0, 500, true},
      {"heu1", 1, 0.4, 5000, true},    {"heu2", 1, 0.0, 10, false},  {"default", 4, 1.0, 0, true},
  };
  std::uint64_t seed = 500 + static_cast<std::uint64_t>(tr);
  for (const Case& c : cases) {
    optiq_options o = options(c.planner, tr, 96);
    o.forward_budget_bytes = 4096;
    optiq_t ctx;
    optiq_create(MPI_COMM_WORLD, full_machine(size).c_str(), &o, &ctx);
    const MPI_Datatype type = c.elem == 3 ? triple : datatype_of(c.elem);
    const std::string what = std::string(transport_name(tr)) + " " + c.planner + " elem " + std::to_string(c.elem) +
                             (c.nonblocking ? " ialltoallv" : " alltoallv");
    ++seed;
    for (int round = 0; round < 2; ++round)  // the second from the plan cache, with other bytes
      run_case(ctx, c, type, seed, seed * 10 + round, ck, what + " round " + std::to_string(round));
    optiq_destroy(&ctx);
  }
  MPI_Type_free(&triple);
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  Checker ck;
  for (optiq_transport tr : {OPTIQ_TRANSPORT_P2P, OPTIQ_TRANSPORT_RMA}) in_place(tr, ck);
  const int failures = ck.total();
  if (world_rank() == 0) std::printf("%s: %d failures at %d ranks\n", failures ? "FAILED" : "passed", failures, world_size());
  MPI_Finalize();
  return failures ? 1 : 0;
}
