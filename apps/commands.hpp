// The subcommands of the `cloudburst` program.
#pragma once

#include <string>
#include <vector>

namespace cb {
class Environment;
}

namespace cb::app {

struct RunArguments {
  std::string case_path;
  std::vector<std::string> overrides;  // --set section.key=value
  std::string output_dir;              // "" -> ./output/<case stem>
  std::string restart;                 // "", "auto" or a checkpoint path
  std::string max_wall_time;           // "" or a duration ("2h30m", "HH:MM:SS")
  double started_at = 0.0;             // epoch seconds when the program started
};

std::string version_string();
int run_command(const RunArguments& args, const Environment& environment);
int check_command(const RunArguments& args);
// Reads and validates the case exactly as `check` and `run` do; throws
// InputError. Not collective. Returns the field memory over `ranks` ranks.
double validate_case_file(const RunArguments& args, int ranks);
// `cloudburst submit` (apps/submit.cpp): `args` are the words after `submit`.
// Rank 0 submits; with --estimate every rank first takes part in the estimate.
int submit_command(const std::vector<std::string>& args, const Environment& environment,
                   double started_at);
int info_command();

}  // namespace cb::app
