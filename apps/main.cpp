// The `cloudburst` command-line program: parse arguments, dispatch.
#include "apps/arguments.hpp"
#include "apps/commands.hpp"
#include "apps/estimate.hpp"

#include "core/batch/signals.hpp"
#include "core/driver.hpp"
#include "core/environment.hpp"
#include "core/error.hpp"

#include <cstring>
#include <exception>
#include <iostream>
#include <string>
#include <vector>

namespace {

constexpr const char* usage_text =
    "usage: cloudburst <command> [options]\n"
    "\n"
    "commands:\n"
    "  run CASE.toml     run a case (cloudburst run --help)\n"
    "  check CASE.toml   validate a case and print it fully resolved\n"
    "  submit CASE.toml  submit a case as a Slurm batch job (cloudburst submit --help)\n"
    "  estimate CASE.toml  time a few steps, predict wall time, checkpoints, output and cost\n"
    "  info              versions, Kokkos backends, devices, MPI and HDF5\n"
    "\n"
    "options: --version, --help\n"
    "exit codes: 0 done, 2 bad input, 3 run failed, 75 stopped early (resumable)\n";

constexpr const char* run_help =
    "usage: cloudburst run CASE.toml [--set section.key=value]... [--output-dir DIR]\n"
    "                      [--restart auto|FILE] [--max-wall-time DURATION]\n"
    "\n"
    "Runs CASE.toml. Output goes to DIR (default ./output/<case file stem>):\n"
    "diagnostics.csv, checkpoints/chk_<step>.h5, fields/fields_<step>.h5 + fields.xmf, run.log.\n"
    "  --set section.key=value  override a case key (TOML value, e.g. --set grid.cells=[64,1,1])\n"
    "  --output-dir DIR         where results go\n"
    "  --restart auto           resume from the newest complete checkpoint in DIR (or start\n"
    "                           fresh if there is none)\n"
    "  --restart FILE           resume from that checkpoint\n"
    "  --max-wall-time D        stop with a checkpoint and exit 75 before D has passed\n"
    "                           (2h30m, 90m, 45s, HH:MM:SS, D-HH:MM:SS); inside a Slurm job\n"
    "                           the job's end time is a limit too. The margin kept is two\n"
    "                           of the longest steps, 1.5 checkpoint writes and 5% (max 60 s)\n"
    "SIGTERM, SIGUSR1, SIGINT stop the run at the next step with a checkpoint (exit 75);\n"
    "a second SIGINT aborts at once. Inside a Slurm job checkpoints are also written every\n"
    "15 wall-clock minutes unless [checkpoint] every_minutes says otherwise.\n"
    "Run under MPI with mpirun -n N / srun; exit 75 means resumable with --restart auto.\n";

constexpr const char* check_help =
    "usage: cloudburst check CASE.toml [--set section.key=value]...\n"
    "\n"
    "Validates CASE.toml and prints every key with its value (marking defaults), the grid,\n"
    "a memory estimate and the expected number of steps. Exit 0 if valid, 2 if not.\n";

constexpr const char* estimate_help =
    "usage: cloudburst estimate CASE.toml [--steps S] [--price-per-hour P]\n"
    "                           [--interruptions-per-hour L] [--nodes N] [--ranks-per-node R]\n"
    "                           [--scale-to N] [--set section.key=value]...\n"
    "                           [--scratch-dir DIR] [--json]\n"
    "\n"
    "Runs the case on the ranks it is launched with for S steps (default: until about 10 s\n"
    "of wall time are measured) in a scratch directory that is removed afterwards, writes one\n"
    "checkpoint and one field output, and predicts the whole case: steps (a CFL-controlled dt\n"
    "is extrapolated from the measured mean dt), wall time, checkpoints, output volume.\n"
    "  --price-per-hour P          price of one node-hour: the expected cost\n"
    "  --interruptions-per-hour L  interruptions per node-hour (spot): the checkpoint interval\n"
    "                              that minimises the expected wall time (Young 1974, Daly\n"
    "                              2006) and the [checkpoint] every_minutes line to use\n"
    "  --nodes N, --ranks-per-node R  the job to predict (default: 1 node, the measured\n"
    "                              ranks); other rank counts assume ideal strong scaling\n"
    "  --scale-to N                also time the case on 1, 2 and 4 of the launched ranks\n"
    "                              and predict the time per step on N ranks from the\n"
    "                              measured compute and halo times (docs/clusters.md)\n"
    "  --scratch-dir DIR           where the trial run writes (default $TMPDIR or /tmp)\n"
    "  --json                      the report as JSON\n";

constexpr const char* info_help =
    "usage: cloudburst info\n"
    "\n"
    "Prints the version, the Kokkos version and backends, the default execution space and\n"
    "its device, the MPI library, the HDF5 library and the compiler.\n";

bool is_help(const std::string& a) {
  return a == "--help" || a == "-h";
}

// Parses the arguments after `run`/`check`; throws cb::InputError.
cb::app::RunArguments parse_run_arguments(const std::vector<std::string>& args,
                                          bool allow_run_options) {
  cb::app::RunArguments parsed;
  cb::app::ArgumentParser parser(allow_run_options ? "run" : "check");
  parser.list("--set", parsed.overrides);
  if (allow_run_options) {
    parser.text("--output-dir", parsed.output_dir)
        .text("--restart", parsed.restart)
        .text("--max-wall-time", parsed.max_wall_time);
  }
  parser.parse(args, parsed.case_path);
  return parsed;
}

int dispatch(const std::vector<std::string>& args, const cb::Environment& environment,
             double started_at) {
  const int rank = environment.rank();
  auto say = [rank](const char* text) {
    if (rank == 0) std::cout << text;
    return cb::exit_ok;
  };
  if (args.empty()) {
    if (rank == 0) std::cerr << usage_text;
    return cb::exit_bad_input;
  }
  if (!environment.unknown_kokkos_option().empty())
    throw cb::InputError("unknown option '" + environment.unknown_kokkos_option() + "'");
  const std::string& command = args[0];
  const std::vector<std::string> rest(args.begin() + 1, args.end());
  const bool help = !rest.empty() && is_help(rest[0]);
  if (is_help(command)) return say(usage_text);
  if (command == "--version" || command == "-V") {
    if (rank == 0) std::cout << "cloudburst " << cb::app::version_string() << '\n';
    return cb::exit_ok;
  }
  if (command == "info") return help ? say(info_help) : cb::app::info_command();
  if (command == "run") {
    if (help) return say(run_help);
    cb::app::RunArguments run = parse_run_arguments(rest, true);
    run.started_at = started_at;
    return cb::app::run_command(run, environment);
  }
  if (command == "check") {
    return help ? say(check_help) : cb::app::check_command(parse_run_arguments(rest, false));
  }
  if (command == "estimate") {
    if (help) return say(estimate_help);
    cb::app::EstimateOptions options = cb::app::parse_estimate_arguments(rest);
    options.run.started_at = started_at;
    return cb::app::estimate_command(options, environment);
  }
  if (command == "submit") return cb::app::submit_command(rest, environment, started_at);
  throw cb::InputError("unknown command '" + command + "' (try cloudburst --help)");
}

bool has_word(int argc, char* argv[], const char* word) {
  for (int n = 1; n < argc; ++n)
    if (std::strcmp(argv[n], word) == 0) return true;
  return false;
}

}  // namespace

int main(int argc, char* argv[]) {
  const double started_at = cb::epoch_seconds();  // --max-wall-time counts from here
  // A batch system may signal a run while it starts up: record it from the
  // first moment, so the run stops cleanly (exit 75) instead of dying.
  const bool run = argc > 1 && std::strcmp(argv[1], "run") == 0;
  if (run) cb::install_stop_handlers();
  // Only run, check, estimate, info and `submit --estimate` need Kokkos:
  // --version, --help and `submit` (on a login node) must work where there is no
  // GPU to start it on.
  const bool help =
      argc > 2 && (std::strcmp(argv[2], "--help") == 0 || std::strcmp(argv[2], "-h") == 0);
  const bool needs_kokkos =
      argc > 1 && !help &&
      (run || std::strcmp(argv[1], "check") == 0 || std::strcmp(argv[1], "estimate") == 0 ||
       std::strcmp(argv[1], "info") == 0 ||
       (std::strcmp(argv[1], "submit") == 0 && has_word(argc, argv, "--estimate")));
  cb::Environment environment(argc, argv, needs_kokkos);
  const std::vector<std::string> args(argv + 1, argv + argc);
  try {
    return dispatch(args, environment, started_at);
  } catch (const cb::InputError& e) {
    if (environment.rank() == 0) std::cerr << "cloudburst: error: " << e.what() << '\n';
    return cb::exit_bad_input;
  } catch (const cb::RunError& e) {
    if (environment.rank() == 0) std::cerr << "cloudburst: run failed: " << e.what() << '\n';
    return cb::exit_run_failed;
  } catch (const std::exception& e) {
    std::cerr << "cloudburst: internal error on rank " << environment.rank() << ": " << e.what()
              << '\n';
    return cb::exit_run_failed;
  }
}
