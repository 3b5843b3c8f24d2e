// `cloudburst run` and `cloudburst check`: read and validate the whole case
// before anything is written, then hand over to the driver.
#include "apps/commands.hpp"
#include "apps/prepared_run.hpp"

#include "core/batch/signals.hpp"
#include "core/batch/slurm.hpp"
#include "core/driver.hpp"
#include "core/environment.hpp"
#include "io/checkpoint.hpp"
#include "io/output_lock.hpp"
#include "io/run_params.hpp"
#include "io/solver_run.hpp"
#include "solvers/registry.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <ctime>
#include <filesystem>
#include <iostream>

namespace cb::app {
namespace {
namespace fs = std::filesystem;

void check_output_fields(const io::CaseFile& file, const std::vector<std::string>& requested,
                         const std::vector<std::string>& known) {
  for (const std::string& name : requested) {
    if (std::find(known.begin(), known.end(), name) != known.end()) continue;
    const std::string best = io::closest_match(name, known);
    std::string list;
    for (const std::string& k : known) list += (list.empty() ? "" : ", ") + k;
    file.fail("output", "fields",
              "[output] fields: '" + name + "' is not a field of this solver (" + list + ")" +
                  (best.empty() ? "" : "; did you mean '" + best + "'?"));
  }
}

std::string default_output_dir(const std::string& case_path) {
  return "output/" + fs::path(case_path).stem().string();
}

// The checkpoint to resume from, or "" for a fresh start. Refuses a fresh
// start over an earlier run's checkpoints, which it would otherwise prune.
std::string resolve_restart(const RunArguments& args, const io::OutputPaths& paths, MPI_Comm comm,
                            Log& log) {
  const auto newest = io::newest_complete_checkpoint(paths.checkpoints(), comm);
  if (args.restart.empty()) {
    if (newest) {
      throw InputError(paths.root + ": holds checkpoints of an earlier run (newest " + *newest +
                       "); resume with --restart auto, or choose another --output-dir");
    }
    return "";
  }
  if (args.restart != "auto") return args.restart;
  if (!newest)
    log.line("restart auto: no complete checkpoint in " + paths.checkpoints() + "; starting fresh");
  return newest ? *newest : "";
}

// Refuses a case whose fields or atoms would not fit (exit 2 before anything
// is allocated), with the estimate and what is available.
void check_memory(const SolverCase& solver, MPI_Comm comm) {
  int ranks = 1;
  MPI_Comm_size(comm, &ranks);
  const double needed = solver.memory_bytes_per_rank(ranks);
  const std::optional<double> available = allocatable_bytes_per_rank(comm);
  int short_of_memory = available && needed > *available ? 1 : 0;
  MPI_Allreduce(MPI_IN_PLACE, &short_of_memory, 1, MPI_INT, MPI_MAX, comm);
  if (!short_of_memory) return;
  char text[200];
  std::snprintf(text, sizeof text,
                "the case needs about %.3g GiB per rank on %d rank(s), more than the %.3g GiB "
                "available to each (use more ranks or nodes, or a smaller case)",
                needed / 1073741824.0, ranks, available.value_or(0.0) / 1073741824.0);
  throw InputError(text);
}

// --max-wall-time as seconds; InputError when malformed.
std::optional<double> wall_time_budget(const RunArguments& args) {
  if (args.max_wall_time.empty()) return std::nullopt;
  const std::optional<double> budget = parse_duration(args.max_wall_time);
  if (!budget) {
    throw InputError("--max-wall-time '" + args.max_wall_time +
                     "': expected a duration such as 2h30m, 90m, 45s or HH:MM:SS");
  }
  return budget;
}

// The run's constant checkpoint attributes; the solver's run fills in its name,
// case and geometry.
io::CheckpointHeader run_header(const ValidatedCase& c) {
  io::CheckpointHeader header;
  header.case_text = c.file.resolved_text();
  header.code_version = version_string();
  header.kokkos_backend = kokkos_backend_name();
  header.geometry = c.solver.geometry;
  return header;
}

std::string local_time_text(double epoch) {
  const std::time_t t = static_cast<std::time_t>(epoch);
  char text[64];
  std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%S", std::localtime(&t));
  return text;
}

// "run start: Slurm job 123 (array job 120 task 4), restart 2, on node01:
// resuming from FILE at step N" -- one line per (re)start, for following a
// requeued job.
std::string start_line(const SlurmJob& job, const std::string& restart, long step) {
  const std::string what = restart.empty()
                               ? "starting at step 0"
                               : "resuming from " + restart + " at step " + std::to_string(step);
  return "run start: " + job.describe() + ", on " + host_name() + ": " + what;
}

// The batch lines of the log: environment defaults, the deadline, the cadence.
void log_batch_settings(Log& log, const std::vector<std::string>& defaults,
                        const WallTimeLimit& limit, const RunControl& control) {
  for (const std::string& line : defaults) log.line("from the environment: " + line);
  if (limit.deadline > 0.0) {
    log.line("wall-time limit: " + local_time_text(limit.deadline) + " (" + limit.source + ", " +
             format_slurm_time(limit.budget) +
             " from now); stops with a checkpoint and exit 75 when less than 2 steps + 1.5 "
             "checkpoints + a safety allowance remain");
  }
  if (control.checkpoint_every_minutes.value_or(0.0) > 0.0) {
    char every[96];
    std::snprintf(every, sizeof every, "checkpoints every %g wall-clock minutes",
                  *control.checkpoint_every_minutes);
    log.line(every);
  }
}

// Every resolved key, grouped by section in order of first appearance.
void print_resolved(const std::vector<io::ResolvedEntry>& entries) {
  std::vector<std::string> sections;
  for (const io::ResolvedEntry& e : entries) {
    if (std::find(sections.begin(), sections.end(), e.section) == sections.end()) {
      sections.push_back(e.section);
    }
  }
  for (const std::string& section : sections) {
    std::cout << "\n[" << section << "]\n";
    for (const io::ResolvedEntry& e : entries) {
      if (e.section != section) continue;
      std::cout << e.key << " = " << e.value << (e.defaulted ? "  # default" : "") << '\n';
    }
  }
}

// check's summary of when the run stops: steps, end time, or the first of both.
void print_stop_condition(const RunControl& control, std::optional<double> initial_dt) {
  const std::optional<double> dt = control.fixed_dt ? control.fixed_dt : initial_dt;
  std::optional<double> steps_to_end;
  if (control.end_time && dt) steps_to_end = std::ceil(*control.end_time / *dt * (1 - 1e-10));
  if (control.steps && control.end_time) {
    std::printf("# stops at step %ld or t = %g, whichever comes first", *control.steps,
                *control.end_time);
    if (steps_to_end)
      std::printf(" (t = %g after about %.0f steps)", *control.end_time, *steps_to_end);
    std::printf("\n");
  } else if (control.steps) {
    std::printf("# steps: %ld\n", *control.steps);
  } else if (steps_to_end) {
    std::printf("# steps: %.0f (dt = %.6g)\n", *steps_to_end, *dt);
  }
  if (!control.checkpoint_every_minutes) {
    std::printf(
        "# checkpoint every_minutes: set when the run starts (CLOUDBURST_CHECKPOINT_MINUTES,"
        " else 15 inside a Slurm job, else off)\n");
  }
}

// Runs the time loop from `state` with the run's output; the end-of-run files
// follow. Returns the exit code.
int drive(io::SolverRun& run, const RunControl& control, const WallTimeLimit& wall_limit,
          MPI_Comm comm, RunState& state, Log& log) {
  RunOutput& output = run.open_output(state, log);
  install_stop_handlers();
  Driver driver(run.solver(), output, control, comm, log);
  driver.set_wall_time_limit(wall_limit);
  const int code = driver.run(state);
  run.finish(state, code);
  return code;
}

}  // namespace

// Every key of the case is read and checked here; finish() rejects the rest.
// A pure function of the file and the --set arguments: the environment's
// defaults are applied when a run starts (apply_environment_defaults).
ValidatedCase validate_case(const RunArguments& args) {
  io::CaseFile file = io::CaseFile::load(args.case_path, args.overrides);
  const std::vector<SolverModule> modules = solver_modules();
  io::CommonParams common = io::read_common_params(file, solver_names());
  const SolverModule* module = find_solver_module(modules, common.solver);
  SolverCase solver = module->read_case(file, common);
  check_output_fields(file, common.output_fields, solver.output_field_names);
  if (common.parallel.gpu_aware_mpi) {
    const std::string refusal = gpu_aware_mpi_refusal();
    if (!refusal.empty()) file.fail("parallel", "gpu_aware_mpi", refusal);
  }
  file.finish();
  return {std::move(file), std::move(common), std::move(solver)};
}

double validate_case_file(const RunArguments& args, int ranks) {
  return validate_case(args).solver.memory_bytes_per_rank(ranks) * ranks;
}

std::unique_ptr<PreparedRun> prepare_run(ValidatedCase c, const io::OutputPaths& paths,
                                         const Environment& environment, Log& log, MPI_Comm comm) {
  check_memory(c.solver, comm);
  auto prepared = std::make_unique<PreparedRun>(std::move(c));
  const ValidatedCase& v = prepared->validated;
  prepared->decomposition = std::make_unique<Decomposition>(
      comm, v.solver.geometry.cells, v.solver.geometry.periodic, v.common.parallel.ranks);
  const RunContext context{
      {v.common.parallel.gpu_aware_mpi, &prepared->counters}, environment.device_id(), &log};
  prepared->run =
      v.solver.create({context, *prepared->decomposition, paths, run_header(v), v.common});
  return prepared;
}

int run_command(const RunArguments& args, const Environment& environment) {
  const double start = args.started_at > 0.0 ? args.started_at : epoch_seconds();
  ValidatedCase c = validate_case(args);
  const SlurmJob job = slurm_job_from_environment();
  const std::vector<std::string> defaults = apply_environment_defaults(c.common.control, job);
  WallTimeLimit wall_limit =
      resolve_wall_time(wall_time_budget(args), "--max-wall-time " + args.max_wall_time, start,
                        environment.rank() == 0);
  Log log(environment.rank());
  const io::OutputPaths paths{args.output_dir.empty() ? default_output_dir(args.case_path)
                                                      : args.output_dir};
  io::OutputLock lock;
  lock.acquire(paths.root, MPI_COMM_WORLD, true);
  const std::string restart = resolve_restart(args, paths, MPI_COMM_WORLD, log);
  const std::unique_ptr<PreparedRun> prepared = prepare_run(std::move(c), paths, environment, log);
  const RunControl& control = prepared->validated.common.control;
  const Decomposition& decomposition = *prepared->decomposition;
  io::SolverRun* run = prepared->run.get();
  RunState state;
  if (!restart.empty()) {
    const double read_begin = wall_seconds();
    state = run->restore(restart);
    // Writing takes about as long as reading: the first estimate for the margin.
    wall_limit.checkpoint_estimate = wall_seconds() - read_begin;
  }
  const std::vector<std::string> device_map = environment.device_map(MPI_COMM_WORLD);
  run->create_directories();
  lock.acquire(paths.root, decomposition.comm());
  log.open_file(paths.run_log());
  log.line("cloudburst " + version_string() + ": " + run->solver().name() + " case '" +
           run->solver().case_name() + "' from " + args.case_path);
  log.line(start_line(job, restart, state.step));
  log.line(run->describe() + ", Kokkos " + kokkos_backend_name());
  for (const std::string& line : device_map) log.line("device: " + line);
  log_batch_settings(log, defaults, wall_limit, control);
  const int code = drive(*run, control, wall_limit, decomposition.comm(), state, log);

  log.line(prepared->counters.summed(decomposition.comm()).summary() + " (all ranks)");
  log.line("results in " + paths.root + " (" + run->results_note() + ")");
  return code;
}

int check_command(const RunArguments& args) {
  ValidatedCase c = validate_case(args);
  int rank = 0, ranks = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &ranks);
  if (rank != 0) return exit_ok;
  std::cout << "# " << args.case_path << ": valid\n";
  print_resolved(c.file.resolved());
  const GridGeometry& g = c.solver.geometry;
  std::printf("\n# grid: %d x %d x %d = %lld cells\n", g.cells[0], g.cells[1], g.cells[2],
              g.total_cells());
  std::printf("# field memory: %.3f MiB per rank on %d rank(s)\n",
              c.solver.memory_bytes_per_rank(ranks) / 1048576.0, ranks);
  print_stop_condition(c.common.control, c.solver.initial_dt);
  if (c.solver.describe) {
    for (const std::string& line : c.solver.describe()) std::printf("# %s\n", line.c_str());
  }
  return exit_ok;
}

}  // namespace cb::app
