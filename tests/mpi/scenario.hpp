// Helpers for scenario tests: a context on a machine that fits the job, and one checked
// alltoallv call.
#pragma once

#include <cstdio>
#include <cstdlib>
#include <string>

#include "common.hpp"

namespace mpitest {

// A machine of exactly `size` ranks where multi-path plans do forward: a hypercube-like
// torus when size is a power of two, else a ring.
inline std::string full_machine(int size) {
  if (size >= 4 && (size & (size - 1)) == 0) {
    std::string t = "torus:2";
    for (int m = size / 2; m > 1; m /= 2) t += "x2";
    return t;
  }
  return "torus:" + std::to_string(size);
}

inline optiq_options options(const char* planner, optiq_transport transport, std::size_t chunk = 0) {
  optiq_options o;
  optiq_options_init(&o);
  o.planner = planner;
  o.transport = transport;
  o.chunk_bytes = chunk;
  o.direct_threshold_bytes = 0;
  o.paths_per_job = 8;
  o.min_gain = 0;  // every plan runs: these tests exercise forwarding, whatever it would gain
  return o;
}

inline const char* transport_name(optiq_transport t) { return t == OPTIQ_TRANSPORT_RMA ? "rma" : "p2p"; }

// One blocking (or non-blocking, polled) alltoallv of `x`; checks status and every byte.
inline bool checked_call(optiq_t ctx, const Exchange& x, MPI_Datatype type, std::uint64_t salt, Checker& ck,
                         const std::string& what, bool nonblocking = false) {
  std::vector<unsigned char> sbuf, rbuf;
  const int rank = world_rank();
  fill_buffers(x, sbuf, rbuf, rank, salt);
  int status;
  if (nonblocking) {
    optiq_request_t req = nullptr;
    status = optiq_ialltoallv(sbuf.data(), x.scounts.data(), x.sdispls.data(), type, rbuf.data(), x.rcounts.data(),
                              x.rdispls.data(), type, ctx, &req);
    if (status == OPTIQ_SUCCESS) status = optiq_wait(&req);
  } else {
    status = optiq_alltoallv(sbuf.data(), x.scounts.data(), x.sdispls.data(), type, rbuf.data(), x.rcounts.data(),
                             x.rdispls.data(), type, ctx);
  }
  status = common_status(status);
  if (!ck.expect(status == OPTIQ_SUCCESS, "%s: %s: %s", what.c_str(), optiq_status_name(status),
                 optiq_error_string(ctx)))
    return false;
  std::string why;
  const bool right = verify_buffers(x, rbuf, rank, salt, &why);  // before why is read below
  return ck.expect(right, "%s: %s", what.c_str(), why.c_str());
}

// Every rank returns `want`, the message mentions `needle`, and a correct call then succeeds.
inline void expect_error(optiq_t ctx, int got, int want, const char* needle, const std::string& what, Checker& ck) {
  const int status = common_status(got);
  if (std::getenv("OPTIQ_TEST_TRACE") && world_rank() == 0)  // to read every message once
    std::fprintf(stderr, "%s -> %s: %s\n", what.c_str(), optiq_status_name(got), optiq_error_string(ctx));
  ck.expect(status == want, "%s: status %s on every rank? got %s (%s)", what.c_str(), optiq_status_name(want),
            status < 0 ? "different statuses" : optiq_status_name(status), optiq_error_string(ctx));
  ck.expect(std::string(optiq_error_string(ctx)).find(needle) != std::string::npos,
            "%s: message '%s' does not mention '%s'", what.c_str(), optiq_error_string(ctx), needle);
  checked_call(ctx, make_exchange(999, world_rank(), world_size(), 1, {0.5, 30, true}), MPI_BYTE, 999, ck,
               what + ", then a correct call");
}

}  // namespace mpitest
