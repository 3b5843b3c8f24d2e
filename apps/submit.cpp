// `cloudburst submit`: validates the case exactly as `check` does, renders the
// sbatch template for the node type into the output directory and calls
// sbatch (docs/clusters.md). Nothing a user typed reaches a shell
// unquoted: directive values are checked, everything else is shell-quoted, and
// sbatch is executed directly, without a shell.
#include "apps/arguments.hpp"
#include "apps/batch_script.hpp"
#include "apps/commands.hpp"
#include "apps/estimate.hpp"

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
#include <optional>
#include <sstream>
#include <utility>

namespace cb::app {
namespace {
namespace fs = std::filesystem;

constexpr const char* submit_help =
    "usage: cloudburst submit CASE.toml --nodes N [--gpus-per-node G] [--ranks-per-node R]\n"
    "                         [--time HH:MM:SS] [--partition P] [--account A] [--spot]\n"
    "                         [--name NAME] [--set section.key=value]... [--output-dir DIR]\n"
    "                         [--sweep SWEEP.toml] [--template cpu|nvidia|amd]\n"
    "                         [--max-restarts N] [--dry-run] [--estimate\n"
    "                         [--price-per-hour P] [--interruptions-per-hour L]\n"
    "                         [--scale-to N]]\n"
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
    "  --dry-run            print the job script; write and submit nothing\n"
    "  --estimate           first run `cloudburst estimate` on the case for this job's\n"
    "                       nodes and ranks per node (with --price-per-hour P and\n"
    "                       --interruptions-per-hour L if given; --scale-to N adds the\n"
    "                       scaling model to N ranks) and print its report; it\n"
    "                       runs here, on the ranks submit is started with (a sweep's\n"
    "                       tasks are not estimated one by one)\n";

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
  bool estimate = false;
  EstimateOptions prediction;  // with --estimate: --price-per-hour, --interruptions-per-hour,
                               // --scale-to
};

SubmitOptions parse_submit_arguments(const std::vector<std::string>& words) {
  SubmitOptions o;
  ArgumentParser parser("submit");
  parser.list("--set", o.run.overrides)
      .text("--output-dir", o.run.output_dir)
      .text("--time", o.time)
      .text("--partition", o.partition)
      .text("--account", o.account)
      .text("--name", o.name)
      .text("--sweep", o.sweep)
      .text("--template", o.template_name)
      .whole_number("--nodes", o.nodes, 1, max_nodes)
      .whole_number("--gpus-per-node", o.gpus_per_node, 1, 64)
      .whole_number("--ranks-per-node", o.ranks_per_node, 1, max_ranks_per_node)
      .whole_number("--max-restarts", o.max_restarts, 0, 10000)
      .flag("--spot", o.spot)
      .flag("--dry-run", o.dry_run)
      .flag("--estimate", o.estimate);
  add_prediction_options(parser, o.prediction);
  parser.parse(words, o.run.case_path);
  if (!o.estimate && (o.prediction.price || o.prediction.interruptions || o.prediction.scale_to))
    throw InputError(
        "--price-per-hour, --interruptions-per-hour and --scale-to go with --estimate");
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
                  const std::vector<std::vector<std::string>>& sweep, bool warn) {
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
  if (warn && seconds > 0.0 && seconds < 4 * 60.0) {
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

// What `cloudburst estimate` would be asked for this job.
EstimateOptions estimate_options(const SubmitOptions& o, const BatchJob& job, double started_at) {
  EstimateOptions e = o.prediction;
  e.run.case_path = o.run.case_path;
  e.run.overrides = o.run.overrides;
  e.run.started_at = started_at;
  e.nodes = job.nodes;
  if (job.ranks_per_node > 0) e.ranks_per_node = job.ranks_per_node;
  return e;
}

}  // namespace

int submit_command(const std::vector<std::string>& words, const Environment& environment,
                   double started_at) {
  const bool root = environment.rank() == 0;
  if (!words.empty() && (words[0] == "--help" || words[0] == "-h")) {
    if (root) std::cout << submit_help;
    return exit_ok;
  }
  const SubmitOptions o = parse_submit_arguments(words);
  const std::string program = fs::read_symlink("/proc/self/exe").string();
  const std::string templates = templates_dir(program);
  const std::vector<std::vector<std::string>> sweep =
      o.sweep.empty() ? std::vector<std::vector<std::string>>{} : read_sweep(o.sweep);
  const BatchJob job = plan_job(o, program, templates, sweep, root);
  const std::string script = render_batch_script(
      read_file((fs::path(templates) / (job.template_name + ".sbatch")).string()), job);
  // collective: every rank submit was started with times the trial run
  if (o.estimate) estimate_command(estimate_options(o, job, started_at), environment);
  if (!root) return exit_ok;
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
