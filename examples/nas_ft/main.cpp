/* NAS FT on a pencil decomposition, its transposes moved by MPI or by optiq.
 *
 * NPB's FT problem: a pseudo-random complex field, transformed forward once, then per
 * iteration decayed in Fourier space, transformed back and checksummed. The 3-D transforms run
 * on a P1 x P2 process grid with two team transposes each; --variant chooses how they move:
 *
 *   alltoall       MPI_Alltoall, one blocking call per transpose
 *   ialltoallv     MPI_Ialltoallv slab by slab, each slab in flight while the next is computed
 *   optiq          optiq_alltoallv, one blocking call per transpose
 *   optiq-overlap  optiq_ialltoallv slab by slab, the same overlap as ialltoallv
 *
 *   mpirun -np 4 nas-ft --class S --variant all
 *   mpirun -np 8 nas-ft --grid 96x64x48 --procs 2x4 --topology torus:2x2x2 --json
 */
#include <cmath>
#include <cstdio>
#include <map>
#include <string>
#include <vector>

#include <mpi.h>

#include "evolve.hpp"
#include "exchange.hpp"
#include "options.hpp"
#include "pencil_fft.hpp"
#include "random_field.hpp"
#include "verify.hpp"
#include "work_model.hpp"

using namespace ft;

namespace {

struct Outcome {
  std::vector<cplx> checksums;
  PhaseTimes times;      // each phase's maximum over the ranks
  bool on_optiq = false;
  OptiqCounters optiq;   // what the team contexts did during the run, summed over the ranks
};

// One timed run of the whole benchmark, as NPB times it: initial field, forward transform and
// every iteration. A first untimed forward transform touches the memory, and lets optiq plan
// the transposes' patterns (the inverse's are the same, so every later call hits the cache).
// `teams` is given for the optiq variants, whose counters the outcome reports.
Outcome run(const Decomposition& d, const Options& o, Exchange& row, Exchange& column, const OptiqTeams* teams) {
  PhaseTimes times;
  PencilFft fft(d, row, column, o.slabs, times);
  std::vector<cplx> field(d.points), spectrum(d.points);
  auto initial_field = [&] {
    fill_initial_field(field.data(), d.nx, d.ny, d.r1 * d.ny1, d.ny1, d.r2 * d.nz2, d.nz2);
  };
  initial_field();
  // In simulation memory is never cold and MPI needs no warm-up, so only optiq's variants, which
  // plan in it, pay for the untimed transform.
  if (teams || !work_rates().simulated) fft.forward(field.data(), spectrum.data());

  times = PhaseTimes{};
  Outcome out;
  const OptiqCounters before = teams ? optiq_counters(*teams) : OptiqCounters{};
  MPI_Barrier(MPI_COMM_WORLD);
  const double start = MPI_Wtime();
  initial_field();
  const std::vector<double> decay = step_decays(d);
  fft.forward(field.data(), spectrum.data());
  for (int t = 1; t <= o.iterations; ++t) {
    double t0 = MPI_Wtime();
    evolve(spectrum.data(), decay.data(), field.data(), d.points);
    charge_copy(d.points * sizeof(cplx));
    times.evolve += MPI_Wtime() - t0;
    fft.inverse(field.data(), field.data());
    t0 = MPI_Wtime();
    out.checksums.push_back(checksum(d, field.data(), MPI_COMM_WORLD));
    times.checksum += MPI_Wtime() - t0;
  }
  times.total = MPI_Wtime() - start;

  double mine[6] = {times.total, times.fft, times.pack, times.exchange, times.evolve, times.checksum}, most[6];
  MPI_Allreduce(mine, most, 6, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  out.times = {most[1], most[2], most[3], most[4], most[5], most[0]};
  if (teams) {
    const OptiqCounters after = optiq_counters(*teams);
    double delta[4] = {after.operations - before.operations, after.plans_made - before.plans_made,
                       after.injected_bytes - before.injected_bytes, after.forwarded_bytes - before.forwarded_bytes};
    MPI_Allreduce(MPI_IN_PLACE, delta, 4, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    out.on_optiq = true;
    out.optiq = {delta[0], delta[1], delta[2], delta[3]};
  }
  return out;
}

std::string grid_text(const Options& o) {
  return std::to_string(o.nx) + "x" + std::to_string(o.ny) + "x" + std::to_string(o.nz);
}

// The share of the exchange an overlapping variant hides, against its blocking counterpart run
// in the same job: 1 - (overlapped total - compute) / exchange alone, where compute is the
// blocking run's time outside its exchanges. NaN without a counterpart.
double overlap_fraction(const Outcome& overlapped, const Outcome* alone) {
  if (!alone || !(alone->times.exchange > 0)) return std::nan("");
  const double compute = alone->times.total - alone->times.exchange;
  return 1.0 - (overlapped.times.total - compute) / alone->times.exchange;
}

void print_text(const Options& o, Variant v, int ranks, const Reference& ref, const Outcome& r, bool verified,
                const Outcome* alone) {
  std::printf("\n variant %s: %s%s%s\n", variant_name(v), variant_call(v), r.on_optiq ? ", topology " : "",
              r.on_optiq ? o.topology.c_str() : "");
  for (std::size_t t = 0; t < r.checksums.size(); ++t) {
    const cplx c = r.checksums[t];
    if (ref.checksums.empty())
      std::printf("  T = %2zu  checksum %.12e %.12e\n", t + 1, c.real(), c.imag());
    else
      std::printf("  T = %2zu  checksum %.12e %.12e  error %.2e\n", t + 1, c.real(), c.imag(),
                  relative_error(c, ref.checksums[t]));
  }
  if (ref.checksums.empty())
    std::printf(" Verification: NOT PERFORMED (%s)\n", ref.source.c_str());
  else
    std::printf(" Verification: %s (%s, %s; tolerance %.0e relative)\n", verified ? "SUCCESSFUL" : "UNSUCCESSFUL",
                variant_name(v), ref.source.c_str(), kTolerance);
  const PhaseTimes& s = r.times;
  std::printf(" Times (s, slowest rank): total %.4f  local FFTs %.4f  pack/unpack %.4f  exchange %.4f"
              "  evolve %.4f  checksum %.4f  (%d ranks)\n",
              s.total, s.fft, s.pack, s.exchange, s.evolve, s.checksum, ranks);
  const double hidden = overlap_fraction(r, alone);
  if (!std::isnan(hidden))
    std::printf(" Overlap: %.1f%% of the exchange hidden (against %s's exchange of %.4f s)\n", 100 * hidden,
                variant_name(blocking_counterpart(v)), alone->times.exchange);
  if (r.on_optiq)
    std::printf(" optiq (all ranks): %.0f operations, %.0f plans made, %.1f MiB sent, %.1f MiB forwarded\n",
                r.optiq.operations, r.optiq.plans_made, r.optiq.injected_bytes / 1048576.0,
                r.optiq.forwarded_bytes / 1048576.0);
  std::fflush(stdout);
}

void print_json(const Options& o, Variant v, int ranks, const Reference& ref, const Outcome& r, bool verified,
                const Outcome* alone) {
  std::string sums;
  for (const cplx& c : r.checksums) {
    char item[64];
    std::snprintf(item, sizeof item, "%s[%.17g, %.17g]", sums.empty() ? "" : ", ", c.real(), c.imag());
    sums += item;
  }
  const PhaseTimes& s = r.times;
  char counters[256] = "null";
  if (r.on_optiq)
    std::snprintf(counters, sizeof counters,
                  "{\"operations\": %.0f, \"plans_made\": %.0f, \"injected_bytes\": %.0f, \"forwarded_bytes\": %.0f}",
                  r.optiq.operations, r.optiq.plans_made, r.optiq.injected_bytes, r.optiq.forwarded_bytes);
  char hidden[32] = "null";
  if (const double f = overlap_fraction(r, alone); !std::isnan(f)) std::snprintf(hidden, sizeof hidden, "%.6f", f);
  const WorkRates& rates = work_rates();
  char charged[128] = "null";
  if (rates.simulated)
    std::snprintf(charged, sizeof charged, "{\"fft_flops\": %.9g, \"copy_bandwidth\": %.9g}", rates.fft_flops,
                  rates.copy_bandwidth);
  std::printf("{\"variant\": \"%s\", \"class\": %s, \"grid\": \"%s\", \"procs\": \"%dx%d\", \"ranks\": %d, "
              "\"slabs\": %d, \"topology\": \"%s\", \"iterations\": %d, \"verified\": %s, \"reference\": \"%s\", "
              "\"checksums\": [%s], \"seconds\": %.6f, \"exchange_seconds\": %.6f, \"compute_seconds\": %.6f, "
              "\"fft_seconds\": %.6f, \"pack_seconds\": %.6f, \"evolve_seconds\": %.6f, \"overlap_fraction\": %s, \"charged\": %s, \"optiq\": %s}\n",
              variant_name(v), o.npb_class ? (std::string("\"") + o.npb_class + "\"").c_str() : "null",
              grid_text(o).c_str(), o.p1, o.p2, ranks, o.slabs, o.topology.c_str(), o.iterations,
              verified ? "true" : "false", ref.checksums.empty() ? "none" : ref.published ? "npb" : "serial",
              sums.c_str(), s.total, s.exchange, s.fft + s.pack, s.fft, s.pack, s.evolve, hidden, charged, counters);
  std::fflush(stdout);
}

// Runs every chosen variant; returns the process's exit status.
int run_all(const Options& o, int rank, int ranks) {
  const Decomposition d(o.nx, o.ny, o.nz, o.p1, o.p2, rank);
  MPI_Comm row, column;  // the teams of the two transposes, ranked by position in the grid
  MPI_Comm_split(MPI_COMM_WORLD, d.r2, d.r1, &row);
  MPI_Comm_split(MPI_COMM_WORLD, d.r1, d.r2, &column);

  int status = 0;
  {
    OptiqTeams teams;
    if (o.uses_optiq()) {
      const optiq_options options = o.optiq();
      std::string error;
      if (create_optiq_teams(row, column, o.topology.c_str(), options, teams, &error) != OPTIQ_SUCCESS) {
        if (rank == 0) std::fprintf(stderr, "nas-ft: error: --topology %s: %s\n", o.topology.c_str(), error.c_str());
        status = 2;
      }
    }
    if (status == 0) {
      const Reference ref = reference_checksums(o.nx, o.ny, o.nz, o.iterations, MPI_COMM_WORLD);
      if (rank == 0 && !o.json) {
        std::printf(" NAS FT: %s grid, %d iterations", grid_text(o).c_str(), o.iterations);
        if (o.npb_class) std::printf(" (NPB class %c)", o.npb_class);
        std::printf("; %d ranks as a %dx%d pencil grid, %d slabs per overlapped transpose\n", ranks, o.p1, o.p2,
                    o.slabs);
      }
      if (rank == 0 && !o.json && work_rates().simulated)
        std::printf(" Simulated work: FFT lines at %.3g flop/s (5 n log2 n each), copies at %.3g B/s (0: free)\n",
                    work_rates().fft_flops, work_rates().copy_bandwidth);
      std::map<Variant, Outcome> done;
      for (Variant v : o.variants) {
        const bool on_optiq = v == Variant::optiq || v == Variant::optiq_overlap;
        auto row_exchange = make_exchange(v, row, on_optiq ? teams.row : nullptr);
        auto column_exchange = make_exchange(v, column, on_optiq ? teams.column : nullptr);
        const Outcome r = run(d, o, *row_exchange, *column_exchange, on_optiq ? &teams : nullptr);
        bool verified = !ref.checksums.empty();
        for (std::size_t t = 0; verified && t < r.checksums.size(); ++t)
          verified = relative_error(r.checksums[t], ref.checksums[t]) <= kTolerance;
        if (!verified && !ref.checksums.empty()) status = 1;
        const auto alone = done.find(blocking_counterpart(v));
        const Outcome* counterpart = v != blocking_counterpart(v) && alone != done.end() ? &alone->second : nullptr;
        if (rank == 0) (o.json ? print_json : print_text)(o, v, ranks, ref, r, verified, counterpart);
        done.emplace(v, r);
      }
    }
  }  // the optiq contexts go before their communicators
  MPI_Comm_free(&row);
  MPI_Comm_free(&column);
  return status;
}

// optiq's progress thread (--progress-thread 1) calls MPI beside the application's thread,
// which MPI allows only at MPI_THREAD_MULTIPLE; optiq refuses it otherwise.
bool wants_threads(int argc, char** argv) {
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--progress-thread") return i + 1 < argc && std::string(argv[i + 1]) != "0";
    if (arg.rfind("--progress-thread=", 0) == 0) return arg.substr(18) != "0";
  }
  return false;
}

}  // namespace

int main(int argc, char** argv) {
  if (wants_threads(argc, argv)) {
    int provided = 0;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
  } else {
    MPI_Init(&argc, &argv);
  }
  int rank = 0, ranks = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &ranks);

  Options options;
  const std::string error = parse_options(argc, argv, ranks, options);
  int status = 0;
  if (options.help) {
    if (rank == 0) std::fputs(kUsage, stdout);
  } else if (!error.empty()) {
    if (rank == 0) std::fprintf(stderr, "nas-ft: error: %s\n", error.c_str());
    status = 2;
  } else {
    status = run_all(options, rank, ranks);
  }
#ifndef OPTIQ_SMPI
  fftw_cleanup();  // under SMPI the ranks share FFTW's state, and one rank must not free the others'
#endif
  MPI_Finalize();
  return status;
}
