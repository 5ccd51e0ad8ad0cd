#include "tools/driver/measure.hpp"

#include <unistd.h>

#include "tools/driver/buffer.hpp"

namespace optiq::driver {

namespace {

// MPI_Alltoallv's non-empty messages, all posted at once: what a linear MPI_Alltoallv does
// without its P^2 empty messages, which dominate the cost of simulating it on 1024 ranks.
std::vector<MPI_Request> post_p2p(const Workload& w, const unsigned char* sbuf, unsigned char* rbuf, int size,
                                  MPI_Comm job_comm) {
  std::vector<MPI_Request> req;
  for (int r = 0; r < size; ++r)
    if (w.recvcounts[r] > 0) {
      req.emplace_back();
      MPI_Irecv(rbuf + w.rdispls[r], w.recvcounts[r], MPI_BYTE, r, 77, job_comm, &req.back());
    }
  for (int r = 0; r < size; ++r)
    if (w.sendcounts[r] > 0) {
      req.emplace_back();
      MPI_Isend(sbuf + w.sdispls[r], w.sendcounts[r], MPI_BYTE, r, 77, job_comm, &req.back());
    }
  return req;
}

void alltoallv_p2p(const Workload& w, const unsigned char* sbuf, unsigned char* rbuf, int size, MPI_Comm job_comm) {
  std::vector<MPI_Request> req = post_p2p(w, sbuf, rbuf, size, job_comm);
  MPI_Waitall(static_cast<int>(req.size()), req.data(), MPI_STATUSES_IGNORE);
}

// A slice of computation, as a sleep: it leaves the core to the other ranks here, and under
// SMPI (whose helpers turn usleep into a simulated sleep) it takes simulated time, which a
// simulated rank's real CPU bursts do not (smpi/simulate-computation:no).
constexpr double kSlice = 10e-6;

void compute_slice(double seconds) { usleep(static_cast<useconds_t>(seconds * 1e6)); }

// `seconds` of computation in slices, calling poll() between them when asked.
template <class Poll>
void compute(double seconds, bool calls, Poll&& poll) {
  for (double done = 0; done < seconds; done += kSlice) {
    compute_slice(std::min(kSlice, seconds - done));
    if (calls) poll();
  }
}

// A call that overlaps args.compute seconds of computation: started non-blocking, computed,
// waited for. MPI's is MPI_Ialltoallv (or its non-empty messages posted at once).
int overlapped(Variant v, const Args& args, const Workload& w, OptiqCall& optiq, unsigned char* sbuf,
               unsigned char* rbuf, int size, MPI_Comm job_comm) {
  if (v == kOptiq) {
    optiq_request_t req = nullptr;
    int status = optiq_ialltoallv(sbuf, w.sendcounts.data(), w.sdispls.data(), MPI_BYTE, rbuf, w.recvcounts.data(),
                                  w.rdispls.data(), MPI_BYTE, optiq.ctx, &req);
    if (status != OPTIQ_SUCCESS) return status;
    compute(args.compute, args.progress_calls, [&] { status = status ? status : optiq_progress(optiq.ctx); });
    return status ? status : optiq_wait(&req);
  }
  std::vector<MPI_Request> req;
  if (args.mpi_p2p) {
    req = post_p2p(w, sbuf, rbuf, size, job_comm);
  } else {
    req.emplace_back();
    MPI_Ialltoallv(sbuf, w.sendcounts.data(), w.sdispls.data(), MPI_BYTE, rbuf, w.recvcounts.data(),
                   w.rdispls.data(), MPI_BYTE, job_comm, &req.back());
  }
  compute(args.compute, args.progress_calls, [&] {
    int flag = 0;
    MPI_Testall(static_cast<int>(req.size()), req.data(), &flag, MPI_STATUSES_IGNORE);
  });
  MPI_Waitall(static_cast<int>(req.size()), req.data(), MPI_STATUSES_IGNORE);
  return OPTIQ_SUCCESS;
}

// One call of one variant; returns optiq's status (MPI's calls abort on error).
// `agreed` holds the allgather's buffers, allocated outside the timed calls.
int call(Variant v, const Args& args, const Workload& w, OptiqCall& optiq, unsigned char* sbuf, unsigned char* rbuf,
         std::vector<char>& agreed, int size, MPI_Comm job_comm) {
  if (args.compute > 0 && v != kMpiAgreed) return overlapped(v, args, w, optiq, sbuf, rbuf, size, job_comm);
  if (v == kOptiq && optiq.plan)
    return optiq_execute(optiq.ctx, optiq.plan, sbuf, optiq.sdispls.data(), rbuf, optiq.rdispls.data());
  if (v == kOptiq)
    return optiq_alltoallv(sbuf, w.sendcounts.data(), w.sdispls.data(), MPI_BYTE, rbuf, w.recvcounts.data(),
                           w.rdispls.data(), MPI_BYTE, optiq.ctx);
  if (v == kMpiAgreed) MPI_Allgather(agreed.data(), 40, MPI_BYTE, agreed.data() + 40, 40, MPI_BYTE, job_comm);
  if (args.mpi_p2p)
    alltoallv_p2p(w, sbuf, rbuf, size, job_comm);
  else
    MPI_Alltoallv(sbuf, w.sendcounts.data(), w.sdispls.data(), MPI_BYTE, rbuf, w.recvcounts.data(), w.rdispls.data(),
                  MPI_BYTE, job_comm);
  return OPTIQ_SUCCESS;
}

}  // namespace

Timings measure(const Args& args, const Workload& w, OptiqCall& optiq, int rank, int size, MPI_Comm job_comm) {
  Buffer sbuf(w.send_bytes, args.shared_buffers), rbuf(w.recv_bytes, args.shared_buffers);
  const bool check = !args.shared_buffers;
  std::vector<Variant> active;
  if (args.only != "optiq") active.push_back(kMpi);
  if (args.only != "mpi") active.push_back(kOptiq);
  if (args.agreement_baseline) active.push_back(kMpiAgreed);
  const int variants = static_cast<int>(active.size());
  std::vector<char> agreed(40 * (static_cast<std::size_t>(size) + 1));
  Timings t;
  const int calls = args.warmup + args.iterations;
  for (int it = 0; it < calls; ++it) {
    for (int k = 0; k < variants; ++k) {
      const Variant v = active[(k + it) % variants];  // rotate which goes first
      const std::uint64_t salt = static_cast<std::uint64_t>(variants) * it + v;
      if (check) {
        fill_send(w, sbuf.data(), rank, salt);
        poison_recv(w, rbuf.data(), rank, salt);
      }
      MPI_Barrier(job_comm);
      const double t0 = MPI_Wtime();
      const int status = call(v, args, w, optiq, sbuf.data(), rbuf.data(), agreed, size, job_comm);
      const double local = MPI_Wtime() - t0;
      if (status != OPTIQ_SUCCESS) {
        t.error = optiq_error_string(optiq.ctx);
        return t;
      }
      double elapsed = 0;  // the call ends when its slowest rank is done
      MPI_Allreduce(&local, &elapsed, 1, MPI_DOUBLE, MPI_MAX, job_comm);
      if (check) t.wrong[v] += wrong_messages(w, rbuf.data(), rank, salt);
      if (v == kOptiq && it == 0) t.first_optiq = elapsed;
      if (it >= args.warmup) t.seconds[v].push_back(elapsed);
    }
  }
  return t;
}

}  // namespace optiq::driver
