// The RunOutput of a grid solver: HDF5 checkpoints, XDMF+HDF5 field output and
// the diagnostics CSV, laid out as docs/getting-started.md describes.
#pragma once

#include "core/decomposition.hpp"
#include "core/log.hpp"
#include "core/run_output.hpp"
#include "io/checkpoint.hpp"
#include "io/diagnostics_csv.hpp"
#include "io/field_output.hpp"

#include <memory>
#include <string>
#include <vector>

namespace cb::io {

struct OutputPaths {
  std::string root;
  std::string checkpoints() const { return root + "/checkpoints"; }
  std::string diagnostics_csv() const { return root + "/diagnostics.csv"; }
  std::string run_log() const { return root + "/run.log"; }
};

// Creates root, checkpoints/ and fields/ (rank 0), then barriers.
void create_output_directories(const OutputPaths& paths, MPI_Comm comm);

class GridRunOutput : public RunOutput {
 public:
  // `header` carries the run's constant attributes (solver, case, case text,
  // code version, backend); step, time, dt and solver scalars are filled per
  // checkpoint. `first_step` > 0 on restart: diagnostics rows and field-series
  // entries after it are dropped, the rest continue.
  GridRunOutput(GridSolver& solver, const Decomposition& decomposition, OutputPaths paths,
                CheckpointHeader header, int keep, std::vector<std::string> field_names,
                long first_step, Log& log);

  std::string write_checkpoint(const RunState& state) override;
  void write_fields(const RunState& state) override;
  void append_diagnostics(const RunState& state, const std::vector<Diagnostic>& values) override;

 private:
  std::vector<FieldComponent> selected_fields();

  GridSolver& solver_;
  const Decomposition& decomposition_;
  OutputPaths paths_;
  CheckpointHeader header_;
  int keep_;
  std::vector<std::string> field_names_;
  FieldOutput fields_;
  Log& log_;
  DiagnosticsCsv csv_;
};

}  // namespace cb::io
