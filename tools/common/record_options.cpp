#include "tools/common/record_options.hpp"

#include "optiq/core/error.hpp"

namespace optiq::tools {

void add_record_options(CLI::App& app, const std::string& layer, RecordValues& values,
                        const std::set<std::string>& skip) {
  for (const OptionRecord& r : option_records(layer)) {
    if (skip.count(r.name)) continue;
    const std::string help = r.help + " (default: " + (r.default_value.empty() ? "none" : r.default_value) + ")";
    if (r.kind == OptionKind::flag) {
      app.add_flag_function("--" + r.name + ",!--no-" + r.name,
                            [&values, name = r.name](std::int64_t count) { values[name] = count > 0 ? "1" : "0"; },
                            help);
      continue;
    }
    app.add_option_function<std::string>(
        "--" + r.name,
        [&values, &r](const std::string& text) {
          try {
            check_option_value(r, text);
          } catch (const Error& e) {
            throw CLI::ValidationError("--" + r.name, e.what());
          }
          values[r.name] = text;
        },
        help);
  }
}

}  // namespace optiq::tools
