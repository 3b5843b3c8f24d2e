// The molecular-dynamics solver (docs/solvers/md.md): Lennard-Jones atoms in an
// orthogonal box (periodic, or fixed along some axes), velocity Verlet with
// optional thermostats, Verlet lists with a skin, spatial decomposition over
// the Cartesian topology of core/decomposition.hpp. LAMMPS is the reference:
// the same input gives the same thermo output. The pieces: atoms.hpp (per-atom
// properties), atom_records.hpp and distribution.hpp (atoms between ranks),
// comm.hpp (ghosts, migration), neighbor.hpp and rebuild_schedule.hpp (lists),
// force_field.hpp (force terms), dynamics.hpp and thermostat.hpp (equations of
// motion), analysis.hpp (g(r), MSD), thermo.hpp (output).
#pragma once

#include "core/decomposition.hpp"
#include "core/particle_solver.hpp"
#include "solvers/md/analysis.hpp"
#include "solvers/md/barostat.hpp"
#include "solvers/md/comm.hpp"
#include "solvers/md/constraints.hpp"
#include "solvers/md/dynamics.hpp"
#include "solvers/md/force_field.hpp"
#include "solvers/md/neighbor.hpp"
#include "solvers/md/params.hpp"
#include "solvers/md/rebuild_schedule.hpp"
#include "solvers/md/setup.hpp"
#include "solvers/md/thermo.hpp"
#include "solvers/md/thermostat.hpp"
#include "solvers/md/topology.hpp"

#include <memory>
#include <optional>

namespace cb::md {

// The per-atom output quantities beyond id, type, x and v.
inline std::vector<std::string> per_atom_names() {
  return {"pe", "ke", "fx", "fy", "fz"};
}

class MdSolver : public ParticleSolver {
 public:
  MdSolver(const Params& params, const Decomposition& decomposition,
           const RunContext& context = {});

  // Solver
  std::string name() const override { return "md"; }
  std::string case_name() const override { return params_.case_name; }
  double stable_dt() override { return params_.dt; }
  void step(double time, double dt, PhaseTimer& timer) override;
  std::vector<Diagnostic> diagnostics(double time) override;
  std::string locate_non_finite() override;
  std::vector<std::pair<std::string, double>> checkpoint_scalars() const override;
  void restore(const std::vector<std::pair<std::string, double>>& scalars) override;
  std::vector<std::string> summary_lines() override;
  void attach_log(Log* log) override { thermo_log_.attach(log); }
  double work_per_step() const override { return static_cast<double>(atoms_.total); }
  std::string throughput_unit() const override { return "atom-steps/s"; }

  // ParticleSolver
  const ParticleBox& box() const override { return params_.box; }
  std::vector<double> type_masses() const override { return params_.masses; }
  std::int64_t total_atoms() const override { return atoms_.total; }
  HostParticles owned_particles() override;
  void load_particles(const HostParticles& atoms) override;
  void prepare_restore(const ParticleBox& saved,
                       const std::vector<std::pair<std::string, double>>& scalars) override;
  std::vector<std::string> per_atom_names() const override { return md::per_atom_names(); }
  // Forces only when asked for, as LAMMPS dumps them.
  std::vector<std::string> default_per_atom_names() const override { return {"pe", "ke"}; }
  std::vector<double> per_atom_values(int q) override;
  std::string unit_style() const override;
  DataCoeffs data_coeffs() const override;

  // The thermodynamic state now (collective).
  Thermo thermo();
  const Params& params() const { return params_; }
  long current_step() const { return step_; }

 private:
  // Neighbour-list rebuild: wraps and migrates the owned atoms (unless just
  // loaded), exchanges ghosts and builds the list.
  void rebuild(bool migrate);
  void compute_forces();
  // Before the first step or thermo output after loading: the constraint
  // forces (a restart's stored ones; at step 0 after LAMMPS fix shake's
  // setup, which puts the clusters on their constraints).
  void prepare_constraints();
  void print_thermo_if_due(bool start);
  // The global thermo sums of the current step (collective).
  ThermoSums thermo_sums();
  // Energies and virial of the current step's forces (computed once a step).
  EnergyVirial step_energy_virial();
  // Whether thermo() will be asked for at `step` (a barostat every step, the
  // thermo log when due): then the force pass tallies the energies too.
  bool energy_wanted(long step) const { return barostat_.active() || thermo_log_.due(step, false); }
  // Thermo of `sums` with the current step's number and the given volume.
  Thermo thermo_of(const ThermoSums& sums, double volume) const;
  // Thermo of the velocities now, the current step's forces and box.
  Thermo current_thermo() { return thermo_of(thermo_sums(), local_.volume()); }
  // Whether the barostat rescales the box at the end of the current step
  // (every step but step 0, as LAMMPS's end_of_step).
  bool barostat_due() const { return barostat_.rescales() && step_ >= 1; }
  // The MTK barostat with the Nose-Hoover thermostat, LAMMPS FixNH's
  // initial_integrate (chains, box velocity, kick, box, drift, box) and
  // final_integrate (kick, box velocity, chains); solver_mtk.cpp.
  void mtk_initial_integrate(double dt, double dof);
  void mtk_final_integrate(double dt, double dof);
  // The barostat's rescale of the end of the last step, applied before the
  // next step begins (so a checkpoint holds the state its forces belong to).
  void apply_barostat();
  // Collective: a new box (same periodicity), sub-boxes cut from it on the
  // same rank grid, ghost slabs and shifts following. RunError when too thin.
  void resize_box(const ParticleBox& box);
  // A checkpoint scalar md_build_box_{lo,hi}_{axis}, if `name` is one.
  void restore_build_box(const std::string& name, double value);
  HostRows topology_rows(const HostParticles& given);
  // Kinetic energy of each atom type, in thermo's ke units (collective).
  std::vector<double> kinetic_energy_by_type();
  // After load_particles: the global atom count and the tail terms.
  void count_atoms_and_tail_terms();
  double degrees_of_freedom() const {
    return md::degrees_of_freedom(atoms_.total, constrained_dof_);
  }

  Params params_;
  const Decomposition& decomposition_;
  CommOptions comm_options_;
  LocalBox local_;
  Atoms atoms_;
  TypeMasses masses_;
  AtomComm comm_;
  NeighborList list_;
  RebuildSchedule schedule_;
  ForceField forces_;
  Constraints constraints_;
  Thermostat thermostat_;
  Barostat barostat_;
  double pending_dilation_ = 1.0;  // the barostat's mu at the end of the current step
  RadialDistribution rdf_;
  ThermoLog thermo_log_;
  kernels::md::TailTerms tail_;  // E += etail / V, P += ptail / V^2
  Vec3View per_atom_output_;     // pe or ke per atom (component 0)
  OrderedSum sums_;              // thermo and MSD sums, thread-count independent
  PartTimers parts_;             // time by part of the step (run summary)
  long step_ = 0;
  std::int64_t constrained_dof_ = 0;            // removed by constraints
  bool constraints_ready_ = false;              // f holds the constraint forces
  bool stored_constraint_forces_ = false;       // the loaded atoms brought them
  std::optional<ChargeSums> restored_charges_;  // from the checkpoint, until the atoms load
  std::optional<EnergyVirial> setup_energy_;    // step 0 with constraints: before SHAKE's setup
  std::optional<Thermo> cached_;                // thermo() of the current step
  std::optional<EnergyVirial> step_energy_;     // step_energy_virial() of step_energy_step_
  long step_energy_step_ = -1;
};

}  // namespace cb::md
