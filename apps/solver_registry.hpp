// The solvers this build knows, by the names of DESIGN.md §9. A plain list:
// adding a solver adds one entry here.
#pragma once

#include "core/decomposition.hpp"
#include "core/solver.hpp"
#include "io/case_file.hpp"

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace cb::app {

// A solver whose parameters were read and validated; nothing allocated yet.
struct PreparedSolver {
  GridGeometry geometry;
  std::function<double(int ranks)> field_bytes_per_rank;
  std::optional<double> initial_dt;  // when known before allocation
  std::vector<std::string> output_field_names;
  // A ParticleSolver (MD): the run reads [dump] and [output] write_data and
  // writes particle output; output_field_names = io::particle_output_names(...).
  bool particles = false;
  std::function<std::unique_ptr<Solver>(const Decomposition&)> create;
};

std::vector<std::string> solver_names();

// Reads the solver's own sections (and [run] case, [grid], [time] cfl).
PreparedSolver prepare_solver(const std::string& name, io::CaseFile& file);

}  // namespace cb::app
