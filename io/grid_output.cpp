#include "io/grid_output.hpp"

#include "core/error.hpp"

#include <filesystem>

namespace cb::io {
namespace fs = std::filesystem;

void create_output_directories(const OutputPaths& paths, MPI_Comm comm) {
  int rank = 0;
  MPI_Comm_rank(comm, &rank);
  int failed = 0;
  if (rank == 0) {
    std::error_code ec;
    fs::create_directories(paths.checkpoints(), ec);
    if (!ec) fs::create_directories(paths.root + "/fields", ec);
    failed = ec ? 1 : 0;
  }
  MPI_Bcast(&failed, 1, MPI_INT, 0, comm);
  if (failed) throw InputError(paths.root + ": cannot create the output directory");
}

GridRunOutput::GridRunOutput(GridSolver& solver, const Decomposition& decomposition,
                             OutputPaths paths, CheckpointHeader header, int keep,
                             std::vector<std::string> field_names, long first_step, Log& log)
    : solver_(solver),
      decomposition_(decomposition),
      paths_(std::move(paths)),
      header_(std::move(header)),
      keep_(keep),
      field_names_(std::move(field_names)),
      fields_(paths_.root, decomposition, solver.geometry(), first_step),
      log_(log),
      csv_(paths_.diagnostics_csv(), first_step, decomposition.comm()) {}

std::vector<FieldComponent> GridRunOutput::selected_fields() {
  std::vector<FieldComponent> all = solver_.output_fields();
  if (field_names_.empty()) return all;
  std::vector<FieldComponent> chosen;
  for (const std::string& name : field_names_) {
    for (const FieldComponent& f : all) {
      if (f.name == name) chosen.push_back(f);
    }
  }
  return chosen;
}

std::string GridRunOutput::write_checkpoint(const RunState& state) {
  CheckpointHeader header = header_;
  header.step = state.step;
  header.time = state.time;
  header.dt = state.dt;
  header.ranks = decomposition_.size();
  header.geometry = solver_.geometry();
  header.scalars = solver_.checkpoint_scalars();
  const std::string path = checkpoint_path(paths_.checkpoints(), state.step);
  io::write_checkpoint(path, decomposition_, header, solver_.checkpoint_fields());
  if (decomposition_.rank() == 0) prune_checkpoints(paths_.checkpoints(), keep_);
  MPI_Barrier(decomposition_.comm());
  return path;
}

void GridRunOutput::write_fields(const RunState& state) {
  fields_.write(state.step, state.time, selected_fields());
}

void GridRunOutput::append_diagnostics(const RunState& state,
                                       const std::vector<Diagnostic>& values) {
  csv_.append(state, values, log_);
}

}  // namespace cb::io
