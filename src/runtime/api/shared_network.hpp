// One parsed network per process for every context built on it.
//
// Under SimGrid SMPI all simulated ranks live in one process, each with a context of its own. A
// private copy of mira:4096+io per context took 6.5 MB, 27 GB for its 4,128 ranks: more than the
// simulation itself. A network never changes once built, so contexts on the same one share it.
#pragma once

#include <memory>
#include <string>

#include "optiq/core/network.hpp"

namespace optiq::rt {

// The network `spec` names (parse_network), shared with every live context on the same spec and,
// for graph:FILE, the same file contents. Thread-safe. Throws optiq::Error as parse_network does.
std::shared_ptr<const Network> shared_network(const std::string& spec);

}  // namespace optiq::rt
