// optiq_alltoallv and its non-blocking form.
#include <chrono>

#include "context.hpp"

using namespace optiq;

namespace {

// Only datatypes whose elements lie back to back without holes: then count elements are
// count * size bytes starting at the displacement, and bytes can be cut anywhere.
bool contiguous(MPI_Datatype t, MPI_Aint* extent) {
  int size = 0;
  MPI_Aint lb = 0, true_lb = 0, true_extent = 0;
  MPI_Type_size(t, &size);
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
  MPI_Aint extent = 0;
};

// Checks one side of the call; fills bytes per peer and byte offsets. Returns a message or "".
std::string check_side(Side& s, int size, std::vector<PeerBytes>* nonzero, std::vector<Bytes>* offsets, int* code) {
  *code = OPTIQ_ERR_ARG;
  if (!s.counts || !s.offsets) return std::string(s.what) + "counts or " + s.displs + " is NULL";
  if (s.type == MPI_DATATYPE_NULL) {
    *code = OPTIQ_ERR_DATATYPE;
    return std::string(s.what) + "type is MPI_DATATYPE_NULL";
  }
  if (!contiguous(s.type, &s.extent)) {
    *code = OPTIQ_ERR_DATATYPE;
    return std::string(s.what) + "type is not contiguous (optiq moves only datatypes without holes)";
  }
  offsets->assign(size, 0);
  for (int r = 0; r < size; ++r) {
    if (s.counts[r] < 0)
      return std::string(s.what) + "counts[" + std::to_string(r) + "] is negative (" + std::to_string(s.counts[r]) + ")";
    if (s.offsets[r] < 0)
      return std::string(s.displs) + "[" + std::to_string(r) + "] is negative (" + std::to_string(s.offsets[r]) + ")";
    const Bytes bytes = static_cast<Bytes>(s.counts[r]) * static_cast<Bytes>(s.extent);
    if (bytes > 0) {
      if (!s.buf) return std::string(s.what) + "buf is NULL but " + s.what + "counts[" + std::to_string(r) + "] is not 0";
      nonzero->push_back({r, bytes});
    }
    (*offsets)[r] = static_cast<Bytes>(s.offsets[r]) * static_cast<Bytes>(s.extent);
  }
  *code = 0;
  return "";
}

int start(const void* sendbuf, const int* sendcounts, const int* sdispls, MPI_Datatype sendtype, void* recvbuf,
          const int* recvcounts, const int* rdispls, MPI_Datatype recvtype, optiq_t ctx,
          std::unique_ptr<optiq_request>* out) {
  if (int status = rt::usable(ctx)) return status;
  return rt::guarded(ctx, [&] {
    const rt::Comms& c = ctx->comms;
    rt::LocalPattern mine;
    rt::Buffers buffers;
    if (sendbuf == MPI_IN_PLACE) {
      mine.code = OPTIQ_ERR_ARG;
      mine.message = "MPI_IN_PLACE is not supported";
    } else {
      Side send{"send", "sdispls", sendbuf, sendcounts, sdispls, sendtype};
      Side recv{"recv", "rdispls", recvbuf, recvcounts, rdispls, recvtype};
      mine.message = check_side(send, c.size, &mine.sends, &buffers.send_off, &mine.code);
      if (mine.code == 0) mine.message = check_side(recv, c.size, &mine.recvs, &buffers.recv_off, &mine.code);
    }
    const auto t0 = std::chrono::steady_clock::now();
    bool hit = false;
    auto schedule = rt::agree_pattern(c, mine, ctx->use_cache ? &ctx->cache : nullptr,
                                      [&](const auto& sends, const auto& recvs) {
                                        return rt::schedule_jobs(ctx->setup, rt::match_pattern(sends, recvs));
                                      },
                                      &hit);
    ctx->stats.plan_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    if (hit) ++ctx->stats.plan_cache_hits;
    else ++ctx->stats.plans_made;
    buffers.send = static_cast<const char*>(sendbuf);
    buffers.recv = static_cast<char*>(recvbuf);
    *out = rt::start_operation(ctx, std::move(schedule), std::move(buffers));
  });
}

}  // namespace

extern "C" {

int optiq_ialltoallv(const void* sendbuf, const int sendcounts[], const int sdispls[], MPI_Datatype sendtype,
                     void* recvbuf, const int recvcounts[], const int rdispls[], MPI_Datatype recvtype, optiq_t ctx,
                     optiq_request_t* request) {
  if (!request) {
    if (ctx) ctx->error = "request is NULL";
    return OPTIQ_ERR_ARG;
  }
  *request = nullptr;
  std::unique_ptr<optiq_request> req;
  const int status = start(sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls, recvtype, ctx, &req);
  if (status == OPTIQ_SUCCESS) *request = req.release();
  return status;
}

int optiq_test(optiq_request_t* request, int* flag) {
  if (!request || !*request || !flag) return OPTIQ_ERR_ARG;
  *flag = 0;
  if (!rt::progress(*request, false)) return OPTIQ_SUCCESS;
  *flag = 1;
  delete *request;
  *request = nullptr;
  return OPTIQ_SUCCESS;
}

int optiq_wait(optiq_request_t* request) {
  if (!request || !*request) return OPTIQ_ERR_ARG;
  while (!rt::progress(*request, true)) {
  }
  delete *request;
  *request = nullptr;
  return OPTIQ_SUCCESS;
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
