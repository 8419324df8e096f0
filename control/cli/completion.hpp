#pragma once
// `linerate completion bash`: a bash completion script generated from the command line
// the program itself parses (every subcommand and option), so it never falls behind it.

#include <CLI/CLI.hpp>

#include <string>

namespace lr::ctl {

/// The script: `source <(linerate completion bash)`, or installed as
/// /usr/share/bash-completion/completions/linerate.
std::string bash_completion(const CLI::App& app);

}  // namespace lr::ctl
