// The subcommands of the `cloudburst` program.
#pragma once

#include <string>
#include <vector>

namespace cb::app {

struct RunArguments {
  std::string case_path;
  std::vector<std::string> overrides;  // --set section.key=value
  std::string output_dir;              // "" -> ./output/<case stem>
  std::string restart;                 // "", "auto" or a checkpoint path
};

std::string version_string();
int run_command(const RunArguments& args);
int check_command(const RunArguments& args);
int info_command();

}  // namespace cb::app
