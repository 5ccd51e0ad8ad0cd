// AUTO's rule, from the measurements in docs/exchange.md (bench/sparse_exchange.py): PEX's
// all-to-all of sizes costs Theta(P) per rank, NBX's metadata only a log2 P barrier, but NBX
// pays a synchronous handshake on each of its k messages. Measured on up to 16 local ranks PEX
// (or PCX, within noise) was fastest everywhere; simulated with SMPI on tori of 64 to 1024
// ranks, NBX overtook PEX only once P reached about 128 times the neighbour count (k = 6: PEX
// ahead at 512 ranks, NBX ahead at 1024; k = 1: NBX ahead at 512). PCX and RSX were never
// clearly the fastest.
#include <algorithm>

#include "exchange/protocols.hpp"

namespace optiq::sx {

namespace {
constexpr long kNbxRanksPerNeighbour = 128;
constexpr int kAssumedNeighbours = 6;  // k unknown: the seed paper's sparse microbenchmark
}  // namespace

optiq_sx_protocol choose_protocol(int size, int max_neighbors) {
  const long k = std::max(1, max_neighbors < 0 ? kAssumedNeighbours : max_neighbors);
  return size >= kNbxRanksPerNeighbour * k ? OPTIQ_SX_NBX : OPTIQ_SX_PEX;
}

}  // namespace optiq::sx
