// The SolverRun of a grid solver.
#include "core/error.hpp"
#include "io/solver_run.hpp"

#include <cstdio>

namespace cb::io {
namespace {

class GridRun : public SolverRun {
 public:
  GridRun(std::unique_ptr<GridSolver> solver, const RunSetup& setup)
      : solver_(std::move(solver)),
        decomposition_(setup.decomposition),
        paths_(setup.paths),
        header_(setup.header),
        keep_(setup.common.checkpoint_keep),
        field_names_(setup.common.output_fields) {
    header_.solver = solver_->name();
    header_.case_name = solver_->case_name();
    header_.geometry = solver_->geometry();
  }

  Solver& solver() override { return *solver_; }

  std::string describe() const override {
    const Decomposition& d = decomposition_;
    char text[160];
    std::snprintf(text, sizeof text, "grid %d x %d x %d on %d rank(s) as %d x %d x %d",
                  d.global_cells()[0], d.global_cells()[1], d.global_cells()[2], d.size(),
                  d.dims()[0], d.dims()[1], d.dims()[2]);
    return text;
  }

  void create_directories() override { create_output_directories(paths_, decomposition_.comm()); }

  RunState restore(const std::string& path) override {
    const CheckpointHeader header = read_checkpoint_header(path, decomposition_.comm());
    check_compatible(path, header, solver_->name(), solver_->geometry());
    read_checkpoint_fields(path, decomposition_, solver_->checkpoint_fields());
    const std::string bad = solver_->locate_invalid_state();
    if (!bad.empty()) throw InputError(path + ": the checkpoint holds an impossible state: " + bad);
    solver_->restore(header.scalars);
    return {header.step, header.time, header.dt};
  }

  RunOutput& open_output(const RunState& start, Log& log) override {
    output_ = std::make_unique<GridRunOutput>(*solver_, decomposition_, paths_, header_, keep_,
                                              field_names_, start.step, log);
    return *output_;
  }

  void finish(const RunState&, int) override {}

  std::string results_note() const override { return "diagnostics.csv, checkpoints/, fields.xmf"; }

 private:
  std::unique_ptr<GridSolver> solver_;
  const Decomposition& decomposition_;
  OutputPaths paths_;
  CheckpointHeader header_;
  int keep_;
  std::vector<std::string> field_names_;
  std::unique_ptr<GridRunOutput> output_;
};

}  // namespace

std::unique_ptr<SolverRun> make_grid_run(std::unique_ptr<GridSolver> solver,
                                         const RunSetup& setup) {
  return std::make_unique<GridRun>(std::move(solver), setup);
}

}  // namespace cb::io
