// optiq_alltoallv and its non-blocking form.
#include <chrono>
#include <cstring>

#include "runtime/api/context.hpp"
#include "optiq/core/bytes.hpp"

using namespace optiq;
using optiq::rt::Failure;

namespace {

// Only datatypes whose elements lie back to back without holes: then count elements are
// count * size bytes starting at the displacement, and bytes can be cut anywhere.
bool contiguous(MPI_Datatype t, MPI_Aint* extent) {
  MPI_Count size = 0;  // an int would not hold the size of a type of 2 GiB or more
  MPI_Aint lb = 0, true_lb = 0, true_extent = 0;
  MPI_Type_size_x(t, &size);
  MPI_Type_get_extent(t, &lb, extent);
  MPI_Type_get_true_extent(t, &true_lb, &true_extent);
  return lb == 0 && true_lb == 0 && *extent == size && true_extent == size;
}

struct Side {
  const char* what;    // "send" or "recv"
  const char* displs;  // "sdispls" or "rdispls", as the header names them
  const void* buf;
  const int* counts;
  const int* offsets;
  MPI_Datatype type;
};

// Bytes per peer (the non-zero ones) and byte offsets of one side of the call; throws Failure
// naming the first bad argument.
void read_side(const Side& s, int size, std::vector<PeerBytes>* nonzero, std::vector<Bytes>* offsets) {
  const std::string what = s.what;
  if (!s.counts || !s.offsets) throw Failure(OPTIQ_ERR_ARG, what + "counts or " + s.displs + " is NULL");
  if (s.type == MPI_DATATYPE_NULL) throw Failure(OPTIQ_ERR_DATATYPE, what + "type is MPI_DATATYPE_NULL");
  MPI_Aint extent = 0;
  if (!contiguous(s.type, &extent))
    throw Failure(OPTIQ_ERR_DATATYPE, what + "type is not contiguous (optiq moves only datatypes without holes)");
  offsets->assign(size, 0);
  for (int r = 0; r < size; ++r) {
    const std::string at = "[" + std::to_string(r) + "]";
    if (s.counts[r] < 0)
      throw Failure(OPTIQ_ERR_ARG, what + "counts" + at + " is negative (" + std::to_string(s.counts[r]) + ")");
    if (s.offsets[r] < 0)
      throw Failure(OPTIQ_ERR_ARG, s.displs + at + " is negative (" + std::to_string(s.offsets[r]) + ")");
    try {  // the region must be addressable: its end within kMaxBytes (an empty one goes nowhere)
      const Bytes bytes = checked_mul(static_cast<Bytes>(s.counts[r]), static_cast<Bytes>(extent), what + "counts" + at);
      if (bytes == 0) continue;
      if (!s.buf) throw Failure(OPTIQ_ERR_ARG, what + "buf is NULL but " + what + "counts" + at + " is not 0");
      (*offsets)[r] = checked_mul(static_cast<Bytes>(s.offsets[r]), static_cast<Bytes>(extent), s.displs + at);
      checked_add((*offsets)[r], bytes, std::string(s.displs) + at + " plus " + what + "counts" + at);
      nonzero->push_back({r, bytes});
    } catch (const Error& e) {
      throw Failure(OPTIQ_ERR_ARG, e.what());
    }
  }
}

// MPI_IN_PLACE: the bytes for each peer sit where that peer's bytes will arrive, so they are
// copied out first. Nothing has arrived yet: the transport posts no receive into the buffer
// before the operation starts.
std::vector<char> stage(const char* recvbuf, const std::vector<PeerBytes>& recvs, const std::vector<Bytes>& recv_off,
                        std::vector<Bytes>* send_off) {
  Bytes total = 0;
  for (const PeerBytes& p : recvs) total = checked_add(total, p.bytes, "recvcounts add up to more");
  std::vector<char> staged(total);
  send_off->assign(recv_off.size(), 0);
  Bytes at = 0;
  for (const PeerBytes& p : recvs) {
    std::memcpy(staged.data() + at, recvbuf + recv_off[p.peer], p.bytes);
    (*send_off)[p.peer] = at;
    at += p.bytes;
  }
  return staged;
}

int start(const void* sendbuf, const int* sendcounts, const int* sdispls, MPI_Datatype sendtype, void* recvbuf,
          const int* recvcounts, const int* rdispls, MPI_Datatype recvtype, optiq_t ctx, optiq_request_t* request) {
  if (int status = rt::usable(ctx)) return status;
  return rt::guarded(ctx, [&] {
    const rt::Comms& c = ctx->comms;
    rt::LocalPattern mine;
    rt::Buffers buffers;
    std::vector<char> staged;
    const bool in_place = sendbuf == MPI_IN_PLACE;
    // Every rank's verdict on its own arguments, whatever it is, goes into the agreement.
    const rt::Verdict local = rt::verdict([&] {
      if (!request) throw Failure(OPTIQ_ERR_ARG, "request is NULL");
      if (recvbuf == MPI_IN_PLACE) throw Failure(OPTIQ_ERR_ARG, "recvbuf is MPI_IN_PLACE (only sendbuf may be)");
      const Side send{"send", "sdispls", sendbuf, sendcounts, sdispls, sendtype};
      const Side recv{"recv", "rdispls", recvbuf, recvcounts, rdispls, recvtype};
      if (!in_place) read_side(send, c.size, &mine.sends, &buffers.send_off);
      read_side(recv, c.size, &mine.recvs, &buffers.recv_off);
      if (in_place) {
        mine.sends = mine.recvs;
        staged = stage(static_cast<const char*>(recvbuf), mine.recvs, buffers.recv_off, &buffers.send_off);
      }
    });
    mine.code = local.code;
    mine.message = local.message;
    buffers.send = in_place ? staged.data() : static_cast<const char*>(sendbuf);
    buffers.recv = static_cast<char*>(recvbuf);
    const auto t0 = std::chrono::steady_clock::now();
    rt::PatternVote vote(c, mine);
    rt::LastCall& last = ctx->last;
    const bool early =
        ctx->use_cache && local.code == 0 && ctx->transport->starts_early() && last.may_start_early(vote);
    vote.start(early);
    std::unique_ptr<optiq_request> req;
    if (early) req = rt::start_operation(ctx, last.schedule, buffers, std::move(staged));
    vote.wait();
    if (req && last.confirmed_by(vote)) {
      ctx->stats.plan_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
      ++ctx->stats.plan_cache_hits;
      ++ctx->stats.early_starts;
      *request = req.release();
      return;
    }
    if (vote.early_starts() && !last.confirmed_by(vote)) {
      if (req) {
        staged = std::move(req->staged);  // buffers.send still points into it
        req.reset();
        ++ctx->stats.early_starts_withdrawn;
      }
      ctx->transport->withdraw(early);
    }
    last = {};
    bool hit = false;
    auto schedule = rt::settle_pattern(c, mine, vote, ctx->use_cache ? &ctx->cache : nullptr,
                                       [&](const auto& sends, const auto& recvs) {
                                         return rt::schedule_jobs(ctx->setup, rt::match_pattern(sends, recvs));
                                       },
                                       &hit);
    last = {vote.key(), vote.digest(), schedule};
    ctx->stats.plan_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    if (hit) ++ctx->stats.plan_cache_hits;
    else ++ctx->stats.plans_made;
    *request = rt::start_operation(ctx, std::move(schedule), std::move(buffers), std::move(staged)).release();
  });
}

}  // namespace

namespace {

// The request is the application's now: the progress thread may advance it.
void hand_out(optiq_context* ctx, optiq_request* req) {
  if (!ctx->progress_thread || !req) return;
  std::lock_guard<std::mutex> lock(ctx->progress_mutex);
  ctx->handed_out = req;
}

// Frees a completed request (the caller holds the context's progress lock).
void retire(optiq_request_t* request) {
  optiq_request* req = *request;
  if (req->ctx->handed_out == req) req->ctx->handed_out = nullptr;
  delete req;
  *request = nullptr;
}

// A failure the progress thread met, reported once by the call that collects the request.
int thread_failure(optiq_request* req) {
  if (req->failed.code == OPTIQ_SUCCESS) return OPTIQ_SUCCESS;
  req->ctx->error = req->failed.message;
  return req->failed.code;
}

}  // namespace

extern "C" {

int optiq_ialltoallv(const void* sendbuf, const int sendcounts[], const int sdispls[], MPI_Datatype sendtype,
                     void* recvbuf, const int recvcounts[], const int rdispls[], MPI_Datatype recvtype, optiq_t ctx,
                     optiq_request_t* request) {
  if (request) *request = nullptr;
  const int status = start(sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls, recvtype, ctx, request);
  if (status == OPTIQ_SUCCESS) hand_out(ctx, *request);
  return status;
}

int optiq_test(optiq_request_t* request, int* flag) {
  if (!request || !*request || !flag) return OPTIQ_ERR_ARG;
  *flag = 0;
  optiq_request* req = *request;
  std::lock_guard<std::mutex> lock(req->ctx->progress_mutex);
  if (int failed = thread_failure(req)) return failed;
  bool done = false;
  const int status = rt::guarded(req->ctx, [&] { done = rt::progress(req, rt::Idle::Pause); });
  if (status != OPTIQ_SUCCESS || !done) return status;
  *flag = 1;
  retire(request);
  return OPTIQ_SUCCESS;
}

int optiq_wait(optiq_request_t* request) {
  if (!request || !*request) return OPTIQ_ERR_ARG;
  optiq_request* req = *request;
  std::lock_guard<std::mutex> lock(req->ctx->progress_mutex);
  if (int failed = thread_failure(req)) return failed;
  const int status = rt::guarded(req->ctx, [&] {
    while (!rt::progress(req, rt::Idle::Block)) {
    }
  });
  if (status != OPTIQ_SUCCESS) return status;
  retire(request);
  return OPTIQ_SUCCESS;
}

int optiq_progress(optiq_t ctx) {
  if (!ctx) return OPTIQ_ERR_ARG;
  if (!ctx->ready) return OPTIQ_ERR_STATE;
  std::lock_guard<std::mutex> lock(ctx->progress_mutex);
  optiq_request* req = ctx->active;
  if (!req || req->complete) return OPTIQ_SUCCESS;
  return rt::guarded(ctx, [&] { rt::progress(req, rt::Idle::Return); });
}

int optiq_alltoallv(const void* sendbuf, const int sendcounts[], const int sdispls[], MPI_Datatype sendtype,
                    void* recvbuf, const int recvcounts[], const int rdispls[], MPI_Datatype recvtype, optiq_t ctx) {
  optiq_request_t req = nullptr;
  const int status =
      optiq_ialltoallv(sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls, recvtype, ctx, &req);
  if (status != OPTIQ_SUCCESS) return status;
  return optiq_wait(&req);
}

}  // extern "C"
