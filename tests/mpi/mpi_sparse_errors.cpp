// Bad input to optiq_sparse_exchange, with every protocol and barrier: one rank (or two, or
// all) passes a bad argument while the others pass good ones, some of them sending to the bad
// rank. Every rank must return OPTIQ_ERR_ARG without hanging (ctest's timeout catches a hang):
// the bad rank with a message saying what is wrong, the others naming the bad rank, nobody
// keeping a message. The next exchange on the same communicator must then deliver exactly
// its own messages: nothing of the failed call may linger.
// Also: arguments refused before any communication (an invalid barrier or hint, a null
// communicator), passed on every rank.
#include <cstdio>
#include <cstring>
#include <functional>

#include "sparse.hpp"

using namespace sparsetest;

namespace {

std::uint64_t calls = 1000000;

struct Args {
  int nsend;
  const int* dests;
  const void* const* bufs;
  const int* sizes;
  bool null_result = false;
};

struct BadKind {
  const char* name;
  const char* needle;  // in the bad rank's message
  std::function<void(Args&, int size)> spoil;
};

// Each spoiler replaces all of a bad rank's arrays, so none is read past its end.
std::vector<BadKind> bad_kinds() {
  static int zero_zero[2] = {0, 0}, zero_size[2] = {0, 0}, zero_minus[2] = {0, -1};
  static const int five_minus[2] = {5, -3}, one_one[2] = {1, 1};
  static const char bytes[8] = "payload";
  static const void* two_bufs[2] = {bytes, bytes};
  static const void* null_bufs[2] = {nullptr, nullptr};
  auto set = [](Args& a, int n, const int* d, const void* const* b, const int* z) {
    a.nsend = n;
    a.dests = d;
    a.bufs = b;
    a.sizes = z;
  };
  return {
      {"negative nsend", "nsend is negative (-2)", [=](Args& a, int) { set(a, -2, zero_zero, two_bufs, one_one); }},
      {"destination = size", "is not a rank of the communicator (",
       [=](Args& a, int size) {
         zero_size[1] = size;
         set(a, 2, zero_size, two_bufs, one_one);
       }},
      {"negative destination", "dests[1] = -1 is not a rank of the communicator",
       [=](Args& a, int) { set(a, 2, zero_minus, two_bufs, one_one); }},
      {"negative size", "sendsizes[1] is negative (-3)", [=](Args& a, int) { set(a, 2, zero_zero, two_bufs, five_minus); }},
      {"NULL dests", "dests is NULL with nsend = 1", [=](Args& a, int) { set(a, 1, nullptr, two_bufs, one_one); }},
      {"NULL sendsizes", "sendsizes is NULL with nsend = 1",
       [=](Args& a, int) { set(a, 1, zero_zero, two_bufs, nullptr); }},
      {"NULL sendbufs", "sendbufs is NULL with nsend = 1", [=](Args& a, int) { set(a, 1, zero_zero, nullptr, one_one); }},
      {"NULL buffer", "sendbufs[0] is NULL for a message of 5 bytes",
       [=](Args& a, int) { set(a, 1, zero_zero, null_bufs, five_minus); }},
      {"repeated destination", "dests[1] = 0 repeats dests[0] (send at most one message to each rank)",
       [=](Args& a, int) { set(a, 2, zero_zero, two_bufs, one_one); }},
      {"NULL result", "", [](Args& a, int) { a.null_result = true; }},
  };
}

// Runs one call in which the ranks in `bad` spoil their arguments; checks the outcome.
void failing_call(const Variant& v, const BadKind& kind, const std::vector<int>& bad, std::uint64_t seed,
                  Checker& ck) {
  const int rank = mpitest::world_rank(), size = mpitest::world_size();
  optiq::Rng rng(seed);
  const Pattern good = random_pattern(rng, size, {0, true, 100});  // may send to the bad ranks
  std::vector<unsigned char> bytes(100, 7);
  std::vector<int> dests, sizes;
  std::vector<const void*> bufs;
  for (const Send& s : good[rank]) {
    dests.push_back(s.dest);
    sizes.push_back(s.bytes);
    bufs.push_back(bytes.data());
  }
  Args a{static_cast<int>(dests.size()), dests.data(), bufs.data(), sizes.data()};
  const bool me_bad = std::find(bad.begin(), bad.end(), rank) != bad.end();
  if (me_bad) kind.spoil(a, size);
  optiq_sx_options o;
  optiq_sx_options_init(&o);
  o.barrier = v.barrier;
  optiq_sx_result r;
  const int status =
      optiq_sparse_exchange(MPI_COMM_WORLD, a.nsend, a.dests, a.bufs, a.sizes, v.protocol, &o, a.null_result ? nullptr : &r);
  ++calls;
  const std::string what = v.name() + ", " + kind.name + " on " + std::to_string(bad.size()) + " rank(s) from " +
                           std::to_string(bad.front());
  ck.expect(status == OPTIQ_ERR_ARG, "%s: status %d", what.c_str(), status);
  if (!a.null_result) {  // (a bad rank passing no result has nothing more to look at)
    ck.expect(r.nrecv == 0 && r.sources == nullptr, "%s: %d messages kept", what.c_str(), r.nrecv);
    if (me_bad) {
      const std::string prefix = "optiq_sparse_exchange: rank " + std::to_string(rank) + ": ";
      ck.expect(std::strncmp(r.message, prefix.c_str(), prefix.size()) == 0 && std::strstr(r.message, kind.needle),
                "%s: the bad rank's message is '%s'", what.c_str(), r.message);
    } else {
      const std::string needle = "rank " + std::to_string(bad.front()) + " passed bad arguments";
      ck.expect(std::strstr(r.message, needle.c_str()) != nullptr, "%s: message '%s' lacks '%s'", what.c_str(),
                r.message, needle.c_str());
      if (bad.size() > 1)
        ck.expect(std::strstr(r.message, "other rank") != nullptr, "%s: '%s'", what.c_str(), r.message);
    }
    optiq_sx_result_free(&r);
  }
  // The next call must see exactly its own messages.
  const Pattern next = random_pattern(rng, size, {0, true, 300});
  checked_exchange(MPI_COMM_WORLD, next, calls++, v, ck, what + ", next call");
}

// (An invalid protocol value is tested from C, in c_sparse.c: in C++ merely making such an
// enum value is undefined behaviour.)
void local_refusals(Checker& ck) {
  optiq_sx_result r;
  optiq_sx_options o;
  optiq_sx_options_init(&o);
  const int minus_one = -1;
  std::memcpy(&o.barrier, &minus_one, sizeof minus_one);  // as a C caller could pass it
  int status = optiq_sparse_exchange(MPI_COMM_WORLD, 0, nullptr, nullptr, nullptr, OPTIQ_SX_NBX, &o, &r);
  ck.expect(status == OPTIQ_ERR_ARG && std::strstr(r.message, "options->barrier -1 is not a barrier kind"),
            "barrier -1: '%s'", r.message);
  optiq_sx_options_init(&o);
  o.max_neighbors = -5;
  status = optiq_sparse_exchange(MPI_COMM_WORLD, 0, nullptr, nullptr, nullptr, OPTIQ_SX_AUTO, &o, &r);
  ck.expect(status == OPTIQ_ERR_ARG && std::strstr(r.message, "max_neighbors"), "hint -5: '%s'", r.message);
  status = optiq_sparse_exchange(MPI_COMM_NULL, 0, nullptr, nullptr, nullptr, OPTIQ_SX_PEX, nullptr, &r);
  ck.expect(status == OPTIQ_ERR_ARG && std::strstr(r.message, "MPI_COMM_NULL"), "null comm: '%s'", r.message);
  status = optiq_sparse_exchange(MPI_COMM_NULL, 0, nullptr, nullptr, nullptr, OPTIQ_SX_PEX, nullptr, nullptr);
  ck.expect(status == OPTIQ_ERR_ARG, "null comm and result: %d", status);
  ck.expect(optiq_sx_result_free(nullptr) == OPTIQ_SUCCESS, "freeing NULL");
}

// Protocols or options that differ across ranks, each valid where given (and a value refused on
// one rank only): every rank fails alike before any message moves, and the next call works.
void mismatched_arguments(Checker& ck) {
  const int rank = mpitest::world_rank(), size = mpitest::world_size();
  const bool odd = rank % 2 == 1;
  struct Case {
    const char* what;
    optiq_sx_protocol protocol;
    int barrier, max_neighbors;
    const char* needle;
  };
  const int bad_barrier = 99;
  const Case cases[] = {
      {"protocols that differ", odd ? OPTIQ_SX_PEX : OPTIQ_SX_NBX, OPTIQ_SX_BARRIER_AUTO, -1, "differ across ranks"},
      {"barriers that differ", OPTIQ_SX_NBX, odd ? OPTIQ_SX_BARRIER_IBARRIER : OPTIQ_SX_BARRIER_DISSEMINATION, -1,
       "differ across ranks"},
      {"hints that differ", OPTIQ_SX_AUTO, OPTIQ_SX_BARRIER_AUTO, odd ? 2 : 3, "differ across ranks"},
      {"a barrier refused on the last rank only", OPTIQ_SX_NBX,
       rank == size - 1 ? bad_barrier : int(OPTIQ_SX_BARRIER_AUTO), -1,
       rank == size - 1 ? "is not a barrier kind" : "another rank's protocol or options were refused"},
  };
  const int peer = (rank + 1) % size;
  const char byte = 'x';
  const void* bufs[] = {&byte};
  const int sizes[] = {1};
  for (const Case& c : cases) {
    if (size == 1 && std::strstr(c.needle, "differ")) continue;  // one rank cannot differ from itself
    optiq_sx_options o;
    optiq_sx_options_init(&o);
    std::memcpy(&o.barrier, &c.barrier, sizeof c.barrier);
    o.max_neighbors = c.max_neighbors;
    optiq_sx_result r;
    const int status = mpitest::common_status(optiq_sparse_exchange(MPI_COMM_WORLD, 1, &peer, bufs, sizes, c.protocol, &o, &r));
    ck.expect(status == OPTIQ_ERR_ARG, "%s: status %d on every rank?", c.what, status);
    ck.expect(std::strstr(r.message, c.needle) != nullptr, "%s: message '%s'", c.what, r.message);
    ck.expect(r.nrecv == 0, "%s: %d messages kept", c.what, r.nrecv);
    optiq_sx_result_free(&r);
    const int again = mpitest::common_status(optiq_sparse_exchange(MPI_COMM_WORLD, 1, &peer, bufs, sizes, OPTIQ_SX_NBX, nullptr, &r));
    ck.expect(again == OPTIQ_SUCCESS && r.nrecv == 1, "%s, then a correct call: %d, %d received", c.what, again, r.nrecv);
    optiq_sx_result_free(&r);
  }
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  Checker ck;
  const int size = mpitest::world_size();
  local_refusals(ck);
  mismatched_arguments(ck);
  const std::vector<BadKind> kinds = bad_kinds();
  int n = 0;
  for (const Variant& v : all_variants())
    for (const BadKind& kind : kinds) {
      const int who = (n * 7) % size;
      failing_call(v, kind, {who}, 100 + n, ck);
      ++n;
    }
  // Several bad ranks at once, and all of them.
  for (const Variant& v : all_variants()) {
    std::vector<int> two = {size - 1};
    if (size > 2) two.insert(two.begin(), 1);
    failing_call(v, kinds[3], two, 500 + n++, ck);
    std::vector<int> everyone;
    for (int r = 0; r < size; ++r) everyone.push_back(r);
    failing_call(v, kinds[1], everyone, 600 + n++, ck);
  }
  const int failures = ck.total();
  if (mpitest::world_rank() == 0)
    std::printf("%s: %d failures in %d failing calls at %d ranks\n", failures ? "FAILED" : "passed", failures, n, size);
  MPI_Finalize();
  return failures ? 1 : 0;
}
