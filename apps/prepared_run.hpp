// A validated case built into a solver and its run I/O on MPI_COMM_WORLD: what
// `cloudburst run` and `cloudburst estimate` share (apps/commands.cpp).
#pragma once

#include "apps/commands.hpp"
#include "core/decomposition.hpp"
#include "core/log.hpp"
#include "core/run_context.hpp"
#include "io/case_file.hpp"
#include "io/run_params.hpp"
#include "io/solver_run.hpp"
#include "solvers/solver_module.hpp"

#include <memory>

namespace cb::app {

struct ValidatedCase {
  io::CaseFile file;
  io::CommonParams common;
  SolverCase solver;
};

// Reads and validates every key of the case (and the --set arguments); throws
// InputError. Not collective.
ValidatedCase validate_case(const RunArguments& args);

// The solver and its I/O, and what they refer to for their lifetime. Not
// copyable or movable: the run keeps references to its members.
struct PreparedRun {
  ValidatedCase validated;
  std::unique_ptr<Decomposition> decomposition;
  ExchangeCounters counters;
  std::unique_ptr<io::SolverRun> run;
  PreparedRun(ValidatedCase c) : validated(std::move(c)) {}
  PreparedRun(const PreparedRun&) = delete;
  PreparedRun& operator=(const PreparedRun&) = delete;
};

// Collective over `comm`: refuses a case that does not fit in memory
// (InputError), then decomposes the grid over `comm` and builds the solver with
// its output in `paths`.
std::unique_ptr<PreparedRun> prepare_run(ValidatedCase c, const io::OutputPaths& paths,
                                         const Environment& environment, Log& log,
                                         MPI_Comm comm = MPI_COMM_WORLD);

}  // namespace cb::app
