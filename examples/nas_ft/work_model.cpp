#include "work_model.hpp"

#include <cmath>
#include <cstdlib>

#ifdef OPTIQ_SMPI
#include <simgrid/host.h>
#include <smpi/smpi.h>
#endif

namespace ft {

namespace {

#ifdef OPTIQ_SMPI
// A positive finite rate from the environment, else 0 (`optiq fft` checks the values it sets).
double rate_from(const char* name) {
  const char* text = std::getenv(name);
  if (!text || !*text) return 0;
  char* end = nullptr;
  const double value = std::strtod(text, &end);
  return end != text && *end == '\0' && value > 0 && std::isfinite(value) ? value : 0;
}

void charge_seconds(double seconds) {
  // smpi_execute(seconds) is ignored while computation timing is off; flops at the host's own
  // speed are charged.
  if (seconds > 0) smpi_execute_flops(seconds * sg_host_get_speed(sg_host_self()));
}
#endif

}  // namespace

const WorkRates& work_rates() {
  // Read once: under SMPI every simulated rank shares this process and its environment.
  static const WorkRates rates = [] {
    WorkRates r;
#ifdef OPTIQ_SMPI
    r.fft_flops = rate_from("OPTIQ_SIM_FFT_RATE");
    r.copy_bandwidth = rate_from("OPTIQ_SIM_COPY_BANDWIDTH");
    r.simulated = true;
#endif
    return r;
  }();
  return rates;
}

double fft_flops(int n, int count) { return 5.0 * n * std::log2(static_cast<double>(n)) * count; }

void charge_fft(int n, int count) {
#ifdef OPTIQ_SMPI
  if (work_rates().fft_flops > 0) charge_seconds(fft_flops(n, count) / work_rates().fft_flops);
#else
  (void)n, (void)count;
#endif
}

void charge_copy(std::size_t bytes) {
#ifdef OPTIQ_SMPI
  if (work_rates().copy_bandwidth > 0) charge_seconds(static_cast<double>(bytes) / work_rates().copy_bandwidth);
#else
  (void)bytes;
#endif
}

}  // namespace ft
