// The case-file sections every solver shares (docs/case-files.md): [run] (except
// `case`, which each solver checks against its own list), [time] dt, [output],
// [checkpoint], [diagnostics] and [parallel]. `[time] cfl` is read by the
// solver, since the stable range depends on its scheme.
#pragma once

#include "core/driver.hpp"
#include "io/case_file.hpp"

#include <string>
#include <vector>

namespace cb::io {

struct ParallelParams {
  Int3 ranks{0, 0, 0};  // 0: let MPI_Dims_create choose
  bool gpu_aware_mpi = false;
};

struct CommonParams {
  std::string solver;
  RunControl control;
  std::vector<std::string> output_fields;  // empty: every field the solver offers
  int checkpoint_keep = 3;
  ParallelParams parallel;
};

// `solvers`: the solver names this build knows, for [run] solver.
CommonParams read_common_params(CaseFile& file, const std::vector<std::string>& solvers);

// Reads [grid] cells, lo and hi (`lo`, `hi`: the solver's defaults); hi must
// exceed lo on every axis. Periodicity is the solver's to set.
GridGeometry read_grid(CaseFile& file, const Real3& lo, const Real3& hi);

// Reads `[time] cfl` with the solver's default and range; an error if
// `[time] dt` is also given.
double read_cfl(CaseFile& file, double fallback, const Bounds& bounds);

}  // namespace cb::io
