// The molecular-dynamics solver (DESIGN.md §1, docs/solvers/md.md): Lennard-
// Jones atoms in an orthogonal periodic box, velocity Verlet with optional
// thermostats, Verlet lists with a skin, spatial decomposition over the
// Cartesian topology of core/decomposition.hpp. LAMMPS is the reference: the
// same input gives the same thermo output.
#pragma once

#include "core/decomposition.hpp"
#include "core/particle_solver.hpp"
#include "kernels/md/integrate.hpp"
#include "solvers/md/comm.hpp"
#include "solvers/md/forces.hpp"
#include "solvers/md/neighbor.hpp"
#include "solvers/md/params.hpp"

#include <memory>
#include <optional>

namespace cb::md {

// Global thermodynamic state, LAMMPS thermo conventions (lj units, energies
// per atom): temp = sum m v^2 / dof with dof = 3N - 3.
struct Thermo {
  long step = 0;
  double temp = 0.0;
  double ke = 0.0;     // per atom
  double pe = 0.0;     // per atom (pair energy, with tail correction)
  double press = 0.0;  // virial pressure (with tail correction)
  double msd = 0.0;    // mean squared displacement (when enabled)
  double tot_eng() const { return ke + pe; }
};

class MdSolver : public ParticleSolver {
 public:
  MdSolver(const Params& params, const Decomposition& decomposition);

  // Solver
  std::string name() const override { return "md"; }
  std::string case_name() const override { return params_.case_name; }
  double stable_dt() override { return params_.dt; }
  void step(double time, double dt, PhaseTimer& timer) override;
  std::vector<Diagnostic> diagnostics(double time) override;
  std::string locate_non_finite() override;
  std::vector<FieldComponent> output_fields() override { return {}; }
  std::vector<FieldComponent> checkpoint_fields() override { return {}; }
  std::vector<std::pair<std::string, double>> checkpoint_scalars() const override;
  void restore(const std::vector<std::pair<std::string, double>>& scalars) override;
  std::vector<std::string> summary_lines() override;
  void attach_log(Log* log) override { log_ = log; }
  const GridGeometry& geometry() const override { return params_.geometry; }
  int halo() const override { return 0; }
  double work_per_step() const override { return static_cast<double>(atoms_.total); }
  std::string throughput_unit() const override { return "atom-steps/s"; }

  // ParticleSolver
  const ParticleBox& box() const override { return params_.box; }
  std::vector<double> type_masses() const override { return params_.masses; }
  std::int64_t total_atoms() const override { return atoms_.total; }
  HostParticles owned_particles() override;
  void load_particles(const HostParticles& atoms) override;
  std::vector<std::string> per_atom_names() const override { return {"pe", "ke"}; }
  std::vector<double> per_atom_values(int q) override;

  // The thermodynamic state now (collective).
  Thermo thermo();
  const Params& params() const { return params_; }
  long current_step() const { return step_; }

  // Launch sites (public for the CUDA extended-lambda rule).
  void integrate_initial(double dt);
  void integrate_final(double dt);
  void scale_velocities(double factor);
  void langevin_kick(double dt);
  double sum_mv2();
  double max_displacement_sq();
  void save_build_positions();
  double sum_msd();
  void accumulate_rdf();

 private:
  bool rebuild_due();
  void rebuild(bool wrap);
  void compute_forces();
  void thermostat_end(double dt);
  void print_thermo_if_due(bool force_header);
  double degrees_of_freedom() const { return 3.0 * static_cast<double>(atoms_.total) - 3.0; }

  Params params_;
  const Decomposition& decomposition_;
  LocalBox local_;
  Atoms atoms_;
  std::unique_ptr<AtomComm> comm_;
  NeighborList list_;
  PairForce pair_;
  Kokkos::View<double*, MemSpace> inv_mass_;  // index type
  Kokkos::View<double*, MemSpace> mass_;
  Kokkos::View<double*, MemSpace> rdf_hist_;
  Vec3View scratch_;  // per-atom energies (pe output)
  long step_ = 0;
  long ago_ = 0;  // steps since the last neighbour build (LAMMPS Neighbor::ago)
  long builds_ = 0;
  long rdf_samples_ = 0;
  double etail_ = 0.0, ptail_ = 0.0;  // tail terms: E += etail / V, P += ptail / V^2
  kernels::md::NoseHoover nose_hoover_;
  long thermo_printed_ = -1;
  bool header_printed_ = false;
  Log* log_ = nullptr;  // thermo rows go here (else to stdout)
  std::optional<Thermo> cached_;
};

// Atoms of the lattice start, as LAMMPS `create_atoms` and `velocity ... loop
// geom` give them (host; each rank keeps those in its sub-box).
HostParticles lattice_atoms(const Params& params, const LocalBox& local);
// Zeroes the net momentum and scales to `temperature` with dof 3N - 3
// (collective; LAMMPS `velocity create` with mom yes).
void zero_momentum_and_scale(HostParticles& atoms, const std::vector<double>& masses,
                             double temperature, std::int64_t total, MPI_Comm comm);

}  // namespace cb::md
