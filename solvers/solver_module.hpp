// One solver as the program sees it (docs/writing-a-solver.md): each
// solvers/<name>/module.cpp exports a SolverModule, and solvers/registry.cpp
// lists them. Nothing outside solvers/ names a solver.
#pragma once

#include "core/decomposition.hpp"
#include "core/solver.hpp"
#include "io/case_file.hpp"
#include "io/run_params.hpp"
#include "io/solver_run.hpp"

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace cb {

// A case whose solver sections were read and validated; nothing allocated yet.
struct SolverCase {
  GridGeometry geometry;                        // what the decomposition splits
  std::optional<double> initial_dt;             // when known before allocation (check's step count)
  std::vector<std::string> output_field_names;  // what [output] fields may name
  std::function<double(int ranks)> memory_bytes_per_rank;
  // Optional: lines `cloudburst check` prints about the case (what the run will
  // choose: units, styles, parameters).
  std::function<std::vector<std::string>()> describe;
  // Builds the solver and its run I/O (collective).
  std::function<std::unique_ptr<io::SolverRun>(const io::RunSetup&)> create;
};

struct SolverModule {
  std::string name;     // [run] solver
  std::string summary;  // one line for `cloudburst info`
  // Reads the solver's own sections and keys (and may adjust the shared ones
  // in `common`, e.g. a particle solver's output cadences).
  std::function<SolverCase(io::CaseFile& file, io::CommonParams& common)> read_case;
};

// The factory of a grid solver S constructed as S(params, decomposition, context).
template <class S, class Params>
std::function<std::unique_ptr<io::SolverRun>(const io::RunSetup&)> grid_factory(
    const Params& params) {
  return [params](const io::RunSetup& setup) {
    return io::make_grid_run(std::make_unique<S>(params, setup.decomposition, setup.context),
                             setup);
  };
}

}  // namespace cb
