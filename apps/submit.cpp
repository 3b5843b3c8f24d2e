// `cloudburst submit`: validates the case exactly as `check` does, renders the
// sbatch template for the node type into the output directory and calls
// sbatch (docs/clusters.md). Nothing a user typed reaches a shell
// unquoted: directive values are checked, everything else is shell-quoted, and
// sbatch is executed directly, without a shell.
#include "apps/batch_script.hpp"
#include "apps/commands.hpp"

#include "core/driver.hpp"
#include "core/environment.hpp"
#include "core/error.hpp"

#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <optional>
#include <sstream>
#include <tuple>
#include <utility>

namespace cb::app {
namespace {
namespace fs = std::filesystem;

constexpr const char* submit_help =
    "usage: cloudburst submit CASE.toml --nodes N [--gpus-per-node G] [--ranks-per-node R]\n"
    "                         [--time HH:MM:SS] [--partition P] [--account A] [--spot]\n"
    "                         [--name NAME] [--set section.key=value]... [--output-dir DIR]\n"
    "                         [--sweep SWEEP.toml] [--template cpu|nvidia|amd]\n"
    "                         [--max-restarts N] [--dry-run]\n"
    "\n"
    "Validates CASE.toml as `check` does, renders the sbatch template of scripts/slurm/ for\n"
    "the node type into DIR/job.sbatch (DIR: --output-dir, default ./output/<case stem>) and\n"
    "submits it with sbatch, printing the job id. The job runs\n"
    "  srun --mpi=pmix cloudburst run CASE.toml --output-dir DIR --restart auto [--set ...]\n"
    "requeues itself after a stop signal (exit 75) while it makes progress, and survives\n"
    "lost nodes (--requeue). Slurm output: DIR/slurm-<jobid>.out; the run's log: DIR/run.log.\n"
    "  --nodes N            nodes (default 1)\n"
    "  --gpus-per-node G    GPUs per node; one rank per GPU (GPU templates)\n"
    "  --ranks-per-node R   MPI ranks per node (default: one per GPU, or one per CPU)\n"
    "  --time T             time limit (HH:MM:SS, D-HH:MM:SS, minutes, or 2h30m)\n"
    "  --partition P, --account A   Slurm partition and account\n"
    "  --spot               preemptible nodes: checkpoint every 5 instead of 15 minutes by\n"
    "                       default and allow 50 instead of 10 restarts\n"
    "  --name NAME          job name (default: the case file's stem)\n"
    "  --sweep SWEEP.toml   a job array, one task per combination of the [sweep] values\n"
    "                       (\"section.key\" = [v1, v2, ...]); task N writes to DIR/task_N\n"
    "  --template T         cpu, nvidia or amd (default: from the build's Kokkos backend)\n"
    "  --max-restarts N     stop requeueing after N restarts\n"
    "  --dry-run            print the job script; write and submit nothing\n";

struct SubmitOptions {
  RunArguments run;
  int nodes = 1;
  int gpus_per_node = 0;
  int ranks_per_node = 0;
  std::string time;
  std::string partition;
  std::string account;
  std::string name;
  std::string sweep;
  std::string template_name;
  int max_restarts = -1;
  bool spot = false;
  bool dry_run = false;
};

int parse_count(const std::string& option, const std::string& text, int lo, int hi) {
  const bool digits =
      !text.empty() && text.size() < 10 && std::all_of(text.begin(), text.end(), [](char c) {
        return std::isdigit(static_cast<unsigned char>(c));
      });
  const long value = digits ? std::stol(text) : -1;
  if (value < lo || value > hi) {
    throw InputError(option + " '" + text + "': expected a whole number from " +
                     std::to_string(lo) + " to " + std::to_string(hi));
  }
  return static_cast<int>(value);
}

SubmitOptions parse_submit_arguments(const std::vector<std::string>& words) {
  SubmitOptions o;
  const std::map<std::string, std::string*> text_options{
      {"--output-dir", &o.run.output_dir}, {"--time", &o.time}, {"--partition", &o.partition},
      {"--account", &o.account},           {"--name", &o.name}, {"--sweep", &o.sweep},
      {"--template", &o.template_name}};
  const std::map<std::string, std::tuple<int*, int, int>> count_options{
      {"--nodes", {&o.nodes, 1, 100000}},
      {"--gpus-per-node", {&o.gpus_per_node, 1, 64}},
      {"--ranks-per-node", {&o.ranks_per_node, 1, 4096}},
      {"--max-restarts", {&o.max_restarts, 0, 10000}}};
  for (size_t n = 0; n < words.size(); ++n) {
    std::string option = words[n];
    std::string inline_value;
    bool has_inline = false;
    const size_t eq = option.find('=');
    if (option.rfind("--", 0) == 0 && eq != std::string::npos) {
      inline_value = option.substr(eq + 1);
      option = option.substr(0, eq);
      has_inline = true;
    }
    auto value = [&]() -> std::string {
      if (has_inline) return inline_value;
      if (n + 1 >= words.size()) throw InputError(option + " needs a value");
      return words[++n];
    };
    if (option == "--set") {
      o.run.overrides.push_back(value());
    } else if (const auto text = text_options.find(option); text != text_options.end()) {
      *text->second = value();
    } else if (const auto count = count_options.find(option); count != count_options.end()) {
      const auto [target, lo, hi] = count->second;
      *target = parse_count(option, value(), lo, hi);
    } else if ((option == "--spot" || option == "--dry-run") && !has_inline) {
      (option == "--spot" ? o.spot : o.dry_run) = true;
    } else if (!option.empty() && option[0] == '-') {
      throw InputError("unknown option '" + words[n] + "'");
    } else if (o.run.case_path.empty()) {
      o.run.case_path = option;
    } else {
      throw InputError("unexpected argument '" + option + "' (one case file per job)");
    }
  }
  if (o.run.case_path.empty()) throw InputError("missing the case file (CASE.toml)");
  return o;
}

// A Slurm time limit in canonical form; a bare number is minutes, as in sbatch.
std::pair<std::string, double> slurm_time(const std::string& text) {
  if (text.empty()) return {"", 0.0};
  const bool digits = std::all_of(
      text.begin(), text.end(), [](char c) { return std::isdigit(static_cast<unsigned char>(c)); });
  const std::optional<double> seconds = digits && text.size() < 8
                                            ? std::optional<double>(60.0 * std::stol(text))
                                            : parse_duration(text);
  if (!seconds || *seconds <= 0.0) {
    throw InputError("--time '" + text + "': expected HH:MM:SS, D-HH:MM:SS, minutes or 2h30m");
  }
  return {format_slurm_time(*seconds), *seconds};
}

// Partition and account names go into #SBATCH lines: plain names only.
std::string slurm_name(const std::string& option, const std::string& text) {
  const bool plain = std::all_of(text.begin(), text.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) ||
           std::string("_.,+-").find(c) != std::string::npos;
  });
  if (!plain || (!text.empty() && text[0] == '-')) {
    throw InputError(option + " '" + text + "': expected letters, digits and _ . , + -");
  }
  return text;
}

// A job name from anything: characters other than [A-Za-z0-9._-] become '_'.
std::string job_name(const std::string& wanted) {
  std::string name;
  for (char c : wanted.substr(0, 64)) {
    const bool plain =
        std::isalnum(static_cast<unsigned char>(c)) || c == '.' || c == '_' || c == '-';
    name += plain ? c : '_';
  }
  return name.empty() || name[0] == '-' ? "cloudburst" + name : name;
}

std::string choose_template(const SubmitOptions& o) {
  std::string name = o.template_name;
  if (name.empty()) {
    const std::string backend = kokkos_backend_name();
    name = backend == "Cuda" ? "nvidia" : backend == "HIP" ? "amd" : "cpu";
  }
  if (name != "cpu" && name != "nvidia" && name != "amd") {
    throw InputError("--template '" + name + "': expected cpu, nvidia or amd");
  }
  if (name == "cpu" && o.gpus_per_node > 0) {
    throw InputError("--gpus-per-node: this build runs on CPUs (Kokkos " + kokkos_backend_name() +
                     "); give --template nvidia or amd to render a GPU job");
  }
  if (name != "cpu" && o.gpus_per_node == 0) {
    throw InputError("the " + name + " template needs --gpus-per-node");
  }
  return name;
}

std::string read_file(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw InputError(path + ": cannot read");
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// Validates the case, and each task of a sweep, exactly as `check` does.
// Returns the field memory of one run over all ranks.
double validate(const SubmitOptions& o, const std::vector<std::vector<std::string>>& sweep,
                int ranks) {
  const double bytes = validate_case_file(o.run, ranks);
  for (size_t n = 0; n < sweep.size(); ++n) {
    RunArguments task = o.run;
    task.overrides.insert(task.overrides.end(), sweep[n].begin(), sweep[n].end());
    try {
      validate_case_file(task, ranks);
    } catch (const InputError& e) {
      throw InputError("sweep task " + std::to_string(n) + ": " + e.what());
    }
  }
  return bytes;
}

BatchJob plan_job(const SubmitOptions& o, const std::string& program, const std::string& templates,
                  const std::vector<std::vector<std::string>>& sweep) {
  BatchJob job;
  job.template_name = choose_template(o);
  job.nodes = o.nodes;
  job.gpus_per_node = o.gpus_per_node;
  job.ranks_per_node = o.ranks_per_node > 0 ? o.ranks_per_node : o.gpus_per_node;
  const auto [time, seconds] = slurm_time(o.time);
  job.time = time;
  job.partition = slurm_name("--partition", o.partition);
  job.account = slurm_name("--account", o.account);
  job.job_name = job_name(o.name.empty() ? fs::path(o.run.case_path).stem().string() : o.name);
  const int ranks = o.nodes * std::max(job.ranks_per_node, 1);
  const double bytes = validate(o, sweep, ranks);
  // The signal must leave time for a step and a checkpoint, and Slurm may send
  // it up to 60 s early: 60 s + three checkpoint writes at a modest 100 MB/s.
  job.signal_seconds = static_cast<int>(std::max(120.0, std::ceil(60.0 + 3.0 * bytes / 100e6)));
  if (seconds > 0.0)
    job.signal_seconds = std::min(job.signal_seconds, std::max(1, int(seconds / 2)));
  if (seconds > 0.0 && seconds < 4 * 60.0) {
    std::cerr << "cloudburst submit: warning: with --time under 4 minutes the stop signal may come "
                 "at once (Slurm sends it up to 60 s early); the job then stops requeueing\n";
  }
  job.checkpoint_minutes = o.spot ? 5.0 : 15.0;
  job.max_restarts = o.max_restarts >= 0 ? o.max_restarts : o.spot ? 50 : 10;
  job.cloudburst = program;
  job.batch_wrapper = (fs::path(templates) / "cloudburst-batch").string();
  job.output_dir =
      fs::absolute(o.run.output_dir.empty() ? "output/" + fs::path(o.run.case_path).stem().string()
                                            : o.run.output_dir)
          .lexically_normal()
          .string();
  while (job.output_dir.size() > 1 && job.output_dir.back() == '/') job.output_dir.pop_back();
  job.run_args.push_back(fs::absolute(o.run.case_path).lexically_normal().string());
  for (const std::string& s : o.run.overrides)
    job.run_args.insert(job.run_args.end(), {"--set", s});
  job.sweep = sweep;
  return job;
}

// Runs `sbatch --parsable job.sbatch` in `dir` (no shell); returns the job id.
std::string call_sbatch(const std::string& dir) {
  int out[2];
  if (pipe(out) != 0) throw RunError("pipe failed");
  const pid_t child = fork();
  if (child < 0) throw RunError("fork failed");
  if (child == 0) {
    dup2(out[1], STDOUT_FILENO);
    close(out[0]);
    close(out[1]);
    if (chdir(dir.c_str()) != 0) _exit(126);
    char* const argv[] = {const_cast<char*>("sbatch"), const_cast<char*>("--parsable"),
                          const_cast<char*>("job.sbatch"), nullptr};
    execvp("sbatch", argv);
    _exit(127);
  }
  close(out[1]);
  std::string text;
  char buffer[512];
  ssize_t got = 0;
  while ((got = read(out[0], buffer, sizeof buffer)) > 0)
    text.append(buffer, static_cast<size_t>(got));
  close(out[0]);
  int status = 0;
  waitpid(child, &status, 0);
  const int code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  if (code == 127)
    throw RunError("sbatch not found: is this a Slurm login node? (--dry-run prints the script)");
  if (code != 0) throw RunError("sbatch failed with exit code " + std::to_string(code));
  const std::string id = text.substr(0, text.find_first_of(";\n"));
  if (id.empty()) throw RunError("sbatch printed no job id");
  return id;
}

void write_file(const fs::path& path, const std::string& text) {
  std::ofstream out(path);
  out << text;
  if (!out) throw RunError(path.string() + ": cannot write");
}

// Writes the job script (and a sweep's task list) and submits it.
int write_and_submit(const BatchJob& job, const std::string& script,
                     const std::vector<std::vector<std::string>>& sweep) {
  fs::create_directories(job.output_dir);
  write_file(fs::path(job.output_dir) / "job.sbatch", script);
  if (!sweep.empty()) {
    std::string list;
    char task[32];
    for (size_t n = 0; n < sweep.size(); ++n) {
      std::snprintf(task, sizeof task, "task_%04zu", n);
      list += task;
      for (const std::string& s : sweep[n]) list += "  " + s;
      list += '\n';
    }
    write_file(fs::path(job.output_dir) / "sweep_tasks.txt", list);
  }
  if (fs::exists(fs::path(job.output_dir) / "checkpoints")) {
    std::cout << "note: " << job.output_dir << " holds checkpoints; the job resumes from them\n";
  }
  const std::string id = call_sbatch(job.output_dir);
  std::cout << "submitted batch job " << id << " (" << job.template_name << " template, "
            << job.nodes << " node(s)"
            << (sweep.empty() ? "" : ", " + std::to_string(sweep.size()) + " array tasks")
            << ")\n  script: " << job.output_dir << "/job.sbatch\n  output: " << job.output_dir
            << (sweep.empty() ? "/slurm-" + id + ".out" : "/slurm-" + id + "_<task>.out")
            << " and run.log\n  follow: squeue -j " << id << '\n';
  return exit_ok;
}

}  // namespace

int submit_command(const std::vector<std::string>& words) {
  if (!words.empty() && (words[0] == "--help" || words[0] == "-h")) {
    std::cout << submit_help;
    return exit_ok;
  }
  const SubmitOptions o = parse_submit_arguments(words);
  const std::string program = fs::read_symlink("/proc/self/exe").string();
  const std::string templates = templates_dir(program);
  const std::vector<std::vector<std::string>> sweep =
      o.sweep.empty() ? std::vector<std::vector<std::string>>{} : read_sweep(o.sweep);
  const BatchJob job = plan_job(o, program, templates, sweep);
  const std::string script = render_batch_script(
      read_file((fs::path(templates) / (job.template_name + ".sbatch")).string()), job);
  if (o.dry_run) {
    std::cout << script;
    return exit_ok;
  }
  try {
    return write_and_submit(job, script, sweep);
  } catch (const fs::filesystem_error& e) {
    throw RunError(e.what());
  }
}

}  // namespace cb::app
