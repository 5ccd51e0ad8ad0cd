// What a simulated run charges in simulated time for the CPU work of forwarding.
//
// On a real machine a forwarder's copies take the time they take. Under SimGrid SMPI the
// runtime's own work costs nothing unless charged (smpi/simulate-computation is off: 1,024
// simulated ranks share one host), which flatters every plan that forwards. The SMPI build
// therefore charges each forwarded chunk's copy at a stated copy bandwidth, as computation on
// the rank's simulated host. Per-message costs are SMPI's own (smpi/os, for MPI_Alltoallv's
// messages too; SMPI charges it below 64 KiB only). See docs/simulation.md.
#pragma once

#include "optiq/core/types.hpp"

namespace optiq::rt {

// Bytes/s a rank copies a forwarded chunk at under SMPI, from OPTIQ_SIM_COPY_BANDWIDTH (unset,
// "inf" or 0: free); always free outside SMPI, where the copy is real.
double simulated_copy_bandwidth();

// Charges the copy of `bytes` (no-op when free); returns the seconds charged.
double charge_copy(Bytes bytes);

// Lets up to `seconds` pass without work (simulated seconds under SMPI), or less when the
// system wakes the caller early.
void pause_for(double seconds);

}  // namespace optiq::rt
