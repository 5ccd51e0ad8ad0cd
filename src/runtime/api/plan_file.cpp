// Plans made offline: load once (collective), execute with the application's buffers.
#include "context.hpp"

using namespace optiq;

extern "C" {

int optiq_plan_load(optiq_t ctx, const char* path, optiq_plan_t* plan) {
  if (int status = rt::usable(ctx)) return status;
  if (!plan) {
    ctx->error = "plan is NULL";
    return OPTIQ_ERR_ARG;
  }
  *plan = nullptr;
  return rt::guarded(ctx, [&] {
    const rt::Comms& c = ctx->comms;
    int code = 0;
    std::string message;
    if (c.rank == 0 && !path) {
      code = OPTIQ_ERR_ARG;
      message = "no plan file given";
    }
    rt::agree_status(c, code, message);
    auto schedule = rt::distribute(c, [&] { return rt::schedule_plan_file(ctx->setup, path); });
    ++ctx->stats.plans_made;
    *plan = new optiq_plan{ctx, std::move(schedule)};
  });
}

int optiq_plan_counts(optiq_plan_t plan, long long sendbytes[], long long recvbytes[]) {
  if (!plan) return OPTIQ_ERR_ARG;
  const RankSchedule& s = *plan->schedule;
  if (sendbytes) {
    std::fill(sendbytes, sendbytes + s.num_ranks, 0LL);
    for (const PeerBytes& p : s.send_bytes) sendbytes[p.peer] = static_cast<long long>(p.bytes);
  }
  if (recvbytes) {
    std::fill(recvbytes, recvbytes + s.num_ranks, 0LL);
    for (const PeerBytes& p : s.recv_bytes) recvbytes[p.peer] = static_cast<long long>(p.bytes);
  }
  return OPTIQ_SUCCESS;
}

int optiq_plan_free(optiq_plan_t* plan) {
  if (!plan || !*plan) return OPTIQ_ERR_ARG;
  delete *plan;
  *plan = nullptr;
  return OPTIQ_SUCCESS;
}

int optiq_execute(optiq_t ctx, optiq_plan_t plan, const void* sendbuf, const MPI_Aint sdispls[], void* recvbuf,
                  const MPI_Aint rdispls[]) {
  if (int status = rt::usable(ctx)) return status;
  if (!plan || plan->ctx != ctx) {
    ctx->error = plan ? "the plan was loaded on another context" : "plan is NULL";
    return plan ? OPTIQ_ERR_STATE : OPTIQ_ERR_ARG;
  }
  const RankSchedule& s = *plan->schedule;
  rt::Buffers buffers;
  buffers.send = static_cast<const char*>(sendbuf);
  buffers.recv = static_cast<char*>(recvbuf);
  buffers.send_off.assign(s.num_ranks, 0);
  buffers.recv_off.assign(s.num_ranks, 0);
  auto side = [&](const std::vector<PeerBytes>& peers, const void* buf, const MPI_Aint* displs, const char* what,
                  std::vector<Bytes>& off) {
    if (peers.empty()) return true;
    if (!buf || !displs) {
      ctx->error = std::string(what) + "buf or " + what + "displs is NULL, but the plan has bytes for this rank";
      return false;
    }
    for (const PeerBytes& p : peers) {
      if (displs[p.peer] < 0) {
        ctx->error = std::string(what) + "displs[" + std::to_string(p.peer) + "] is negative";
        return false;
      }
      off[p.peer] = static_cast<Bytes>(displs[p.peer]);
    }
    return true;
  };
  if (!side(s.send_bytes, sendbuf, sdispls, "send", buffers.send_off) ||
      !side(s.recv_bytes, recvbuf, rdispls, "recv", buffers.recv_off))
    return OPTIQ_ERR_ARG;
  return rt::guarded(ctx, [&] {
    auto req = rt::start_operation(ctx, plan->schedule, std::move(buffers));
    while (!rt::progress(req.get(), true)) {
    }
  });
}

}  // extern "C"
