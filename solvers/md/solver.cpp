#include "solvers/md/solver.hpp"

#include "core/error.hpp"
#include "core/log.hpp"
#include "io/lammps_data.hpp"
#include "kernels/md/random.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <iostream>
#include <numeric>

namespace cb::md {
namespace {

using Policy = Kokkos::RangePolicy<ExecSpace>;
namespace kmd = kernels::md;

LocalBox make_local_box(const Params& p, const Decomposition& d) {
  LocalBox b;
  for (int a = 0; a < 3; ++a) {
    b.lo[a] = p.box.lo[a];
    b.hi[a] = p.box.hi[a];
    const int cells = p.geometry.cells[a];
    const int first = d.offset()[a], last = first + d.local_cells()[a];
    const double length = b.hi[a] - b.lo[a];
    b.sublo[a] = first == 0 ? b.lo[a] : b.lo[a] + length * first / cells;
    b.subhi[a] = last == cells ? b.hi[a] : b.lo[a] + length * last / cells;
  }
  return b;
}

}  // namespace

MdSolver::MdSolver(const Params& params, const Decomposition& decomposition)
    : params_(params),
      decomposition_(decomposition),
      local_(make_local_box(params, decomposition)),
      list_(params.neighbor_cutoff(), params.list == ListKind::half),
      pair_(params) {
  check_decomposition(params_, decomposition.dims());
  atoms_.allocate(1024);
  comm_ = std::make_unique<AtomComm>(decomposition, local_, params_.neighbor_cutoff());
  const int n = params_.atom_types;
  mass_ = Kokkos::View<double*, MemSpace>("md::mass", n + 1);
  inv_mass_ = Kokkos::View<double*, MemSpace>("md::inv_mass", n + 1);
  auto mass = Kokkos::create_mirror_view(mass_);
  auto inv_mass = Kokkos::create_mirror_view(inv_mass_);
  for (int t = 1; t <= n; ++t) {
    mass(t) = params_.masses[t - 1];
    inv_mass(t) = 1.0 / params_.masses[t - 1];
  }
  Kokkos::deep_copy(mass_, mass);
  Kokkos::deep_copy(inv_mass_, inv_mass);
  rdf_hist_ =
      Kokkos::View<double*, MemSpace>("md::rdf_histogram", std::max(params_.compute.rdf_bins, 1));
  scratch_ = Vec3View("md::per_atom_scratch", 0);
  if (params_.from_data_file) {
    HostParticles atoms;
    if (decomposition.rank() == 0) atoms = io::read_lammps_data(params_.data_file).atoms;
    load_particles(atoms);
  } else {
    HostParticles atoms = lattice_atoms(params_, local_);
    long long mine = static_cast<long long>(atoms.size()), total = 0;
    MPI_Allreduce(&mine, &total, 1, MPI_LONG_LONG, MPI_SUM, decomposition.comm());
    zero_momentum_and_scale(atoms, params_.masses, params_.temperature, total,
                            decomposition.comm());
    load_particles(atoms);
  }
}

void MdSolver::rebuild(bool wrap) {
  if (wrap) {
    const std::int64_t total = comm_->wrap_and_migrate(atoms_);
    if (total != atoms_.total) {
      throw RunError("md: step " + std::to_string(step_) + ": " +
                     std::to_string(atoms_.total - total) +
                     " atoms lost (moved more than a sub-box between neighbour-list rebuilds; "
                     "lower [neighbor] every or set check = true)");
    }
  }
  comm_->borders(atoms_);
  list_.build(atoms_, pair_.list_cutsq());
  save_build_positions();
  ++builds_;
}

void MdSolver::compute_forces() {
  pair_.compute(atoms_, list_);
  if (list_.half()) comm_->reverse(atoms_, atoms_.f);
}

// LAMMPS Neighbor::decide: every `every` steps after `delay`, and with `check`
// only when some atom moved more than skin / 2 since the last build.
bool MdSolver::rebuild_due() {
  if (ago_ < params_.delay || ago_ % params_.every != 0) return false;
  if (!params_.check) return true;
  const double local = max_displacement_sq();
  double global = 0.0;
  MPI_Allreduce(&local, &global, 1, MPI_DOUBLE, MPI_MAX, decomposition_.comm());
  return global > 0.25 * params_.skin * params_.skin;
}

void MdSolver::step(double /*time*/, double dt, PhaseTimer& timer) {
  if (!header_printed_) print_thermo_if_due(true);
  cached_.reset();
  if (params_.thermostat.style == ThermostatStyle::nose_hoover) thermostat_end(dt);
  if (params_.thermostat.style == ThermostatStyle::langevin) langevin_kick(dt);
  integrate_initial(dt);
  ++ago_;
  {
    ScopedPhase comm(timer, Phase::halo, "md::comm");
    if (rebuild_due()) {
      rebuild(true);
      ago_ = 0;
    } else {
      comm_->forward(atoms_);
    }
  }
  pair_.compute(atoms_, list_);
  if (list_.half()) {
    ScopedPhase comm(timer, Phase::halo, "md::reverse_comm");
    comm_->reverse(atoms_, atoms_.f);
  }
  ++step_;
  integrate_final(dt);
  thermostat_end(dt);
  const ComputeParams& c = params_.compute;
  if (c.rdf_bins > 0 && step_ >= c.rdf_start && step_ % c.rdf_every == 0) accumulate_rdf();
  print_thermo_if_due(false);
}

// Called at the start of a step (Nose-Hoover's first half) and at its end.
void MdSolver::thermostat_end(double dt) {
  const ThermostatParams& t = params_.thermostat;
  if (t.style != ThermostatStyle::nose_hoover && t.style != ThermostatStyle::berendsen) return;
  double mv2 = 0.0, local = sum_mv2();
  MPI_Allreduce(&local, &mv2, 1, MPI_DOUBLE, MPI_SUM, decomposition_.comm());
  const double dof = degrees_of_freedom();
  const double current = mv2 / dof;
  const double factor = t.style == ThermostatStyle::berendsen
                            ? kmd::berendsen_scale(current, t.temperature, dt, t.damp)
                            : nose_hoover_.half_step(current, t.temperature, dof, t.damp, dt);
  scale_velocities(factor);
}

void MdSolver::print_thermo_if_due(bool start) {
  const bool due = start || (params_.thermo_every > 0 && step_ % params_.thermo_every == 0) ||
                   step_ == params_.steps;
  if (!due || thermo_printed_ == step_) return;
  const Thermo t = thermo();
  thermo_printed_ = step_;
  const bool header = !header_printed_;
  header_printed_ = true;
  if (decomposition_.rank() != 0) return;
  // The layout of LAMMPS thermo_style one (Debian's 20220106 build): "%8d"
  // and "%12.8g", each followed by a space.
  char line[160];
  std::snprintf(line, sizeof line, "%8ld %12.8g %12.8g %12.8g %12.8g %12.8g ", t.step, t.temp, t.pe,
                0.0, t.tot_eng(), t.press);
  for (const std::string& text :
       {std::string(header ? "Step Temp E_pair E_mol TotEng Press " : ""), std::string(line)}) {
    if (text.empty()) continue;
    if (log_ != nullptr) {
      log_->line(text);
    } else {
      std::cout << text << '\n' << std::flush;
    }
  }
}

Thermo MdSolver::thermo() {
  if (cached_ && cached_->step == step_) return *cached_;
  const EnergyVirial ev = pair_.energy_virial(atoms_, list_);
  double local[3] = {sum_mv2(), ev.energy, ev.virial}, global[3];
  MPI_Allreduce(local, global, 3, MPI_DOUBLE, MPI_SUM, decomposition_.comm());
  const double natoms = static_cast<double>(atoms_.total);
  const double dof = degrees_of_freedom();
  const double volume = local_.volume();
  const double inv_volume = 1.0 / volume;
  Thermo t;
  t.step = step_;
  t.temp = global[0] * (1.0 / dof);
  t.ke = t.temp * 0.5 * dof / natoms;
  double pe = global[1];
  double virial = global[2];
  if (params_.tail) {
    pe += etail_ / volume;
    virial += 3.0 * ptail_ * inv_volume;
  }
  t.pe = pe / natoms;
  t.press = (dof * t.temp + virial) / 3.0 * inv_volume;
  if (params_.compute.msd_every > 0) {
    double msd = 0.0, mine = sum_msd();
    MPI_Allreduce(&mine, &msd, 1, MPI_DOUBLE, MPI_SUM, decomposition_.comm());
    t.msd = msd / natoms;
  }
  cached_ = t;
  return t;
}

std::vector<Diagnostic> MdSolver::diagnostics(double /*time*/) {
  if (!header_printed_) print_thermo_if_due(true);
  const Thermo t = thermo();
  std::vector<Diagnostic> d = {
      {"temp", t.temp},   {"e_pair", t.pe}, {"e_mol", 0.0}, {"tot_eng", t.tot_eng()},
      {"press", t.press}, {"ke", t.ke},     {"pe", t.pe}};
  if (params_.compute.msd_every > 0) d.push_back({"msd", t.msd});
  return d;
}

std::vector<std::pair<std::string, double>> MdSolver::checkpoint_scalars() const {
  return {{"md_step", static_cast<double>(step_)},
          {"md_ago", static_cast<double>(ago_)},
          {"md_nose_hoover_eta", nose_hoover_.eta},
          {"md_nose_hoover_eta_dot", nose_hoover_.eta_dot}};
}

void MdSolver::restore(const std::vector<std::pair<std::string, double>>& scalars) {
  for (const auto& [name, value] : scalars) {
    if (name == "md_step") step_ = std::lround(value);
    if (name == "md_ago") ago_ = std::lround(value);
    if (name == "md_nose_hoover_eta") nose_hoover_.eta = value;
    if (name == "md_nose_hoover_eta_dot") nose_hoover_.eta_dot = value;
  }
  cached_.reset();
  thermo_printed_ = -1;
  header_printed_ = false;
}

}  // namespace cb::md
