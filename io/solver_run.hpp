// A built solver together with the run I/O of its kind (docs/architecture.md,
// "Solver kinds"): `cloudburst run` drives every solver through this one
// interface, so the program has no per-kind branches. Grid solvers get HDF5
// field checkpoints, XDMF field output and the diagnostics CSV; particle
// solvers get particle checkpoints, LAMMPS dumps, XDMF particles and data files.
#pragma once

#include "core/decomposition.hpp"
#include "core/log.hpp"
#include "core/particle_solver.hpp"
#include "core/run_context.hpp"
#include "core/run_output.hpp"
#include "core/solver.hpp"
#include "io/checkpoint.hpp"
#include "io/grid_output.hpp"
#include "io/particle_run_output.hpp"
#include "io/run_params.hpp"

#include <memory>
#include <string>

namespace cb::io {

// What a run gives a solver and its I/O besides the solver's own parameters.
struct RunSetup {
  RunContext context;
  const Decomposition& decomposition;
  OutputPaths paths;
  CheckpointHeader header;  // the run's constant attributes (case text, version, backend)
  const CommonParams& common;
};

class SolverRun {
 public:
  virtual ~SolverRun() = default;
  virtual Solver& solver() = 0;
  // One log line: the grid or the atoms, and their rank layout.
  virtual std::string describe() const = 0;
  // Collective: <out> and the folders this kind writes into.
  virtual void create_directories() = 0;
  // Collective: reads `checkpoint` into the solver; returns where the run resumes.
  virtual RunState restore(const std::string& checkpoint) = 0;
  // The driver's output for a run starting at `start` (0 or the restart step).
  virtual RunOutput& open_output(const RunState& start, Log& log) = 0;
  // Collective, after the driver returned `exit_code`: end-of-run files.
  virtual void finish(const RunState& state, int exit_code) = 0;
  // What the output directory holds, for the last log line.
  virtual std::string results_note() const = 0;
};

std::unique_ptr<SolverRun> make_grid_run(std::unique_ptr<GridSolver> solver, const RunSetup& setup);
std::unique_ptr<SolverRun> make_particle_run(std::unique_ptr<ParticleSolver> solver,
                                             const RunSetup& setup,
                                             const ParticleOutputParams& output);

}  // namespace cb::io
