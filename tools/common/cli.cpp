#include "tools/common/cli.hpp"

#include "optiq/core/error.hpp"

namespace optiq::tools {

void parse_command_line(CLI::App& app, int argc, char** argv, const std::string& usage) {
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp&) {
    throw Error(usage.empty() ? app.help() : usage);
  } catch (const CLI::ParseError& e) {
    throw Error(e.what());
  }
}

}  // namespace optiq::tools
