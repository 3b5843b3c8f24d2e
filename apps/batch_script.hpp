// Rendering of the sbatch templates of scripts/slurm/ for `cloudburst submit`
// (docs/clusters.md), and the parameter-sweep file.
#pragma once

#include <string>
#include <vector>

namespace cb::app {

// Everything a template needs. Strings that reach the shell are quoted by
// render_batch_script(); the directive values are checked by the caller.
struct BatchJob {
  std::string template_name;  // "cpu", "nvidia" or "amd"
  std::string job_name;       // [A-Za-z0-9._-]
  int nodes = 1;
  int gpus_per_node = 0;
  int ranks_per_node = 0;          // 0 on CPU nodes: one per CPU
  std::string time;                // Slurm time ("1:30:00"), or "" for the partition default
  std::string partition;           // "" for the default
  std::string account;             // "" for the default
  int signal_seconds = 120;        // --signal=B:USR1@T
  double checkpoint_minutes = 15;  // default of [checkpoint] every_minutes in the job
  int max_restarts = 10;
  std::string cloudburst;                       // absolute path of the program
  std::string batch_wrapper;                    // absolute path of cloudburst-batch
  std::string output_dir;                       // absolute
  std::vector<std::string> run_args;            // CASE.toml and --set pairs
  std::vector<std::vector<std::string>> sweep;  // per array task: extra run args
};

// `word` as one single-quoted shell word: 'it'\''s' -- nothing in it expands.
std::string shell_quote(const std::string& word);

// The template with every @FIELD@ filled in. A field alone on its line that
// renders empty takes its line with it.
std::string render_batch_script(const std::string& template_text, const BatchJob& job);

// The tasks of a sweep file: a [sweep] table whose keys are "section.key"
// (quoted or dotted) and whose values are arrays; one task per combination,
// keys taken in alphabetical order, the first varying slowest. Each task is a
// list of "section.key=value" overrides (TOML values).
// Throws InputError naming the file.
std::vector<std::vector<std::string>> read_sweep(const std::string& path);

// Where the templates are: $CLOUDBURST_SLURM_TEMPLATES, else
// <prefix>/share/cloudburst/slurm next to an installed program, else the
// source tree's scripts/slurm. Throws InputError if none has cpu.sbatch.
std::string templates_dir(const std::string& program_path);

}  // namespace cb::app
