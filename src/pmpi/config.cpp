// Environment variables -> Config. Every runtime option is read from OPTIQ_<NAME> of its record
// (include/optiq/options.h: optiq_options_name, optiq_options_set), checked by the record. A bad value turns optiq off for the whole
// run (every rank reads the same environment under mpirun -x), never into an error the
// application sees.
#include "pmpi/config.hpp"

#include <cctype>
#include <cstdlib>
#include <cstring>

namespace optiq::pmpi {

namespace {

const char* get(const char* name) {
  const char* v = std::getenv(name);
  return v && *v ? v : nullptr;
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
