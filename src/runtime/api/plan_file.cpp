// Plans made offline: load once, execute with the application's buffers; both collective.
#include "runtime/api/context.hpp"
#include "optiq/core/bytes.hpp"

using namespace optiq;
using optiq::rt::Failure;

namespace {

// Byte offsets of the peers this rank exchanges bytes with under the plan; throws Failure
// naming the first bad argument.
void read_displs(const std::vector<PeerBytes>& peers, const void* buf, const MPI_Aint* displs, const char* what,
                 std::vector<Bytes>* off) {
  if (peers.empty()) return;
  const std::string side = what, name = side.substr(0, 1) + "displs";  // as the header names them
  if (!buf || !displs)
    throw Failure(OPTIQ_ERR_ARG, side + "buf or " + name + " is NULL, but the plan has bytes for this rank");
  for (const PeerBytes& p : peers) {
    const std::string at = name + "[" + std::to_string(p.peer) + "]";
    if (displs[p.peer] < 0)
      throw Failure(OPTIQ_ERR_ARG, at + " is negative (" + std::to_string(displs[p.peer]) + ")");
    (*off)[p.peer] = static_cast<Bytes>(displs[p.peer]);
    try {
      checked_add((*off)[p.peer], p.bytes, at + " plus the plan's bytes");
    } catch (const Error& e) {
      throw Failure(OPTIQ_ERR_ARG, e.what());
    }
  }
}

}  // namespace

extern "C" {

int optiq_plan_load(optiq_t ctx, const char* path, optiq_plan_t* plan) {
  if (int status = rt::usable(ctx)) return status;
  if (plan) *plan = nullptr;
  return rt::guarded(ctx, [&] {
    const rt::Comms& c = ctx->comms;
    const rt::Verdict local = rt::verdict([&] {
      if (!plan) throw Failure(OPTIQ_ERR_ARG, "plan is NULL");
      if (c.rank == 0 && !path) throw Failure(OPTIQ_ERR_ARG, "no plan file given");
    });
    rt::agree_status(c, local.code, local.message);
    auto schedule = rt::distribute(c, [&] { return rt::schedule_plan_file(ctx->setup, path); });
    ++ctx->stats.plans_made;
    *plan = new optiq_plan{ctx, std::move(schedule), ++ctx->plans_loaded};
  });
}

int optiq_plan_counts(optiq_plan_t plan, long long sendbytes[], long long recvbytes[]) {
  if (!plan) return OPTIQ_ERR_ARG;
  // Loading refused every plan whose per-peer sums could pass kMaxBytes: the casts are exact.
  // (The plan may outlive its context, so a failure has no message.)
  return rt::verdict([&] {
    const RankSchedule& s = *plan->schedule;
    if (sendbytes) {
      std::fill(sendbytes, sendbytes + s.num_ranks, 0LL);
      for (const PeerBytes& p : s.send_bytes) sendbytes[p.peer] = static_cast<long long>(p.bytes);
    }
    if (recvbytes) {
      std::fill(recvbytes, recvbytes + s.num_ranks, 0LL);
      for (const PeerBytes& p : s.recv_bytes) recvbytes[p.peer] = static_cast<long long>(p.bytes);
    }
  }).code;
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
  return rt::guarded(ctx, [&] {
    rt::Buffers buffers;
    // A rank whose arguments are wrong must not leave the others waiting for its bytes: every
    // rank's verdict is agreed on first (one small allreduce when all is well).
    const rt::Verdict local = rt::verdict([&] {
      if (!plan) throw Failure(OPTIQ_ERR_ARG, "plan is NULL");
      if (plan->ctx != ctx) throw Failure(OPTIQ_ERR_STATE, "the plan was loaded on another context");
      const RankSchedule& s = *plan->schedule;
      buffers.send = static_cast<const char*>(sendbuf);
      buffers.recv = static_cast<char*>(recvbuf);
      buffers.send_off.assign(s.num_ranks, 0);
      buffers.recv_off.assign(s.num_ranks, 0);
      read_displs(s.send_bytes, sendbuf, sdispls, "send", &buffers.send_off);
      read_displs(s.recv_bytes, recvbuf, rdispls, "recv", &buffers.recv_off);
    });
    // Every rank must also run the same plan: handles of different loads would send and receive
    // different bytes and wait for each other for ever.
    rt::agree_status_and_same(ctx->comms, local.code, local.message,
                              rt::fingerprint({std::to_string(plan ? plan->serial : 0)}), "a plan handle");
    auto req = rt::start_operation(ctx, plan->schedule, std::move(buffers));
    while (!rt::progress(req.get(), rt::Idle::Block)) {
    }
  });
}

}  // extern "C"
