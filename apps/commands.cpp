// `cloudburst run` and `cloudburst check`: read and validate the whole case
// before anything is written, then hand over to the driver.
#include "apps/commands.hpp"

#include "apps/solver_registry.hpp"
#include "core/driver.hpp"
#include "core/environment.hpp"
#include "core/signals.hpp"
#include "io/checkpoint.hpp"
#include "io/grid_output.hpp"
#include "io/run_params.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <iostream>

namespace cb::app {
namespace {
namespace fs = std::filesystem;

struct ValidatedCase {
  io::CaseFile file;
  io::CommonParams common;
  PreparedSolver solver;
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
    file.fail("output", "fields", "[output] fields: '" + name + "' is not a field of this solver (" +
                                      list + ")" + (best.empty() ? "" : "; did you mean '" + best + "'?"));
  }
  file.finish();
  return {std::move(file), std::move(common), std::move(solver)};
}

std::string default_output_dir(const std::string& case_path) {
  return "output/" + fs::path(case_path).stem().string();
}

// The checkpoint to resume from, or "" for a fresh start. Refuses a fresh
// start over an earlier run's checkpoints, which it would otherwise prune.
std::string resolve_restart(const RunArguments& args, const io::OutputPaths& paths,
                            MPI_Comm comm, Log& log) {
  const auto newest = io::newest_complete_checkpoint(paths.checkpoints(), comm);
  if (args.restart.empty()) {
    if (newest) {
      throw InputError(paths.root + ": holds checkpoints of an earlier run (newest " + *newest +
                       "); resume with --restart auto, or choose another --output-dir");
    }
    return "";
  }
  if (args.restart != "auto") return args.restart;
  if (!newest) log.line("restart auto: no complete checkpoint in " + paths.checkpoints() +
                        "; starting fresh");
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

// Reads the checkpoint into the freshly built solver; returns where it resumes.
RunState restore_from(const std::string& path, Solver& solver, const Decomposition& d) {
  const io::CheckpointHeader header = io::read_checkpoint_header(path, d.comm());
  io::check_compatible(path, header, solver.name(), solver.geometry());
  io::read_checkpoint_fields(path, d, solver.checkpoint_fields());
  solver.restore(header.scalars);
  return {header.step, header.time, header.dt};
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

int run_command(const RunArguments& args) {
  ValidatedCase c = validate_case(args);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  Log log(rank);
  const io::OutputPaths paths{args.output_dir.empty() ? default_output_dir(args.case_path)
                                                      : args.output_dir};
  const std::string restart = resolve_restart(args, paths, MPI_COMM_WORLD, log);
  Decomposition decomposition(MPI_COMM_WORLD, c.solver.geometry.cells,
                              c.solver.geometry.periodic, c.common.parallel.ranks);
  std::unique_ptr<Solver> solver = c.solver.create(decomposition);
  RunState state;
  if (!restart.empty()) state = restore_from(restart, *solver, decomposition);

  io::create_output_directories(paths, decomposition.comm());
  log.open_file(paths.run_log());
  log.line("cloudburst " + version_string() + ": " + solver->name() + " case '" +
           solver->case_name() + "' from " + args.case_path);
  log.line(describe_grid(decomposition) + ", Kokkos " + kokkos_backend_name());
  log.line(restart.empty() ? "starting at step 0"
                           : "resuming from " + restart + " at step " + std::to_string(state.step));
  io::GridRunOutput output(*solver, decomposition, paths, run_header(c, *solver),
                           c.common.checkpoint_keep, c.common.output_fields, state.step, log);
  install_stop_handlers();
  Driver driver(*solver, output, c.common.control, decomposition.comm(), log);
  const int code = driver.run(state);
  log.line("results in " + paths.root + " (diagnostics.csv, checkpoints/, fields.xmf)");
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
    if (dt) std::printf("# steps: %.0f (dt = %.6g)\n", std::ceil(*control.end_time / *dt * (1 - 1e-10)), *dt);
  }
  return exit_ok;
}

}  // namespace cb::app
