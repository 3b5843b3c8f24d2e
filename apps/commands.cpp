// `cloudburst run` and `cloudburst check`: read and validate the whole case
// before anything is written, then hand over to the driver.
#include "apps/commands.hpp"

#include "apps/solver_registry.hpp"
#include "core/driver.hpp"
#include "core/environment.hpp"
#include "core/particle_solver.hpp"
#include "core/signals.hpp"
#include "io/checkpoint.hpp"
#include "io/grid_output.hpp"
#include "io/particle_checkpoint.hpp"
#include "io/particle_run_output.hpp"
#include "io/run_params.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <iostream>

namespace cb::app {
namespace {
namespace fs = std::filesystem;

struct ValidatedCase {
  io::CaseFile file;
  io::CommonParams common;
  PreparedSolver solver;
  io::ParticleOutputParams particle_output;  // particle solvers only
};

// Every key of the case is read and checked here; finish() rejects the rest.
ValidatedCase validate_case(const RunArguments& args) {
  io::CaseFile file = io::CaseFile::load(args.case_path, args.overrides);
  io::CommonParams common = io::read_common_params(file, solver_names());
  PreparedSolver solver = prepare_solver(common.solver, file);
  for (const std::string& name : common.output_fields) {
    const auto& known = solver.output_field_names;
    if (std::find(known.begin(), known.end(), name) != known.end()) continue;
    const std::string best = io::closest_match(name, known);
    std::string list;
    for (const std::string& k : known) list += (list.empty() ? "" : ", ") + k;
    file.fail("output", "fields",
              "[output] fields: '" + name + "' is not a field of this solver (" + list + ")" +
                  (best.empty() ? "" : "; did you mean '" + best + "'?"));
  }
  io::ParticleOutputParams particle_output{common.output_fields, common.control.output_every_steps,
                                           common.control.output_every_time};
  if (solver.particles)
    particle_output = io::read_particle_output_params(file, common.control, common.output_fields);
  file.finish();
  return {std::move(file), std::move(common), std::move(solver), std::move(particle_output)};
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

io::CheckpointHeader run_header(const ValidatedCase& c, const Solver& solver) {
  io::CheckpointHeader header;
  header.solver = solver.name();
  header.case_name = solver.case_name();
  header.case_text = c.file.resolved_text();
  header.code_version = version_string();
  header.kokkos_backend = kokkos_backend_name();
  header.geometry = solver.geometry();
  return header;
}

std::string describe_grid(const Decomposition& d) {
  char text[160];
  std::snprintf(text, sizeof text, "grid %d x %d x %d on %d rank(s) as %d x %d x %d",
                d.global_cells()[0], d.global_cells()[1], d.global_cells()[2], d.size(),
                d.dims()[0], d.dims()[1], d.dims()[2]);
  return text;
}

// The wall-clock deadline on rank 0: the earlier of --max-wall-time (counted
// from `start`) and the Slurm job's end time. Other ranks get no limit: rank 0
// decides for all of them.
WallTimeLimit resolve_wall_time(const RunArguments& args, double start, bool root) {
  WallTimeLimit limit;
  std::optional<double> budget;
  if (!args.max_wall_time.empty()) {
    budget = parse_duration(args.max_wall_time);
    if (!budget) {
      throw InputError("--max-wall-time '" + args.max_wall_time +
                       "': expected a duration such as 2h30m, 90m, 45s or HH:MM:SS");
    }
  }
  if (!root) return limit;
  if (budget) {
    limit.deadline = start + *budget;
    limit.source = "--max-wall-time " + args.max_wall_time;
  }
  if (const std::optional<double> end = slurm_job_end_time()) {
    if (limit.deadline <= 0.0 || *end < limit.deadline) {
      limit.deadline = *end;
      limit.source = std::string("end of Slurm job ") + std::getenv("SLURM_JOB_ID");
    }
  }
  limit.budget = limit.deadline > 0.0 ? limit.deadline - start : 0.0;
  return limit;
}

std::string local_time_text(double epoch) {
  const std::time_t t = static_cast<std::time_t>(epoch);
  char text[64];
  std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%S", std::localtime(&t));
  return text;
}

// "run start: Slurm job 123 (array task 4), restart 2, on node01: resuming from
// FILE at step N" -- one line per (re)start, for following a requeued job.
std::string start_line(const std::string& restart, long step) {
  auto env = [](const char* name) {
    return std::getenv(name) ? std::string(std::getenv(name)) : "";
  };
  std::string who = "no batch job";
  if (!env("SLURM_JOB_ID").empty()) {
    who = "Slurm job " + env("SLURM_JOB_ID");
    if (!env("SLURM_ARRAY_TASK_ID").empty()) {
      who +=
          " (array job " + env("SLURM_ARRAY_JOB_ID") + " task " + env("SLURM_ARRAY_TASK_ID") + ")";
    }
    who += ", restart " + (env("SLURM_RESTART_COUNT").empty() ? "0" : env("SLURM_RESTART_COUNT"));
  }
  const std::string what = restart.empty()
                               ? "starting at step 0"
                               : "resuming from " + restart + " at step " + std::to_string(step);
  return "run start: " + who + ", on " + host_name() + ": " + what;
}

// Reads the checkpoint into the freshly built solver; returns where it resumes.
RunState restore_from(const std::string& path, Solver& solver, const Decomposition& d) {
  const io::CheckpointHeader header = io::read_checkpoint_header(path, d.comm());
  io::check_compatible(path, header, solver.name(), solver.geometry());
  io::read_checkpoint_fields(path, d, solver.checkpoint_fields());
  solver.restore(header.scalars);
  return {header.step, header.time, header.dt};
}

// The same for a particle solver: the atoms go to their owners via load_particles.
RunState restore_particles_from(const std::string& path, ParticleSolver& solver, MPI_Comm comm) {
  const io::CheckpointHeader header = io::read_checkpoint_header(path, comm);
  io::check_particles_compatible(path, header, solver.name(), solver.box(), solver.total_atoms());
  solver.load_particles(io::read_particle_checkpoint(path, comm));
  solver.restore(header.scalars);
  return {header.step, header.time, header.dt};
}

std::string describe_particles(ParticleSolver& solver, const Decomposition& d) {
  const ParticleBox& box = solver.box();
  char text[256];
  std::snprintf(
      text, sizeof text,
      "%lld atoms in the box [%g, %g] x [%g, %g] x [%g, %g] on %d rank(s) as %d x %d x %d",
      static_cast<long long>(solver.total_atoms()), box.lo[0], box.hi[0], box.lo[1], box.hi[1],
      box.lo[2], box.hi[2], d.size(), d.dims()[0], d.dims()[1], d.dims()[2]);
  return text;
}

// Particle output for a ParticleSolver, grid output for the others.
std::unique_ptr<RunOutput> make_output(const ValidatedCase& c, Solver& solver,
                                       ParticleSolver* particles, const Decomposition& d,
                                       const io::OutputPaths& paths, const RunState& state,
                                       Log& log) {
  if (particles)
    return std::make_unique<io::ParticleRunOutput>(*particles, d.comm(), paths,
                                                   run_header(c, solver), c.common.checkpoint_keep,
                                                   c.particle_output, c.common.control, state, log);
  return std::make_unique<io::GridRunOutput>(solver, d, paths, run_header(c, solver),
                                             c.common.checkpoint_keep, c.common.output_fields,
                                             state.step, log);
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

}  // namespace

double validate_case_file(const RunArguments& args, int ranks) {
  return validate_case(args).solver.field_bytes_per_rank(ranks) * ranks;
}

int run_command(const RunArguments& args, const Environment& environment) {
  const double start = args.started_at > 0.0 ? args.started_at : epoch_seconds();
  ValidatedCase c = validate_case(args);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  WallTimeLimit wall_limit = resolve_wall_time(args, start, rank == 0);
  Log log(rank);
  const io::OutputPaths paths{args.output_dir.empty() ? default_output_dir(args.case_path)
                                                      : args.output_dir};
  const std::string restart = resolve_restart(args, paths, MPI_COMM_WORLD, log);
  Decomposition decomposition(MPI_COMM_WORLD, c.solver.geometry.cells, c.solver.geometry.periodic,
                              c.common.parallel.ranks);
  std::unique_ptr<Solver> solver = c.solver.create(decomposition);
  auto* particles = dynamic_cast<ParticleSolver*>(solver.get());
  RunState state;
  if (!restart.empty()) {
    const double read_begin = wall_seconds();
    state = particles ? restore_particles_from(restart, *particles, decomposition.comm())
                      : restore_from(restart, *solver, decomposition);
    // Writing takes about as long as reading: the first estimate for the margin.
    wall_limit.checkpoint_estimate = wall_seconds() - read_begin;
  }
  const std::vector<std::string> device_map = environment.device_map(MPI_COMM_WORLD);

  if (particles)
    io::create_particle_output_directories(paths, decomposition.comm());
  else
    io::create_output_directories(paths, decomposition.comm());
  log.open_file(paths.run_log());
  log.line("cloudburst " + version_string() + ": " + solver->name() + " case '" +
           solver->case_name() + "' from " + args.case_path);
  log.line(start_line(restart, state.step));
  log.line(
      (particles ? describe_particles(*particles, decomposition) : describe_grid(decomposition)) +
      ", Kokkos " + kokkos_backend_name());
  for (const std::string& line : device_map) log.line("device: " + line);
  if (wall_limit.deadline > 0.0) {
    log.line("wall-time limit: " + local_time_text(wall_limit.deadline) + " (" + wall_limit.source +
             ", " + format_slurm_time(wall_limit.budget) +
             " from now); stops with a checkpoint and exit 75 when less than 2 steps + 1.5 "
             "checkpoints + a safety allowance remain");
  }
  if (c.common.control.checkpoint_every_minutes > 0.0) {
    char every[96];
    std::snprintf(every, sizeof every, "checkpoints every %g wall-clock minutes",
                  c.common.control.checkpoint_every_minutes);
    log.line(every);
  }
  std::unique_ptr<RunOutput> output =
      make_output(c, *solver, particles, decomposition, paths, state, log);
  install_stop_handlers();
  Driver driver(*solver, *output, c.common.control, decomposition.comm(), log);
  driver.set_wall_time_limit(wall_limit);
  const int code = driver.run(state);
  auto* particle_output = dynamic_cast<io::ParticleRunOutput*>(output.get());
  if (particle_output && code == exit_ok) particle_output->write_data_file(state);
  log.line("results in " + paths.root +
           (particles ? " (diagnostics.csv, checkpoints/, dumps/, particles.xmf)"
                      : " (diagnostics.csv, checkpoints/, fields.xmf)"));
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
  const RunControl& control = c.common.control;
  std::printf("\n# grid: %d x %d x %d = %lld cells\n", g.cells[0], g.cells[1], g.cells[2],
              g.total_cells());
  std::printf("# field memory: %.3f MiB per rank on %d rank(s)\n",
              c.solver.field_bytes_per_rank(ranks) / 1048576.0, ranks);
  if (control.steps) {
    std::printf("# steps: %ld\n", *control.steps);
  } else {
    const std::optional<double> dt = control.fixed_dt ? control.fixed_dt : c.solver.initial_dt;
    if (dt)
      std::printf("# steps: %.0f (dt = %.6g)\n", std::ceil(*control.end_time / *dt * (1 - 1e-10)),
                  *dt);
  }
  return exit_ok;
}

}  // namespace cb::app
