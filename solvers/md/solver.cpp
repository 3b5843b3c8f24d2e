// MdSolver: construction, the time step, thermo output and checkpoint state.
#include "solvers/md/solver.hpp"

#include "core/error.hpp"
#include "io/lammps_data.hpp"
#include "solvers/md/domain.hpp"

#include <array>
#include <cmath>

namespace cb::md {

MdSolver::MdSolver(const Params& params, const Decomposition& decomposition,
                   const RunContext& context)
    : params_(params),
      decomposition_(decomposition),
      comm_options_(context.comm),
      local_(make_local_box(params, decomposition)),
      masses_(params.masses),
      comm_(decomposition, local_, params.neighbor_cutoff(), context.comm),
      list_(params.neighbor_cutoff(), params.list == ListKind::half, special_rule(params)),
      schedule_(params, decomposition.comm()),
      forces_(params, decomposition.comm(), MeshContext{&decomposition, local_, context.comm}),
      constraints_(params),
      thermostat_(params.thermostat, decomposition.comm()),
      barostat_(params.barostat, params.units),
      rdf_(params.compute, special_pairs_without_interaction(params)),
      thermo_log_(params.thermo_every, params.steps, decomposition.rank(),
                  params.thermo_multi ? ThermoLog::Style::multi : ThermoLog::Style::one) {
  check_box_covers_cutoff(params_);
  atoms_.charged = params_.atom_style != AtomStyle::atomic;
  atoms_.allocate(1024);
  per_atom_output_ = Vec3View("md::per_atom_output", 0);
  HostParticles atoms;
  if (params_.from_data_file) {
    if (decomposition.rank() == 0) {
      atoms =
          io::read_lammps_data(params_.data_file, params_.box.periodic, params_.atom_style).atoms;
    }
  } else {
    atoms = lattice_atoms(params_, local_);
    long long mine = static_cast<long long>(atoms.size()), total = 0;
    MPI_Allreduce(&mine, &total, 1, MPI_LONG_LONG, MPI_SUM, decomposition.comm());
    zero_momentum_and_scale(atoms, params_.masses, params_.temperature, total, params_.units,
                            decomposition.comm());
  }
  load_particles(atoms);
  barostat_.set_reference(params_.box, atoms_.total);
}

void MdSolver::rebuild(bool migrate) {
  if (migrate) {
    if (const std::int64_t lost = comm_.outside_fixed_faces(atoms_)) {
      throw RunError("md: step " + std::to_string(step_) + ": Lost atoms: original " +
                     std::to_string(atoms_.total) + " current " +
                     std::to_string(atoms_.total - lost) + " (" + std::to_string(lost) +
                     " left the box through a fixed face, [md] boundary \"f\")");
    }
    const std::int64_t total = comm_.wrap_and_migrate(atoms_);
    if (total != atoms_.total) {
      throw RunError("md: step " + std::to_string(step_) + ": " +
                     std::to_string(atoms_.total - total) +
                     " atoms lost (moved more than a sub-box between neighbour-list rebuilds; "
                     "lower [neighbor] every or set check = true)");
    }
  }
  comm_.borders(atoms_);
  list_.build(atoms_, forces_.list_cutsq());
  forces_.atoms_rebuilt(atoms_);
  constraints_.atoms_rebuilt(atoms_);
}

void MdSolver::prepare_constraints() {
  if (!constraints_.active() || constraints_ready_) return;
  if (step_ == 0) {
    // LAMMPS's step-0 energies come from the forces before the correction.
    setup_energy_ = forces_.energy_virial(atoms_, list_);
    thermostat_.setup(atoms_, masses_);
    constraints_.setup(atoms_, masses_, comm_, params_.dt, params_.units.ftm2v, step_);
  } else if (stored_constraint_forces_) {
    constraints_.add_stored_forces(atoms_);
  } else {
    constraints_.add_forces(atoms_, masses_, comm_, params_.dt, params_.units.ftm2v, step_, true);
  }
  constraints_ready_ = true;
  cached_.reset();
}

void MdSolver::compute_forces() {
  forces_.compute(atoms_, list_);
  if (list_.half()) comm_.reverse(atoms_, atoms_.f);
}

// Velocity Verlet in LAMMPS's order (Verlet::run): thermostat start, half kick
// and drift, list rebuild or ghost update, forces, reverse communication,
// Langevin's impulse, constraints (post_force), half kick, thermostat end, RATTLE's position
// stage (fix rattle's final_integrate), computes, thermo output.
void MdSolver::step(double /*time*/, double dt, PhaseTimer& timer) {
  prepare_constraints();
  if (!thermo_log_.header_printed()) print_thermo_if_due(true);
  apply_barostat();
  cached_.reset();
  const double dof = degrees_of_freedom();
  if (barostat_.mtk()) {
    mtk_initial_integrate(dt, dof);
  } else {
    thermostat_.begin_step(atoms_, masses_, step_ + 1, dt, dof);
    integrate_initial(atoms_, masses_, dt, params_.units.ftm2v);
  }
  step_energy_.reset();
  schedule_.advance();
  {
    ScopedPhase comm(timer, Phase::halo, "md::comm");
    parts_.start();
    if (schedule_.due(atoms_, local_)) {
      rebuild(true);
      schedule_.built(atoms_, local_);
      parts_.charge(Part::neighbor);
    } else {
      comm_.forward(atoms_);
      parts_.charge(Part::comm);
    }
  }
  if (energy_wanted(step_ + 1)) {
    EnergyVirial energy;
    forces_.compute(atoms_, list_, parts_, &energy);
    step_energy_ = energy;
    step_energy_step_ = step_ + 1;
  } else {
    forces_.compute(atoms_, list_, parts_);
  }
  if (list_.half()) {
    ScopedPhase comm(timer, Phase::halo, "md::reverse_comm");
    parts_.start();
    comm_.reverse(atoms_, atoms_.f);
    parts_.charge(Part::comm);
  }
  thermostat_.after_forces(atoms_, masses_, step_ + 1, dt);
  constraints_.post_force(atoms_, masses_, comm_, dt, params_.units.ftm2v, step_ + 1);
  ++step_;
  integrate_final(atoms_, masses_, dt, params_.units.ftm2v);
  if (barostat_.mtk()) {
    mtk_final_integrate(dt, dof);
  } else {
    thermostat_.end_step(atoms_, masses_, step_, dt, dof);
  }
  constraints_.end_of_step(atoms_, masses_, comm_, dt, params_.units.ftm2v, step_);
  if (rdf_.due(step_)) rdf_.accumulate(atoms_, list_);
  print_thermo_if_due(false);
}

void MdSolver::print_thermo_if_due(bool start) {
  if (!thermo_log_.due(step_, start)) return;
  thermo_log_.print(thermo());
}

EnergyVirial MdSolver::step_energy_virial() {
  if (step_ == 0 && setup_energy_) return *setup_energy_;
  if (!step_energy_ || step_energy_step_ != step_) {
    step_energy_ = forces_.energy_virial(atoms_, list_);
    step_energy_step_ = step_;
  }
  return *step_energy_;
}

ThermoSums MdSolver::thermo_sums() {
  const EnergyVirial ev = step_energy_virial(), cv = constraints_.virial(atoms_);
  constexpr int n = Energy::terms + 15;
  const std::array<double, 6> mv2_tensor = sum_mv2_tensor(atoms_, masses_, sums_);
  double local[n] = {sum_mv2(atoms_, masses_, sums_), ev.virial + cv.virial,
                     sum_mass(atoms_, masses_, sums_)};
  double global[n];
  for (int e = 0; e < Energy::terms; ++e) local[3 + e] = ev.energy[e];
  for (int c = 0; c < 6; ++c) {
    local[3 + Energy::terms + c] = mv2_tensor[c];
    local[9 + Energy::terms + c] = ev.virial_tensor[c] + cv.virial_tensor[c];
  }
  MPI_Allreduce(local, global, n, MPI_DOUBLE, MPI_SUM, decomposition_.comm());
  ThermoSums sums;
  sums.mv2 = global[0];
  sums.virial = global[1];
  sums.mass = global[2];
  for (int e = 0; e < Energy::terms; ++e) sums.energy[e] = global[3 + e];
  for (int c = 0; c < 6; ++c) {
    sums.mv2_tensor[c] = global[3 + Energy::terms + c];
    sums.virial_tensor[c] = global[9 + Energy::terms + c];
  }
  if (params_.compute.msd_every > 0) {
    const double mine = sum_squared_displacement(atoms_, local_, sums_);
    MPI_Allreduce(&mine, &sums.squared_displacement, 1, MPI_DOUBLE, MPI_SUM, decomposition_.comm());
  }
  return sums;
}

Thermo MdSolver::thermo_of(const ThermoSums& sums, double volume) const {
  const kernels::md::TailTerms* tail = params_.tail ? &tail_ : nullptr;
  return make_thermo(step_, sums, static_cast<double>(atoms_.total), degrees_of_freedom(), volume,
                     tail, params_.units);
}

// With a barostat, as LAMMPS prints thermo after fix press/berendsen's
// end_of_step: energies and virial of the step's forces, the volume (and, for
// C-rescale, the velocities) after the rescale that ends the step.
Thermo MdSolver::thermo() {
  prepare_constraints();
  if (cached_ && cached_->step == step_) return *cached_;
  ThermoSums sums = thermo_sums();
  cached_ = thermo_of(sums, local_.volume());
  pending_dilation_ = 1.0;
  if (barostat_due()) {
    const double mu = barostat_.dilation(cached_->press, cached_->volume, step_, params_.dt);
    pending_dilation_ = mu;
    if (barostat_.scales_velocities()) sums.mv2 /= mu * mu;
    cached_ = thermo_of(sums, volume_of(dilated_box(params_.box, mu)));
  }
  return *cached_;
}

void MdSolver::apply_barostat() {
  if (!barostat_due()) return;
  thermo();  // the pressure of the step that ended, and so the factor
  const double mu = pending_dilation_;
  const ParticleBox box = dilated_box(params_.box, mu);
  remap_positions(atoms_, params_.box, box);
  if (barostat_.scales_velocities()) scale_velocities(atoms_, 1.0 / mu);
  resize_box(box);
}

void MdSolver::resize_box(const ParticleBox& box) {
  params_.box.lo = params_.geometry.lo = box.lo;
  params_.box.hi = params_.geometry.hi = box.hi;
  local_ = make_local_box(params_, decomposition_);
  comm_.set_box(local_, step_);
  forces_.box_changed(local_);
  constraints_.set_box(params_.box);
  cached_.reset();
  step_energy_.reset();
}

// The box at the last list build too: load_particles gives each atom the
// owner of its build position in that box. And the charge sums, for
// load_particles's force-field setup.
void MdSolver::prepare_restore(const ParticleBox& saved,
                               const std::vector<std::pair<std::string, double>>& scalars) {
  std::optional<double> sum, square_sum;
  for (const auto& [name, value] : scalars) {
    if (name == "md_charge_sum") sum = value;
    if (name == "md_charge_square_sum") square_sum = value;
  }
  if (sum && square_sum) restored_charges_ = ChargeSums{*sum, *square_sum};
  if (!barostat_.active() || saved.periodic != params_.box.periodic) return;
  resize_box(saved);
  for (const auto& [name, value] : scalars) restore_build_box(name, value);
}

void MdSolver::restore_build_box(const std::string& name, double value) {
  for (int d = 0; d < 3; ++d) {
    if (name == "md_build_box_lo_" + std::to_string(d)) schedule_.set_build_corner(0, d, value);
    if (name == "md_build_box_hi_" + std::to_string(d)) schedule_.set_build_corner(1, d, value);
  }
}

std::vector<Diagnostic> MdSolver::diagnostics(double /*time*/) {
  if (!thermo_log_.header_printed()) print_thermo_if_due(true);
  const Thermo t = thermo();
  std::vector<Diagnostic> d = {
      {"temp", t.temp},   {"e_pair", t.e_pair}, {"e_mol", t.e_mol}, {"tot_eng", t.tot_eng()},
      {"press", t.press}, {"ke", t.ke},         {"pe", t.pe}};
  if (params_.molecular() || params_.coulomb) {  // the terms apart
    const char* names[Energy::terms] = {"evdwl",  "ecoul",  "elong", "ebond",
                                        "eangle", "edihed", "eimp"};
    for (int e = 0; e < Energy::terms; ++e) d.push_back({names[e], t.terms[e]});
  }
  d.insert(d.end(), {{"pxx", t.press_tensor[0]},
                     {"pyy", t.press_tensor[1]},
                     {"pzz", t.press_tensor[2]},
                     {"pxy", t.press_tensor[3]},
                     {"pxz", t.press_tensor[4]},
                     {"pyz", t.press_tensor[5]},
                     {"vol", t.volume},
                     {"density", t.density},
                     {"enthalpy", t.enthalpy}});
  if (params_.compute.msd_every > 0) d.push_back({"msd", t.msd});
  if (constraints_.active()) d.push_back({"constraint_dev", constraints_.max_deviation(atoms_)});
  if (params_.compute.ke_by_type) {
    const std::vector<double> ke = kinetic_energy_by_type();
    for (std::size_t t = 0; t < ke.size(); ++t)
      d.push_back({"ke_type_" + std::to_string(t + 1), ke[t]});
  }
  if (thermostat_.couples()) {  // per atom in lj, as LAMMPS f_ID of fix nvt
    const double per = params_.units.per_atom_thermo ? static_cast<double>(atoms_.total) : 1.0;
    const double ecouple =
        (thermostat_.ecouple(degrees_of_freedom()) + barostat_.energy(t.volume)) / per;
    d.push_back({"ecouple", ecouple});
    d.push_back({"econserve", t.tot_eng() + ecouple});
  }
  return d;
}

// As thermo's ke (per atom in lj units, totals otherwise; after a C-rescale's
// velocity scaling), split by atom type: the columns add up to ke.
std::vector<double> MdSolver::kinetic_energy_by_type() {
  const std::size_t types = params_.masses.size();
  std::vector<double> local(types), global(types);
  for (std::size_t t = 0; t < types; ++t)
    local[t] = sum_mv2_of_type(atoms_, masses_, static_cast<int>(t + 1), sums_);
  MPI_Allreduce(local.data(), global.data(), static_cast<int>(types), MPI_DOUBLE, MPI_SUM,
                decomposition_.comm());
  const double per = params_.units.per_atom_thermo ? static_cast<double>(atoms_.total) : 1.0;
  const double scale =
      barostat_.scales_velocities() ? 1.0 / (pending_dilation_ * pending_dilation_) : 1.0;
  for (double& ke : global) ke *= 0.5 * params_.units.mvv2e * scale / per;
  return global;
}

std::vector<std::string> MdSolver::summary_lines() {
  std::vector<std::string> lines =
      rdf_.summary_lines(decomposition_.comm(), atoms_, local_.volume());
  const std::string kspace = forces_.kspace_summary();
  if (!kspace.empty()) lines.insert(lines.begin(), kspace);
  lines.push_back(parts_.summary(decomposition_.comm()));
  return lines;
}

std::vector<std::pair<std::string, double>> MdSolver::checkpoint_scalars() const {
  std::vector<std::pair<std::string, double>> scalars = {
      {"md_step", static_cast<double>(step_)}, {"md_ago", static_cast<double>(schedule_.ago())}};
  for (const auto& scalar : thermostat_.checkpoint_scalars()) scalars.push_back(scalar);
  for (const auto& scalar : barostat_.checkpoint_scalars()) scalars.push_back(scalar);
  if (const auto charges = forces_.charge_sums()) {
    scalars.push_back({"md_charge_sum", charges->sum});
    scalars.push_back({"md_charge_square_sum", charges->square_sum});
  }
  if (barostat_.active()) {  // the box at the last build, for the skin check
    for (int d = 0; d < 3; ++d) {
      scalars.push_back({"md_build_box_lo_" + std::to_string(d), schedule_.build_lo()[d]});
      scalars.push_back({"md_build_box_hi_" + std::to_string(d), schedule_.build_hi()[d]});
    }
  }
  return scalars;
}

void MdSolver::restore(const std::vector<std::pair<std::string, double>>& scalars) {
  for (const auto& [name, value] : scalars) {
    if (name == "md_step") step_ = std::lround(value);
    if (name == "md_ago") schedule_.set_ago(std::lround(value));
    thermostat_.restore(name, value);
    barostat_.restore(name, value);
    restore_build_box(name, value);
  }
  cached_.reset();
  step_energy_.reset();
  thermo_log_.reset();
}

}  // namespace cb::md
