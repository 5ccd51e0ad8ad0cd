// How every tool prints its result: one JSON document on standard output, rank 0 only.
#pragma once

#include <cstdio>

#include "util/json.hpp"

namespace optiq::tools {

// Names come from command lines and files and may be any bytes: what is not UTF-8 is replaced.
inline void print_document(const json::Ordered& doc) {
  std::printf("%s\n", doc.dump(-1, ' ', false, json::Ordered::error_handler_t::replace).c_str());
  std::fflush(stdout);
}

}  // namespace optiq::tools
