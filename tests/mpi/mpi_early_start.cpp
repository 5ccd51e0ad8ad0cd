// Early starts: a rank whose part of the pattern repeats starts its direct schedule before the
// vote is in. A seeded random walk over patterns repeats them, changes one pair (so some ranks
// start early and others do not, and all must withdraw), changes everything, or makes one rank
// fail its checks while the others have already started; every call is checked byte by byte,
// and a stray message left by a withdrawal would corrupt or abort a later call.
//   mpi_early_start [--seed S] [--steps N]   (a longer walk, another seed: for a stress run)
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "optiq/core/rng.hpp"
#include "scenario.hpp"

using namespace mpitest;

namespace {

struct Counters {
  unsigned long long early = 0, withdrawn = 0;
};

Counters totals(optiq_t ctx) {
  optiq_stats st{};
  optiq_get_stats(ctx, &st);
  unsigned long long mine[2] = {st.early_starts, st.early_starts_withdrawn}, sum[2];
  MPI_Allreduce(mine, sum, 2, MPI_UNSIGNED_LONG_LONG, MPI_SUM, MPI_COMM_WORLD);
  return {sum[0], sum[1]};
}

// Every rank of a direct plan starts every repeated call early; the one-sided transport never.
void repeats(optiq_transport tr, Checker& ck) {
  const int rank = world_rank(), size = world_size();
  optiq_options o = options("default", tr);
  optiq_t ctx;
  optiq_create(MPI_COMM_WORLD, full_machine(size).c_str(), &o, &ctx);
  optiq::Rng rng(7);
  const auto count = random_counts(rng, size, {0.8, 3000, true});
  const int calls = 6;
  for (int i = 0; i < calls; ++i)  // new displacements each time: they are not part of the pattern
    checked_call(ctx, exchange_from(count, 100 + i, rank, 1), MPI_BYTE, 100 + i, ck,
                 std::string("repeat ") + transport_name(tr), i % 2);
  const Counters c = totals(ctx);
  const unsigned long long want = tr == OPTIQ_TRANSPORT_P2P ? static_cast<unsigned long long>(calls - 1) * size : 0;
  ck.expect(c.early == want && c.withdrawn == 0, "repeat %s: %llu early starts, %llu withdrawn (want %llu, 0)",
            transport_name(tr), c.early, c.withdrawn, want);
  optiq_destroy(&ctx);
}

// The random walk, on one planner. The same seed on every rank: every rank knows the whole walk.
void walk(const char* planner, const PatternShape& shape, std::uint64_t seed, int steps, Checker& ck) {
  const int rank = world_rank(), size = world_size();
  optiq_options o = options(planner, OPTIQ_TRANSPORT_P2P);
  optiq_t ctx;
  optiq_create(MPI_COMM_WORLD, full_machine(size).c_str(), &o, &ctx);
  optiq::Rng rng(seed);
  auto count = random_counts(rng, size, shape);
  int failures_made = 0;
  for (int step = 0; step < steps; ++step) {
    const std::string what = std::string(planner) + " step " + std::to_string(step);
    const double u = rng.unit();
    if (u < 0.2) {  // one pair changes: its two ranks' parts change, the others' repeat
      const int s = static_cast<int>(rng.below(size)), d = static_cast<int>(rng.below(size));
      count[s][d] = count[s][d] == 0 ? 1 + static_cast<int>(rng.below(shape.max_count)) : 0;
    } else if (u < 0.3) {
      count = random_counts(rng, size, shape);
    } else if (u < 0.4) {  // one rank fails its own checks while the others may have started
      const int bad = static_cast<int>(rng.below(size));
      Exchange x = exchange_from(count, seed + step, rank, 1);
      std::vector<unsigned char> sbuf, rbuf;
      fill_buffers(x, sbuf, rbuf, rank, step);
      const std::uint64_t peer = rng.below(size);  // every rank draws: the generators stay in step
      if (rank == bad) x.scounts[peer] = -1;
      const int got = common_status(optiq_alltoallv(sbuf.data(), x.scounts.data(), x.sdispls.data(), MPI_BYTE,
                                                    rbuf.data(), x.rcounts.data(), x.rdispls.data(), MPI_BYTE, ctx));
      ck.expect(got == OPTIQ_ERR_ARG, "%s: a bad count on rank %d gives %s on every rank? got %s (%s)", what.c_str(),
                bad, optiq_status_name(OPTIQ_ERR_ARG), got < 0 ? "different statuses" : optiq_status_name(got),
                optiq_error_string(ctx));
      ++failures_made;
      continue;
    }
    checked_call(ctx, exchange_from(count, seed + step, rank, 1), MPI_BYTE, step, ck, what, step % 3 == 0);
  }
  const Counters c = totals(ctx);
  // Direct plans start every repeat early and withdraw when a pair changed; with forwarding
  // (mcf on a torus) only some ranks can, which is the mixed case the walk is for.
  ck.expect(c.early > 0 && c.withdrawn > 0 && failures_made > 0,
            "%s: the walk exercised early starts (%llu), withdrawals (%llu) and failures (%d)", planner, c.early,
            c.withdrawn, failures_made);
  optiq_destroy(&ctx);
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  std::uint64_t seed = 11;
  int steps = 80;
  for (int i = 1; i + 1 < argc; ++i) {
    if (!std::strcmp(argv[i], "--seed")) seed = std::strtoull(argv[i + 1], nullptr, 10);
    if (!std::strcmp(argv[i], "--steps")) steps = std::atoi(argv[i + 1]);
  }
  Checker ck;
  repeats(OPTIQ_TRANSPORT_P2P, ck);
  repeats(OPTIQ_TRANSPORT_RMA, ck);
  // Messages up to 64 KiB: both sides of Open MPI's eager limit on shared memory (4 KiB).
  walk("default", {0.7, 64 << 10, true}, seed, steps, ck);
  walk("mcf", {0.2, 8 << 10, true}, seed + 1, steps * 3 / 4, ck);  // sparse: some ranks forward, others not  // sparse: some ranks forward, others are direct
  const int failures = ck.total();
  if (world_rank() == 0) std::printf("%s: %d failures at %d ranks\n", failures ? "FAILED" : "passed", failures, world_size());
  MPI_Finalize();
  return failures ? 1 : 0;
}
