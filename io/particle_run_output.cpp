#include "io/particle_run_output.hpp"

#include "core/error.hpp"
#include "io/detail/text_format.hpp"
#include "io/lammps_data.hpp"
#include "io/particle_checkpoint.hpp"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <limits>
#include <numeric>

namespace cb::io {
namespace {

bool contains(const std::vector<std::string>& names, const std::string& name) {
  return std::find(names.begin(), names.end(), name) != names.end();
}

bool any_of_names(const std::vector<std::string>& fields,
                  std::initializer_list<const char*> names) {
  if (fields.empty()) return true;  // the defaults include all of them
  return std::any_of(names.begin(), names.end(),
                     [&](const char* name) { return contains(fields, name); });
}

// The [output] fields that name per-atom quantities of the solver (its
// defaults when fields names none).
std::vector<std::string> selected_per_atom(const std::vector<std::string>& fields,
                                           const ParticleSolver& solver) {
  if (fields.empty()) return solver.default_per_atom_names();
  const std::vector<std::string> per_atom_names = solver.per_atom_names();
  std::vector<std::string> chosen;
  for (const std::string& name : per_atom_names)
    if (contains(fields, name)) chosen.push_back(name);
  return chosen;
}

// On restart: dumps of the abandoned future (steps after `step`) would join
// the series OVITO opens as dump_*.lammpstrj.
void remove_dumps_after(const std::string& dir, long step) {
  std::error_code ec;
  std::vector<std::filesystem::path> stale;
  for (std::filesystem::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
    const std::string name = it->path().filename().string();
    if (detail::step_in_file_name(name, "dump_", ".lammpstrj") > step) stale.push_back(it->path());
  }
  for (const auto& path : stale) std::filesystem::remove(path, ec);
}

}  // namespace

ParticleOutputParams read_particle_output_params(CaseFile& file, RunControl& control,
                                                 const std::vector<std::string>& fields) {
  ParticleOutputParams params;
  params.fields = fields;
  params.xdmf_every_steps = control.output_every_steps;
  params.xdmf_every_time = control.output_every_time;
  params.dump_every_steps = file.get<long>("dump", "every_steps", 0, Bounds::non_negative());
  params.write_data = file.get<bool>("output", "write_data", false);
  if (params.dump_every_steps > 0)
    control.output_every_steps = params.xdmf_every_steps > 0
                                     ? std::gcd(params.xdmf_every_steps, params.dump_every_steps)
                                     : params.dump_every_steps;
  return params;
}

std::vector<std::string> dump_columns(const std::vector<std::string>& fields,
                                      const std::vector<std::string>& default_per_atom_names) {
  std::vector<std::string> columns = {"id", "type", "x", "y", "z"};
  std::vector<std::string> wanted = fields;
  if (wanted.empty()) {
    wanted = {"vx", "vy", "vz", "ix", "iy", "iz"};
    wanted.insert(wanted.end(), default_per_atom_names.begin(), default_per_atom_names.end());
  }
  for (const std::string& name : wanted)
    if (!contains(columns, name)) columns.push_back(name);
  return columns;
}

void create_particle_output_directories(const OutputPaths& paths, MPI_Comm comm) {
  int rank = 0;
  MPI_Comm_rank(comm, &rank);
  int failed = 0;
  if (rank == 0) {
    std::error_code ec;
    std::filesystem::create_directories(paths.checkpoints(), ec);
    failed = ec ? 1 : 0;
  }
  MPI_Bcast(&failed, 1, MPI_INT, 0, comm);
  if (failed) throw InputError(paths.root + ": cannot create the output directory");
}

ParticleRunOutput::ParticleRunOutput(ParticleSolver& solver, MPI_Comm comm, OutputPaths paths,
                                     CheckpointHeader header, int keep, ParticleOutputParams params,
                                     const RunControl& control, const RunState& start, Log& log)
    : solver_(solver),
      comm_(comm),
      paths_(std::move(paths)),
      header_(std::move(header)),
      keep_(keep),
      params_(std::move(params)),
      control_(control),
      columns_(dump_columns(params_.fields, solver.default_per_atom_names())),
      xdmf_(paths_.root, comm, start.step),
      last_xdmf_time_(start.step > 0 ? start.time : -std::numeric_limits<double>::infinity()),
      log_(log),
      csv_(paths_.diagnostics_csv(), start.step, comm) {
  if (start.step > 0 && log.is_root()) remove_dumps_after(dump_dir(), start.step);
}

std::string ParticleRunOutput::write_checkpoint(const RunState& state) {
  CheckpointHeader header = header_;
  header.step = state.step;
  header.time = state.time;
  header.dt = state.dt;
  const ParticleBox& box = solver_.box();
  header.geometry.lo = box.lo;
  header.geometry.hi = box.hi;
  header.geometry.periodic = box.periodic;
  header.scalars = solver_.checkpoint_scalars();
  const std::string path = checkpoint_path(paths_.checkpoints(), state.step);
  write_particle_checkpoint(path, comm_, header, solver_.owned_particles());
  int rank = 0;
  MPI_Comm_rank(comm_, &rank);
  if (rank == 0) prune_checkpoints(paths_.checkpoints(), keep_);
  MPI_Barrier(comm_);
  return path;
}

bool ParticleRunOutput::is_last_step(const RunState& state) const {
  return reached_stop(control_, state);
}

void ParticleRunOutput::write_fields(const RunState& state) {
  const bool last = is_last_step(state);
  const ParticleOutputParams& p = params_;
  bool xdmf = p.xdmf_every_steps > 0 && (last || state.step % p.xdmf_every_steps == 0);
  if (p.xdmf_every_time > 0.0) {
    const auto period_index = [&](double t) {
      return std::floor(t / p.xdmf_every_time * (1.0 + 1e-12));
    };
    xdmf = xdmf || last || period_index(state.time) > period_index(last_xdmf_time_);
  }
  const bool dump = p.dump_every_steps > 0 && (last || state.step % p.dump_every_steps == 0);
  if (!xdmf && !dump) return;

  std::vector<std::string> wanted = selected_per_atom(p.fields, solver_);
  const AtomTable table = owned_atom_table(solver_, wanted);
  const ParticleBox& box = solver_.box();
  if (dump)
    write_lammps_dump(dump_path(dump_dir(), state.step), comm_, state.step, box, table, columns_);
  if (xdmf) {
    xdmf_.write(state.step, state.time, box, table, any_of_names(p.fields, {"vx", "vy", "vz"}),
                any_of_names(p.fields, {"ix", "iy", "iz", "xu", "yu", "zu"}));
    last_xdmf_time_ = state.time;
  }
}

void ParticleRunOutput::append_diagnostics(const RunState& state,
                                           const std::vector<Diagnostic>& values) {
  csv_.append(state, values, log_);
}

void ParticleRunOutput::write_data_file(const RunState& state) {
  if (!params_.write_data) return;
  const std::string title = "LAMMPS data file via cloudburst " + header_.code_version +
                            ", timestep = " + std::to_string(state.step) +
                            ", units = " + solver_.unit_style();
  write_lammps_data(data_file_path(), comm_, solver_.box(), solver_.type_masses(),
                    solver_.owned_particles(), title, solver_.data_coeffs());
  log_.line("LAMMPS data file " + data_file_path() + " (step " + std::to_string(state.step) + ")");
}

}  // namespace cb::io
