#include "runtime/engine/cpu_costs.hpp"

#include <time.h>

#include <cmath>
#include <cstdlib>
#include <string>

#ifdef OPTIQ_SMPI
#include <simgrid/host.h>
#include <smpi/smpi.h>
#endif

namespace optiq::rt {

double simulated_copy_bandwidth() {
#ifdef OPTIQ_SMPI
  // Read once: every simulated rank shares this process and its environment.
  static const double bandwidth = [] {
    const char* text = std::getenv("OPTIQ_SIM_COPY_BANDWIDTH");
    if (!text || !*text) return 0.0;
    char* end = nullptr;
    const double value = std::strtod(text, &end);
    if (end == text || *end != '\0' || !(value >= 0)) return 0.0;  // the CLI checks it before
    return std::isinf(value) ? 0.0 : value;
  }();
  return bandwidth;
#else
  return 0.0;
#endif
}

double charge_copy(Bytes bytes) {
#ifdef OPTIQ_SMPI
  const double bandwidth = simulated_copy_bandwidth();
  if (bandwidth <= 0 || bytes == 0) return 0;
  const double seconds = static_cast<double>(bytes) / bandwidth;
  // smpi_execute(seconds) is not charged while smpi/simulate-computation is off; flops at the
  // host's own speed are.
  smpi_execute_flops(seconds * sg_host_get_speed(sg_host_self()));
  return seconds;
#else
  (void)bytes;
  return 0;
#endif
}

void pause_for(double seconds) {
  if (!(seconds > 0)) return;
  timespec t{static_cast<time_t>(seconds), static_cast<long>((seconds - std::floor(seconds)) * 1e9)};
#ifdef OPTIQ_SMPI
  smpi_nanosleep(&t, nullptr);
#else
  nanosleep(&t, nullptr);
#endif
}

}  // namespace optiq::rt
