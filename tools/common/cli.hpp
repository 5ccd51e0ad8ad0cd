// The tools' command lines: CLI11 for every tool, errors as optiq::Error with one line.
#pragma once

#include <string>

// SimGrid's SMPI build defines exit() as a macro, which CLI11's App::exit member cannot survive.
#pragma push_macro("exit")
#undef exit
#include <CLI/CLI.hpp>
#pragma pop_macro("exit")

#include "optiq/core/error.hpp"

namespace optiq::tools {

// --help: the text to print, thrown so that every rank stops parsing alike.
struct HelpRequested : Error {
  using Error::Error;
};

// Parses argv; every parse error throws optiq::Error, and --help throws HelpRequested with
// `usage` (the app's own help text when empty).
void parse_command_line(CLI::App& app, int argc, char** argv, const std::string& usage = "");

// A tool's end after `failure`, met alike on every rank: --help's text goes to stdout with
// status 0; anything else is one "TOOL: error: ..." line from rank 0 with status 2.
int report_failure(const char* tool, int rank, const std::exception& failure);

}  // namespace optiq::tools
