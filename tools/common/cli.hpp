// The tools' command lines: CLI11 for every tool, errors as optiq::Error with one line.
#pragma once

#include <string>

// SimGrid's SMPI build defines exit() as a macro, which CLI11's App::exit member cannot survive.
#pragma push_macro("exit")
#undef exit
#include <CLI/CLI.hpp>
#pragma pop_macro("exit")

namespace optiq::tools {

// Parses argv; every parse error throws optiq::Error, and --help throws optiq::Error with
// `usage` (the app's own help text when empty).
void parse_command_line(CLI::App& app, int argc, char** argv, const std::string& usage = "");

}  // namespace optiq::tools
