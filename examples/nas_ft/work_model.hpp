// What the local work costs in a simulation.
//
// optiq's simulations run every rank in one process with SMPI's computation timing off (1,024
// ranks share this machine's cores, so their real CPU time would mean nothing). nas-ft therefore
// charges its own work by model, in the simulated time of the rank's host:
//   - a batch of `count` lines of n points transformed: 5 n log2 n flops per line (the count FFT
//     benchmarks quote), at OPTIQ_SIM_FFT_RATE flop/s;
//   - bytes copied (packing, unpacking, the evolve step) at OPTIQ_SIM_COPY_BANDWIDTH bytes/s, the
//     rate optiq's forwarders are charged for the chunks they relay.
// `optiq fft --simulate` sets both. Outside SMPI nothing is charged: the work takes what it takes.
#pragma once

#include <cstddef>

namespace ft {

struct WorkRates {
  double fft_flops = 0;       // flop/s; 0: FFTs are not charged
  double copy_bandwidth = 0;  // bytes/s; 0: copies are not charged
  bool simulated = false;     // built for SMPI
};

const WorkRates& work_rates();

double fft_flops(int n, int count);
void charge_fft(int n, int count);
void charge_copy(std::size_t bytes);

}  // namespace ft
