// AUTO's rule. Provisional until measured (see docs/exchange.md).
#include "exchange/protocols.hpp"

namespace optiq::sx {

optiq_sx_protocol choose_protocol(int size, int max_neighbors) {
  (void)size;
  (void)max_neighbors;
  return OPTIQ_SX_NBX;
}

}  // namespace optiq::sx
