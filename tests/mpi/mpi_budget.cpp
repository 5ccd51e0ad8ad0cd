// The forwarding budget is a hard limit: with budgets of a few slots, ranks that forward for
// others never hold, lend or reserve more bytes than the budget, and every byte still arrives.
#include "scenario.hpp"

using namespace mpitest;

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  const int rank = world_rank(), size = world_size();
  Checker ck;
  unsigned long long forwarded_total = 0;
  for (optiq_transport tr : {OPTIQ_TRANSPORT_P2P, OPTIQ_TRANSPORT_RMA})
    for (std::size_t chunk : {std::size_t(8), std::size_t(0)}) {
      // Start below what any forwarding rank needs and grow in small steps until the schedule
      // fits: the smallest budget that works is the one to hold the runtime to.
      optiq_options o = options("heu1", tr, chunk);
      o.forward_budget_bytes = chunk ? 8 : 512;
      const Exchange x = make_exchange(7, rank, size, 1, {1.0, chunk ? 400 : 20000, false});
      const std::string what = std::string(transport_name(tr)) + (chunk ? " chunk 8" : " automatic chunks");
      for (int attempt = 0; attempt < 200; ++attempt) {
        optiq_t ctx;
        optiq_create(MPI_COMM_WORLD, full_machine(size).c_str(), &o, &ctx);
        std::vector<unsigned char> sbuf, rbuf;
        fill_buffers(x, sbuf, rbuf, rank, 1);
        const int st = common_status(optiq_alltoallv(sbuf.data(), x.scounts.data(), x.sdispls.data(), MPI_BYTE,
                                                     rbuf.data(), x.rcounts.data(), x.rdispls.data(), MPI_BYTE, ctx));
        if (st == OPTIQ_ERR_SCHEDULE) {
          optiq_destroy(&ctx);
          o.forward_budget_bytes += o.forward_budget_bytes / 4 + 1;
          continue;
        }
        ck.expect(st == OPTIQ_SUCCESS, "%s: %s", what.c_str(), optiq_error_string(ctx));
        std::string why;
        const bool right = verify_buffers(x, rbuf, rank, 1, &why);
        ck.expect(right, "%s: %s", what.c_str(), why.c_str());
        for (int again = 0; again < 3; ++again)  // repeated calls reuse the same slots
          checked_call(ctx, x, MPI_BYTE, 2 + again, ck, what + " again", again == 1);
        optiq_stats s;
        optiq_get_stats(ctx, &s);
        ck.expect(s.budget_bytes == o.forward_budget_bytes, "%s: budget %llu", what.c_str(), s.budget_bytes);
        ck.expect(s.held_bytes_peak <= s.budget_bytes, "%s: held %llu bytes at once, budget %llu", what.c_str(),
                  s.held_bytes_peak, s.budget_bytes);
        ck.expect(s.slot_bytes_lent <= s.budget_bytes, "%s: lent %llu bytes of slots, budget %llu", what.c_str(),
                  s.slot_bytes_lent, s.budget_bytes);
        ck.expect(s.reserved_bytes <= s.budget_bytes, "%s: reserved %llu bytes, budget %llu", what.c_str(),
                  s.reserved_bytes, s.budget_bytes);
        forwarded_total += s.forwarded_bytes;
        if (rank == 0)
          std::printf("%s: budget %zu bytes, forwarded %llu bytes on rank 0, held at most %llu\n", what.c_str(),
                      o.forward_budget_bytes, s.forwarded_bytes, s.held_bytes_peak);
        optiq_destroy(&ctx);
        break;
      }
    }
  unsigned long long all = 0;
  MPI_Allreduce(&forwarded_total, &all, 1, MPI_UNSIGNED_LONG_LONG, MPI_SUM, MPI_COMM_WORLD);
  // Below four ranks no path needs a forwarder; above, a test that never forwards proves nothing.
  ck.expect(size < 4 || all > 0, "nothing was forwarded");
  const int failures = ck.total();
  if (rank == 0) std::printf("%s: %d failures at %d ranks\n", failures ? "FAILED" : "passed", failures, size);
  MPI_Finalize();
  return failures ? 1 : 0;
}
