// Delivery tests of optiq_sparse_exchange, rank-agnostic (run at 1, 2, 4, 8 and 16 ranks):
//   mpi_sparse --cases N --seed S
// 1. N seeded random cases cycling through every protocol and barrier on four communicators
//    (MPI_COMM_WORLD, a duplicate, a subset of the ranks, a rank-reversed copy): neighbour counts
//    from 0 to P-1, self-messages, zero-byte and rendezvous-size messages, back to back with
//    no synchronisation between calls.
// 2. 100 exchanges in a row on one communicator with a new neighbour set each time, one rank
//    held back before each call: a rank still draining call e meets messages of call e + 1.
// 3. Large messages (8 MiB and more) with every protocol.
// 4. Fixed corner cases: everyone to everyone with zero bytes, only self-messages, nobody.
// 5. AUTO's rule, and that AUTO runs what the rule says.
// Every received byte and the exact set of sources and sizes are checked on every call.
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "exchange/protocols.hpp"  // choose_protocol
#include "sparse.hpp"

using namespace sparsetest;

namespace {

std::uint64_t calls = 0;  // every exchange gets its own bytes

struct Comms {
  std::vector<std::pair<MPI_Comm, std::string>> list;
  Comms() {
    const int rank = mpitest::world_rank(), size = mpitest::world_size();
    MPI_Comm dup, half, reversed;
    MPI_Comm_dup(MPI_COMM_WORLD, &dup);
    // One sub-communicator of the lower half; the other ranks get MPI_COMM_NULL and sit its
    // cases out. (Not two disjoint halves at once: with Open MPI 4.1.4 two windows created at
    // the same time on disjoint communicators of one node collide on a shared-memory file
    // named by the communicator id, which such communicators share; RSX then miscounts,
    // hangs or crashes. See docs/exchange.md.)
    MPI_Comm_split(MPI_COMM_WORLD, rank < (size + 1) / 2 ? 0 : MPI_UNDEFINED, rank, &half);
    MPI_Comm_split(MPI_COMM_WORLD, 0, size - rank, &reversed);
    list = {{MPI_COMM_WORLD, "world"}, {dup, "dup"}, {half, "half"}, {reversed, "reversed"}};
  }
  ~Comms() {
    for (size_t i = 1; i < list.size(); ++i)
      if (list[i].first != MPI_COMM_NULL) MPI_Comm_free(&list[i].first);
  }
};

void random_cases(int cases, std::uint64_t seed, Checker& ck) {
  Comms comms;
  const std::vector<Variant> variants = all_variants();
  for (int c = 0; c < cases; ++c) {
    optiq::Rng rng(seed * 1000003ULL + c);
    const auto& [comm, comm_name] = comms.list[rng.below(comms.list.size())];
    const Variant v = variants[c % variants.size()];
    if (comm == MPI_COMM_NULL) {  // not a member of this case's communicator
      ++calls;
      continue;
    }
    int size;
    MPI_Comm_size(comm, &size);
    const Shape shape = random_shape(rng);
    const Pattern pattern = random_pattern(rng, size, shape);
    char what[160];
    std::snprintf(what, sizeof what, "case %d (%s on %s, shape %d, max %d bytes)", c, v.name().c_str(),
                  comm_name.c_str(), shape.kind, shape.max_bytes);
    checked_exchange(comm, pattern, calls++, v, ck, what);
  }
}

void repeated(std::uint64_t seed, Checker& ck) {
  const int size = mpitest::world_size(), rank = mpitest::world_rank();
  const std::vector<Variant> variants = all_variants();
  for (int e = 0; e < 100; ++e) {
    optiq::Rng rng(seed ^ (0xABCDEFULL + e));
    const Pattern pattern = random_pattern(rng, size, {e % 3 == 0 ? 0 : 1, e % 4 == 0, 64});
    if (rank == static_cast<int>(rng.below(size))) usleep(static_cast<useconds_t>(rng.below(2000)));
    // Mostly NBX, the protocol with no collective step to hold a fast rank back.
    const Variant v = e % 2 ? variants[3 + (e / 2) % 2] : variants[(e / 2) % variants.size()];
    checked_exchange(MPI_COMM_WORLD, pattern, calls++, v, ck, "repeat " + std::to_string(e) + " (" + v.name() + ")");
  }
}

void large(Checker& ck) {
  const int size = mpitest::world_size();
  Pattern pattern(size);
  for (int r = 0; r < size; ++r) pattern[r].push_back({(r + 1) % size, (8 << 20) + 4099 * r});
  for (const Variant& v : all_variants())
    checked_exchange(MPI_COMM_WORLD, pattern, calls++, v, ck, "8 MiB to the next rank (" + v.name() + ")");
  // A second large message per rank: to the previous rank, or to itself when that is the next.
  if (size >= 2)
    for (int r = 0; r < size; ++r) pattern[r].push_back({size > 2 ? (r + size - 1) % size : r, 9 << 20});
  checked_exchange(MPI_COMM_WORLD, pattern, calls++, {OPTIQ_SX_NBX, OPTIQ_SX_BARRIER_DISSEMINATION}, ck,
                   "8 and 9 MiB (nbx)");
}

void corners(Checker& ck) {
  const int size = mpitest::world_size();
  Pattern all_zero(size), self_only(size), nobody(size);
  for (int r = 0; r < size; ++r) {
    for (int d = size - 1; d >= 0; --d) all_zero[r].push_back({d, 0});  // descending: order must not matter
    self_only[r].push_back({r, 100 + r});
  }
  for (const Variant& v : all_variants()) {
    checked_exchange(MPI_COMM_WORLD, all_zero, calls++, v, ck, "everyone to everyone, zero bytes (" + v.name() + ")");
    checked_exchange(MPI_COMM_WORLD, self_only, calls++, v, ck, "only self-messages (" + v.name() + ")");
    checked_exchange(MPI_COMM_WORLD, nobody, calls++, v, ck, "nobody sends (" + v.name() + ")");
  }
}

// AUTO's rule (docs/exchange.md) at sizes no local run reaches, and what AUTO reports here.
void auto_rule(Checker& ck) {
  using optiq::sx::choose_protocol;
  ck.expect(choose_protocol(1024, 6) == OPTIQ_SX_NBX && choose_protocol(512, 6) == OPTIQ_SX_PEX &&
                choose_protocol(512, 1) == OPTIQ_SX_NBX && choose_protocol(128, 0) == OPTIQ_SX_NBX &&
                choose_protocol(16, 0) == OPTIQ_SX_PEX && choose_protocol(768, -1) == OPTIQ_SX_NBX &&
                choose_protocol(767, -1) == OPTIQ_SX_PEX && choose_protocol(100000, 1000) == OPTIQ_SX_PEX &&
                choose_protocol(1, -1) == OPTIQ_SX_PEX,
            "AUTO's rule");
  const int size = mpitest::world_size(), rank = mpitest::world_rank();
  for (int hint : {-1, 0, 1, size - 1}) {
    optiq_sx_options o;
    optiq_sx_options_init(&o);
    o.max_neighbors = hint;
    optiq_sx_result r;
    const int dest = (rank + 1) % size;
    const int bytes = 1;
    const char payload = 'x';
    const void* buf = &payload;
    const int status =
        optiq_sparse_exchange(MPI_COMM_WORLD, hint == 0 ? 0 : 1, &dest, &buf, &bytes, OPTIQ_SX_AUTO, &o, &r);
    ck.expect(status == OPTIQ_SUCCESS && r.protocol == choose_protocol(size, hint) && r.nrecv == (hint == 0 ? 0 : 1),
              "AUTO with max_neighbors %d ran %d (status %d)", hint, r.protocol, status);
    optiq_sx_result_free(&r);
  }
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int cases = 100;
  std::uint64_t seed = 1;
  for (int i = 1; i + 1 < argc; i += 2) {
    if (!std::strcmp(argv[i], "--cases")) cases = std::atoi(argv[i + 1]);
    if (!std::strcmp(argv[i], "--seed")) seed = std::strtoull(argv[i + 1], nullptr, 10);
  }
  Checker ck;
  const double t0 = MPI_Wtime();
  auto_rule(ck);
  corners(ck);
  random_cases(cases, seed, ck);
  repeated(seed, ck);
  large(ck);
  const int failures = ck.total();
  if (mpitest::world_rank() == 0)
    std::printf("%s: %d failures in %d random cases, 100 repeats and the fixed cases at %d ranks (%.1f s)\n",
                failures ? "FAILED" : "passed", failures, cases, mpitest::world_size(), MPI_Wtime() - t0);
  MPI_Finalize();
  return failures ? 1 : 0;
}
