// Environment variables -> Config. Every runtime option is read from OPTIQ_<NAME> of its record
// (include/optiq/options.h: optiq_options_name, optiq_options_set), checked by the record. A bad value turns optiq off for the whole
// run (every rank reads the same environment under mpirun -x), never into an error the
// application sees.
#include "pmpi/config.hpp"

#include "optiq/core/pattern.hpp"  // kMaxPriority

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <cstring>

namespace optiq::pmpi {

namespace {

const char* get(const char* name) {
  const char* v = std::getenv(name);
  return v && *v ? v : nullptr;
}

// "halo=0,checkpoint=3": communicator names and priorities; false (and why) on a bad entry.
bool read_classes(const std::string& text, std::map<std::string, int>& out, std::string& why) {
  std::size_t at = 0;
  while (at <= text.size()) {
    const std::size_t end = std::min(text.find(',', at), text.size());
    const std::string item = text.substr(at, end - at);
    const std::size_t eq = item.rfind('=');
    const std::string name = eq == std::string::npos ? "" : item.substr(0, eq);
    const std::string value = eq == std::string::npos ? "" : item.substr(eq + 1);
    const bool digits = !value.empty() && value.size() <= 2 && value.find_first_not_of("0123456789") == std::string::npos;
    if (name.empty() || !digits || std::atoi(value.c_str()) > kMaxPriority) {
      why = "OPTIQ_CLASSES: bad entry '" + item + "' (expected COMMUNICATOR_NAME=PRIORITY, a priority from 0 to " +
            std::to_string(kMaxPriority) + ")";
      return false;
    }
    out[name] = std::atoi(value.c_str());
    at = end + 1;
  }
  return true;
}

// Fills c in place: the options' text fields point into c.texts.
void read(Config& c) {
  optiq_options_init(&c.options);
  const char* verbose = get("OPTIQ_VERBOSE");
  c.verbose = verbose && (!std::strcmp(verbose, "1") || !std::strcmp(verbose, "yes") || !std::strcmp(verbose, "true"));
  const char* topology = get("OPTIQ_TOPOLOGY");
  if (!topology) {
    c.why_off = "OPTIQ_TOPOLOGY is not set";
    return;
  }
  c.topology = topology;
  for (int i = 0; const char* option = optiq_options_name(i); ++i) {
    std::string name = "OPTIQ_";
    for (const char* p = option; *p; ++p) name += *p == '-' ? '_' : static_cast<char>(std::toupper(*p));
    const char* value = get(name.c_str());
    if (!value) continue;
    const std::string& kept = c.texts[option] = value;
    char why[512];
    if (optiq_options_set(&c.options, option, kept.c_str(), why, sizeof why) != OPTIQ_SUCCESS) {
      c.bad_value = true;
      const char* reason = std::strchr(why, ':');  // the message starts with the option's name
      c.why_off = name + "='" + value + "':" + (reason ? reason + 1 : why);
      return;
    }
  }
  if (const char* classes = get("OPTIQ_CLASSES"); classes && !read_classes(classes, c.classes, c.why_off)) {
    c.bad_value = true;
    return;
  }
  c.enabled = true;
}

}  // namespace

const Config& config() {
  static Config c;
  static const bool ready = (read(c), true);
  (void)ready;
  return c;
}

}  // namespace optiq::pmpi
