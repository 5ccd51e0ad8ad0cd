#include "tools/common/cli.hpp"

#include <cstdio>

namespace optiq::tools {

void parse_command_line(CLI::App& app, int argc, char** argv, const std::string& usage) {
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp&) {
    throw HelpRequested(usage.empty() ? app.help() : usage);
  } catch (const CLI::ParseError& e) {
    throw Error(e.what());
  }
}

int report_failure(const char* tool, int rank, const std::exception& failure) {
  const bool help = dynamic_cast<const HelpRequested*>(&failure) != nullptr;
  if (rank == 0) {
    if (help) std::fputs(failure.what(), stdout);
    else std::fprintf(stderr, "%s: error: %s\n", tool, failure.what());
  }
  return help ? 0 : 2;
}

}  // namespace optiq::tools
