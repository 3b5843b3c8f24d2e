// The RunOutput of a particle solver (MD): HDF5 particle checkpoints, LAMMPS
// text dumps, XDMF+HDF5 particle output, the diagnostics CSV and, on request,
// a LAMMPS data file at the end -- laid out as docs/solvers/md.md and
// docs/checkpoint-format.md say.
#pragma once

#include "core/driver.hpp"
#include "core/log.hpp"
#include "core/particle_solver.hpp"
#include "core/run_output.hpp"
#include "io/case_file.hpp"
#include "io/checkpoint.hpp"
#include "io/diagnostics_csv.hpp"
#include "io/grid_output.hpp"
#include "io/particle_output.hpp"

#include <mpi.h>

#include <string>
#include <vector>

namespace cb::io {

// The output keys of a particle case.
struct ParticleOutputParams {
  std::vector<std::string> fields;  // [output] fields; empty: the defaults below
  long xdmf_every_steps = 0;        // [output] every_steps
  double xdmf_every_time = 0.0;     // [output] every_time
  long dump_every_steps = 0;        // [dump] every_steps
  bool write_data = false;          // [output] write_data: <out>/final.data at the end
};

// Reads [dump] every_steps and [output] write_data, and takes the [output]
// cadences and fields already in `common_control`/`fields`. Then points the
// driver's output cadence at every step either output is due
// (gcd of the two step cadences), so ParticleRunOutput picks what to write.
ParticleOutputParams read_particle_output_params(CaseFile& file, RunControl& control,
                                                 const std::vector<std::string>& fields);

// The dump columns for [output] fields (id type x y z first, always; with
// none named, velocities, images and `default_per_atom_names`).
std::vector<std::string> dump_columns(const std::vector<std::string>& fields,
                                      const std::vector<std::string>& default_per_atom_names);

class ParticleRunOutput : public RunOutput {
 public:
  // `header`: the run's constant attributes, as for GridRunOutput. `start`: the
  // step (0, or the restart step) and time the run starts from; `control`:
  // its stop condition (the last step always gets every output that is on).
  ParticleRunOutput(ParticleSolver& solver, MPI_Comm comm, OutputPaths paths,
                    CheckpointHeader header, int keep, ParticleOutputParams params,
                    const RunControl& control, const RunState& start, Log& log);

  std::string write_checkpoint(const RunState& state) override;
  void write_fields(const RunState& state) override;
  void append_diagnostics(const RunState& state, const std::vector<Diagnostic>& values) override;

  // Collective: `<out>/final.data` when [output] write_data is on; else nothing.
  void write_data_file(const RunState& state);

  std::string data_file_path() const { return paths_.root + "/final.data"; }
  std::string dump_dir() const { return paths_.root + "/dumps"; }

 private:
  bool is_last_step(const RunState& state) const;

  ParticleSolver& solver_;
  MPI_Comm comm_;
  OutputPaths paths_;
  CheckpointHeader header_;
  int keep_;
  ParticleOutputParams params_;
  RunControl control_;
  std::vector<std::string> columns_;
  ParticleXdmfOutput xdmf_;
  double last_xdmf_time_;
  Log& log_;
  DiagnosticsCsv csv_;
};

// Creates root and checkpoints/ (rank 0), then barriers.
void create_particle_output_directories(const OutputPaths& paths, MPI_Comm comm);

}  // namespace cb::io
