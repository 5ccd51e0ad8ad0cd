// The C API: checks what must be checked before any communication, runs the protocol, and
// turns refusals anywhere into the same status everywhere.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <string>

#include "exchange/barrier.hpp"
#include "exchange/comm_state.hpp"
#include "exchange/protocols.hpp"
#include "optiq/exchange.h"

using namespace optiq::sx;

namespace {

void set_message(optiq_sx_result* result, const std::string& text) {
  if (result) std::snprintf(result->message, sizeof result->message, "%s", text.c_str());
}

int refuse(optiq_sx_result* result, const std::string& text) {
  set_message(result, "optiq_sparse_exchange: " + text);
  return OPTIQ_ERR_ARG;
}

// A C caller may pass any int where an enum is expected, and loading a value outside an
// enum's range as that enum is undefined behaviour in C++: enum arguments are read as ints
// and only converted back once known to be valid.
template <class E>
int as_int(const E& e) {
  static_assert(sizeof(E) == sizeof(int), "C enums are int-sized here");
  int v;
  std::memcpy(&v, &e, sizeof v);
  return v;
}

struct Settings {
  optiq_sx_protocol protocol = OPTIQ_SX_AUTO;
  optiq_sx_barrier barrier = OPTIQ_SX_BARRIER_AUTO;
  int max_neighbors = -1;
};

// Refusals that cannot be shared with other ranks: without a usable communicator this rank
// cannot take part at all.
std::string unusable(MPI_Comm comm) {
  int flag = 0;
  MPI_Initialized(&flag);
  if (!flag) return "MPI is not initialised";
  MPI_Finalized(&flag);
  if (flag) return "MPI is finalised";
  if (comm == MPI_COMM_NULL) return "comm is MPI_COMM_NULL";
  MPI_Comm_test_inter(comm, &flag);
  if (flag) return "comm is an inter-communicator (only intra-communicators are supported)";
  return "";
}

// This rank's protocol and options: the steps every rank must agree on.
std::string bad_arguments(int protocol, const optiq_sx_options* options, Settings& s) {
  if (protocol < OPTIQ_SX_AUTO || protocol > OPTIQ_SX_NBX)
    return "protocol " + std::to_string(protocol) + " is not a protocol";
  s.protocol = static_cast<optiq_sx_protocol>(protocol);
  if (!options) return "";
  const int barrier = as_int(options->barrier);
  if (barrier < OPTIQ_SX_BARRIER_AUTO || barrier > OPTIQ_SX_BARRIER_DISSEMINATION)
    return "options->barrier " + std::to_string(barrier) + " is not a barrier kind";
  s.barrier = static_cast<optiq_sx_barrier>(barrier);
  s.max_neighbors = options->max_neighbors;
  if (s.max_neighbors < -1)
    return "options->max_neighbors must be -1 (unknown) or a count, not " + std::to_string(s.max_neighbors);
  return "";
}

// The protocol and options must be the same on every rank (docs/errors.md): one allreduce on
// the control communicator folds every rank's fingerprint of them and its own refusal, so a
// difference or a refusal anywhere fails the call on every rank before any message moves.
std::string agree_arguments(const CommState& state, int protocol, const optiq_sx_options* options, Settings& s) {
  const std::string mine = bad_arguments(protocol, options, s);
  // FNV-1a over the three values as given, NULL options standing for the defaults.
  std::uint64_t h = 0xcbf29ce484222325ULL;
  for (long long x : {static_cast<long long>(protocol),
                      static_cast<long long>(options ? as_int(options->barrier) : int(OPTIQ_SX_BARRIER_AUTO)),
                      static_cast<long long>(options ? options->max_neighbors : -1)})
    for (int b = 0; b < 8; ++b) h = (h ^ ((static_cast<unsigned long long>(x) >> (8 * b)) & 0xff)) * 0x100000001b3ULL;
  std::uint64_t folded[3] = {h, ~h, mine.empty() ? 0ULL : 1ULL};
  MPI_Allreduce(MPI_IN_PLACE, folded, 3, MPI_UINT64_T, MPI_MAX, state.control);
  if (!mine.empty()) return mine;
  if (folded[2]) return "another rank's protocol or options were refused";
  if (folded[0] != ~folded[1]) return "the protocol or options differ across ranks (they must be the same on every rank)";
  return "";
}

int exchange(MPI_Comm comm, int nsend, const int* dests, const void* const* sendbufs, const int* sendsizes,
             int protocol, const optiq_sx_options* options, optiq_sx_result* result) {
  Settings s;
  const std::string problem = unusable(comm);
  if (!problem.empty()) return refuse(result, problem);

  CommState& state = state_for(comm);
  const std::string disagreement = agree_arguments(state, protocol, options, s);
  if (!disagreement.empty()) return refuse(result, disagreement);
  const optiq_sx_protocol chosen =
      s.protocol == OPTIQ_SX_AUTO ? choose_protocol(state.size, s.max_neighbors) : s.protocol;
  Outgoing out = check_outgoing(state.rank, state.size, nsend, dests, sendbufs, sendsizes);
  if (!result && !out.bad()) {
    out = Outgoing{};
    out.error = "rank " + std::to_string(state.rank) + ": result is NULL";
  }
  state.begin_call();
  Inbox inbox;
  Call call{state, state.payload_comm(), out, inbox, resolve_barrier(s.barrier)};
  switch (chosen) {
    case OPTIQ_SX_PEX: run_pex(call); break;
    case OPTIQ_SX_PCX: run_pcx(call); break;
    case OPTIQ_SX_RSX: run_rsx(call); break;
    default: run_nbx(call); break;
  }
  if (result) {
    result->protocol = chosen;
    result->barrier = chosen == OPTIQ_SX_NBX ? call.barrier : OPTIQ_SX_BARRIER_AUTO;
  }
  if (out.bad()) return refuse(result, out.error);
  if (inbox.any_failed()) return refuse(result, inbox.failure_message());
  if (out.has_self) inbox.copy_self(state.rank, out.self);
  inbox.hand_over(result);
  return OPTIQ_SUCCESS;
}

}  // namespace

extern "C" {

void optiq_sx_options_init(optiq_sx_options* options) {
  if (!options) return;
  options->barrier = OPTIQ_SX_BARRIER_AUTO;
  options->max_neighbors = -1;
}

int optiq_sparse_exchange(MPI_Comm comm, int nsend, const int* dests, const void* const* sendbufs,
                          const int* sendsizes, optiq_sx_protocol protocol, const optiq_sx_options* options,
                          optiq_sx_result* result) {
  if (result) std::memset(result, 0, sizeof *result);  // protocol and barrier AUTO until known
  try {
    return exchange(comm, nsend, dests, sendbufs, sendsizes, as_int(protocol), options, result);
  } catch (const std::exception& e) {  // std::bad_alloc: peers may be waiting for this rank
    fatal(e.what());
  } catch (...) {  // nothing may unwind into a C caller
    fatal("an unknown exception");
  }
}

int optiq_sx_result_free(optiq_sx_result* result) {
  if (!result) return OPTIQ_SUCCESS;
  for (int i = 0; i < result->nrecv; ++i) std::free(result->recvbufs ? result->recvbufs[i] : nullptr);
  std::free(result->sources);
  std::free(result->sizes);
  std::free(result->recvbufs);
  result->nrecv = 0;
  result->sources = nullptr;
  result->sizes = nullptr;
  result->recvbufs = nullptr;
  return OPTIQ_SUCCESS;
}

const char* optiq_sx_protocol_name(optiq_sx_protocol protocol) {
  switch (as_int(protocol)) {
    case OPTIQ_SX_AUTO: return "auto";
    case OPTIQ_SX_PEX: return "pex";
    case OPTIQ_SX_PCX: return "pcx";
    case OPTIQ_SX_RSX: return "rsx";
    case OPTIQ_SX_NBX: return "nbx";
  }
  return nullptr;
}

const char* optiq_sx_barrier_name(optiq_sx_barrier barrier) {
  switch (as_int(barrier)) {
    case OPTIQ_SX_BARRIER_AUTO: return "auto";
    case OPTIQ_SX_BARRIER_IBARRIER: return "ibarrier";
    case OPTIQ_SX_BARRIER_DISSEMINATION: return "dissemination";
  }
  return nullptr;
}

}  // extern "C"
