// `linerate completion bash`: the completion script, from the app itself.

#include <cstdio>
#include <memory>
#include <string>

#include "control/cli/commands/commands.hpp"
#include "control/cli/completion.hpp"

namespace lr::ctl {

void add_completion_command(CLI::App& app, Commands& commands) {
  auto* completion = app.add_subcommand("completion", "print the bash completion script: source <(linerate completion bash)");
  auto shell = std::make_shared<std::string>();
  completion->add_option("shell", *shell, "bash")->required()->check(CLI::IsMember({"bash"}));
  commands.push_back(command_for(completion, [&app, shell](const GlobalOptions&) {  // shell: bound above, kept alive
    std::printf("%s", bash_completion(app).c_str());
    return 0;
  }));
}

}  // namespace lr::ctl
