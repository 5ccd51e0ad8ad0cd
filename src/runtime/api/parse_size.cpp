// optiq_parse_size: the core's size parser for C callers (the PMPI interposer's settings).
#include "optiq/optiq.h"
#include "optiq/core/pattern.hpp"

extern "C" int optiq_parse_size(const char* text, unsigned long long* bytes) {
  if (!text || !bytes) return OPTIQ_ERR_ARG;
  try {
    *bytes = optiq::parse_bytes(text);
    return OPTIQ_SUCCESS;
  } catch (...) {
    return OPTIQ_ERR_ARG;
  }
}
