// Progress while the application computes: with the progress thread, or with optiq_progress
// called between work items, a forwarding exchange completes during a computation that makes
// no other optiq call; with neither, it cannot (chunks wait at the forwarders).
//   mpi_progress [--refused]   (--refused: MPI at MPI_THREAD_FUNNELED; the thread is refused)
#include <unistd.h>

#include <cstring>

#include "common.hpp"

using namespace mpitest;

namespace {

enum class Mode { none, call, thread };

const char* name_of(Mode m) { return m == Mode::none ? "no progress" : m == Mode::call ? "optiq_progress" : "thread"; }

constexpr int kBytes = 2 << 20;  // to the rank half-way round the ring: forwarded on a plan of two directions

optiq_options ring_options(bool thread) {
  optiq_options o;
  optiq_options_init(&o);
  o.planner = "mcf";
  o.min_gain = 0;
  o.direct_threshold_bytes = 0;
  o.chunk_bytes = 64 << 10;
  o.progress_thread = thread;
  return o;
}

// "Computes" for about the given time (sleeps in slices), calling optiq_progress between
// slices when asked; never tests or waits.
void compute(double seconds, optiq_t ctx, bool call) {
  const double end = MPI_Wtime() + seconds;
  while (MPI_Wtime() < end) {
    usleep(1000);
    if (call) optiq_progress(ctx);
  }
}

void run(Mode mode, int rank, int size, Checker& ck) {
  const std::string topology = "torus:" + std::to_string(size);
  optiq_options o = ring_options(mode == Mode::thread);
  optiq_t ctx = nullptr;
  if (!ck.expect(common_status(optiq_create(MPI_COMM_WORLD, topology.c_str(), &o, &ctx)) == OPTIQ_SUCCESS,
                 "%s: create: %s", name_of(mode), optiq_error_string(ctx)))
    return;
  std::vector<int> scounts(size, 0), rcounts(size, 0), displs(size, 0);
  const int to = (rank + size / 2) % size, from = (rank - size / 2 + size) % size;
  scounts[to] = kBytes;
  rcounts[from] = kBytes;
  std::vector<unsigned char> sbuf(kBytes), rbuf(kBytes, 0);
  optiq::data::fill(sbuf.data(), rank, to, kBytes, 7);
  // A first, blocking call plans (and caches) the pattern, so the timed one only moves bytes.
  int status = optiq_alltoallv(sbuf.data(), scounts.data(), displs.data(), MPI_BYTE, rbuf.data(), rcounts.data(),
                               displs.data(), MPI_BYTE, ctx);
  ck.expect(status == OPTIQ_SUCCESS, "%s: first call: %s", name_of(mode), optiq_error_string(ctx));
  std::fill(rbuf.begin(), rbuf.end(), 0);
  MPI_Barrier(MPI_COMM_WORLD);
  optiq_request_t req = nullptr;
  status = optiq_ialltoallv(sbuf.data(), scounts.data(), displs.data(), MPI_BYTE, rbuf.data(), rcounts.data(),
                            displs.data(), MPI_BYTE, ctx, &req);
  ck.expect(status == OPTIQ_SUCCESS, "%s: start: %s", name_of(mode), optiq_error_string(ctx));
  compute(1.0, ctx, mode == Mode::call);
  int flag = 0;
  status = optiq_test(&req, &flag);  // one round at most: complete only if it moved during the computation
  int all_done = 0;
  MPI_Allreduce(&flag, &all_done, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  if (mode == Mode::none)
    ck.expect(!all_done, "without progress the exchange completed during the computation");
  else
    ck.expect(all_done, "%s: the exchange did not complete during a 1 s computation", name_of(mode));
  if (!flag) status = optiq_wait(&req);
  ck.expect(status == OPTIQ_SUCCESS, "%s: completion: %s", name_of(mode), optiq_error_string(ctx));
  ck.expect(optiq::data::first_wrong(rbuf.data(), from, rank, kBytes, 7) == static_cast<std::uint64_t>(kBytes),
            "%s: wrong bytes from rank %d", name_of(mode), from);
  optiq_stats st;
  optiq_get_stats(ctx, &st);
  unsigned long long forwarded = 0;
  MPI_Allreduce(&st.forwarded_bytes, &forwarded, 1, MPI_UNSIGNED_LONG_LONG, MPI_SUM, MPI_COMM_WORLD);
  ck.expect(forwarded > 0, "%s: the plan forwarded nothing, so the test proves little", name_of(mode));
  optiq_destroy(&ctx);
  if (rank == 0) std::printf("%s: %s during the computation\n", name_of(mode), all_done ? "completed" : "not complete");
}

void refused(Checker& ck) {
  optiq_options o = ring_options(true);
  optiq_t ctx = nullptr;
  const int status = common_status(optiq_create(MPI_COMM_WORLD, "torus:2", &o, &ctx));
  ck.expect(status == OPTIQ_ERR_ARG && std::strstr(optiq_error_string(ctx), "MPI_THREAD_MULTIPLE"),
            "a progress thread without MPI_THREAD_MULTIPLE: %s: %s", optiq_status_name(status), optiq_error_string(ctx));
  if (world_rank() == 0) std::printf("refused: %s\n", optiq_error_string(ctx));
  optiq_destroy(&ctx);
}

}  // namespace

int main(int argc, char** argv) {
  const bool want_refusal = argc > 1 && !std::strcmp(argv[1], "--refused");
  int provided = 0;
  MPI_Init_thread(&argc, &argv, want_refusal ? MPI_THREAD_FUNNELED : MPI_THREAD_MULTIPLE, &provided);
  const int rank = world_rank(), size = world_size();
  Checker ck;
  if (want_refusal) {
    refused(ck);
  } else if (provided < MPI_THREAD_MULTIPLE) {
    ck.expect(false, "MPI gives no MPI_THREAD_MULTIPLE here (%d)", provided);
  } else {
    for (Mode m : {Mode::none, Mode::call, Mode::thread}) run(m, rank, size, ck);
  }
  const int failures = ck.total();
  if (rank == 0) std::printf("%s: %d failures\n", failures ? "FAILED" : "passed", failures);
  MPI_Finalize();
  return failures ? 1 : 0;
}
