// The records from C: options by name, set from text (include/optiq/options.h).
#include <cstring>
#include <exception>

#include "optiq/core/error.hpp"
#include "options/table.hpp"

namespace {

constexpr int kSuccess = 0;   // OPTIQ_SUCCESS (optiq.h)
constexpr int kBadArgument = 1;  // OPTIQ_ERR_ARG

const char* name_at(const std::vector<optiq::OptionRecord>& records, int index) {
  return index >= 0 && static_cast<std::size_t>(index) < records.size() ? records[index].name.c_str() : nullptr;
}

void say(char* message, std::size_t size, const std::string& text) {
  if (!message || size == 0) return;
  const std::size_t n = std::min(size - 1, text.size());
  std::memcpy(message, text.data(), n);
  message[n] = '\0';
}

template <class Options>
int set(Options* options, const char* name, const char* value, char* message, std::size_t size) {
  try {
    if (!options || !name || !value) throw optiq::Error("options, name and value must not be NULL");
    optiq::set_option(*options, name, value);
    say(message, size, "");
    return kSuccess;
  } catch (const std::exception& e) {
    say(message, size, (name ? std::string(name) + ": " : std::string()) + e.what());
    return kBadArgument;
  }
}

}  // namespace

extern "C" {

const char* optiq_options_name(int index) { return name_at(optiq::option_records("runtime"), index); }

int optiq_options_set(optiq_options* options, const char* name, const char* value, char* message, size_t size) {
  return set(options, name, value, message, size);
}

const char* optiq_io_options_name(int index) { return name_at(optiq::option_records("io"), index); }

int optiq_io_options_set(optiq_io_options* options, const char* name, const char* value, char* message, size_t size) {
  return set(options, name, value, message, size);
}

}  // extern "C"
