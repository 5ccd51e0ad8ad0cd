// A layer's option records (include/optiq/core/options.hpp) as a tool's --name options.
#pragma once

#include <map>
#include <set>
#include <string>

#include "optiq/core/options.hpp"
#include "tools/common/cli.hpp"

namespace optiq::tools {

// The values given for a layer's options, by record name (texts as typed, checked by the record).
using RecordValues = std::map<std::string, std::string>;

// Adds --NAME for every record of `layer` but those in `skip`; a flag record takes --NAME and
// --no-NAME. Values land in `values`, checked by their record as they are parsed.
void add_record_options(CLI::App& app, const std::string& layer, RecordValues& values,
                        const std::set<std::string>& skip = {});

// Sets the given values on an options struct (optiq_options, optiq_io_options). Text fields
// point into `values`, which must outlive the struct's use.
template <class Options>
void apply_record_values(Options& options, const RecordValues& values) {
  for (const auto& [name, text] : values) set_option(options, name, text.c_str());
}

}  // namespace optiq::tools
