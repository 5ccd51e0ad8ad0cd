// One line on standard error, once per process and kind: for settings that are legal but cost
// far more than they look (docs/errors.md, "Legal but slow").
#pragma once

#include <cstdio>
#include <mutex>
#include <set>
#include <string>

namespace optiq::rt {

inline void warn_once(const std::string& kind, const std::string& text) {
  static std::mutex mutex;
  static std::set<std::string> said;
  const std::lock_guard<std::mutex> lock(mutex);
  if (said.insert(kind).second) std::fprintf(stderr, "optiq: warning: %s\n", text.c_str());
}

}  // namespace optiq::rt
