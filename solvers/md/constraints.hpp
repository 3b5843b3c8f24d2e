// SHAKE in the time step, as LAMMPS fix shake does it (src/RIGID/fix_shake.cpp):
// after the forces and their reverse communication (post_force), every owned
// atom of a cluster predicts the unconstrained positions x' = x + dt v +
// dt^2 ftm2v f / m of its cluster (x' of ghosts by a forward communication),
// solves the cluster (kernels/md/shake.hpp, LAMMPS's test on the change of
// the multipliers) and adds its own constraint force to f, so the next
// drift lands on the constraints.
//
// Each cluster is solved by every owned atom in it, each keeping its own
// share: a cluster straddling ranks needs no reverse communication and no
// atomics, and each atom's force is the same whichever rank owns it (LAMMPS
// solves once per rank that owns an atom of the cluster; we solve once per
// owned atom -- up to 4 times the cluster arithmetic, a small part of a step).
// Within a rank every solver of a cluster sees the same inputs (the lowest
// local copy of each id, coordinates relative to the central atom), so the
// forces are equal and opposite to the last bit.
//
// The clusters come from the whole topology (shake_clusters.hpp) and travel
// as per-atom rows [shape, 4 ids, 3 target codes] (Atoms::cluster: bond type
// k > 0 -> r0 of bond type k, -k -> the frozen-angle distance of angle type
// k); the constrained bonds and frozen angles get negative types, so the
// bonded terms skip them (LAMMPS fix shake does the same). The constraint
// force of the last step is kept per atom (Atoms::f_constraint) and
// checkpointed, so a restart resumes bit for bit.
//
// style = "settle" takes the same clusters and step, each a rigid water (a
// 3-atom cluster with its angle frozen, equal O-H lengths and hydrogen
// masses; assign refuses others), and solves it exactly by SETTLE
// (kernels/md/settle.hpp) instead of iterating SHAKE; SETTLE's multipliers
// are SHAKE's, so the forces, the virial and the checkpoint are the same.
//
// style = "rattle" is LAMMPS fix rattle (Andersen 1983; src/RIGID/
// fix_rattle.cpp): at post_force the velocity stage -- the owned atoms'
// unconstrained full-step velocities v + dt ftm2v f / 2m go to the ghosts,
// and each owned atom's half-step velocity takes its share of the change
// that makes its cluster's relative velocities orthogonal to the bonds, so
// the final kick lands on the velocity constraints; after the final kick and
// the thermostat, SHAKE's position stage from the full-step velocity (x' = x
// + dt v + dt^2 ftm2v f / 2m) for the next drift. At step 0 the given
// velocities are corrected the same way (fix rattle's correct_velocities).
#pragma once

#include "core/ordered_sum.hpp"
#include "solvers/md/cluster_eval.hpp"
#include "solvers/md/comm.hpp"
#include "solvers/md/dynamics.hpp"
#include "solvers/md/force_field.hpp"
#include "solvers/md/id_copies.hpp"
#include "solvers/md/params.hpp"

#include <mpi.h>

#include <cstdint>
#include <vector>

namespace cb::md {

constexpr int cluster_row_width = 8;

class Constraints {
 public:
  explicit Constraints(const Params& params);
  bool active() const { return on_; }
  // Distance constraints in all clusters (for the degrees of freedom).
  std::int64_t count() const { return count_; }

  // Collective, host. The clusters from the whole topology `all` and every
  // rank's atoms `given`: turns the types of the constrained bonds and frozen
  // angles in `all` negative and returns the cluster rows of `given`'s atoms.
  // Throws InputError (LAMMPS's messages) for a bad selection, and for
  // SETTLE a cluster that is not a rigid water.
  std::vector<std::int64_t> assign(Topology& all, const HostParticles& given, MPI_Comm comm);
  // After every ghost rebuild: the id map; throws RunError when a cluster
  // partner of an owned atom is neither owned nor a ghost here.
  void atoms_rebuilt(const Atoms& atoms);
  // A barostat changed the box: the minimum images of the clusters follow it.
  void set_box(const ParticleBox& box);

  // LAMMPS fix shake's setup at step 0: SHAKE with v = f = 0 moves every
  // cluster onto its constraints (correct_coordinates; ghosts follow),
  // RATTLE corrects the velocities (correct_velocities), then the first
  // constraint forces from the full-step velocities (shake_end_of_step).
  // Collective; throws RunError (exit 3) naming the first cluster that failed.
  void setup(Atoms& atoms, const TypeMasses& masses, AtomComm& comm, double dt, double ftm2v,
             long step);
  // After the forces and their reverse communication (LAMMPS's post_force):
  // SHAKE and SETTLE add the constraint forces for the half-step velocities,
  // RATTLE corrects the half-step velocities. Collective.
  void post_force(Atoms& atoms, const TypeMasses& masses, AtomComm& comm, double dt, double ftm2v,
                  long step);
  // After the final kick and the thermostat: RATTLE's position stage (fix
  // rattle's final_integrate); nothing for SHAKE and SETTLE. Collective.
  void end_of_step(Atoms& atoms, const TypeMasses& masses, AtomComm& comm, double dt, double ftm2v,
                   long step);
  // f += the constraint force of each owned atom (kept in atoms.f_constraint)
  // for the predicted positions x + dt v + dtfsq f / m, dtfsq = dt^2 ftm2v
  // (v the half-step velocity) or, with `full_step`, dt^2 ftm2v / 2 (v the
  // full-step velocity: LAMMPS's shake_end_of_step and RATTLE). Collective.
  void add_forces(Atoms& atoms, const TypeMasses& masses, AtomComm& comm, double dt, double ftm2v,
                  long step, bool full_step);
  // f += atoms.f_constraint (a restart's stored forces).
  void add_stored_forces(const Atoms& atoms) const;
  // The largest |r_k - d_k| / d_k over every constrained distance of every
  // cluster, at the current positions (the diagnostic constraint_dev). Collective.
  double max_deviation(const Atoms& atoms) const;
  // This rank's share of sum r . f of the constraint forces in f_constraint.
  EnergyVirial virial(const Atoms& atoms);

  // Public for the CUDA extended-lambda rule; not part of the interface.
  enum class Stage { positions, velocities };
  void solve_owned(Atoms& atoms, const TypeMasses& masses, bool correct, double scale, long step);
  // RATTLE's velocity stage with the unconstrained velocities v + kick f / m.
  void correct_velocities(Atoms& atoms, const TypeMasses& masses, AtomComm& comm, double kick,
                          long step);
  void check_converged(const Atoms& atoms, double failed, long step, Stage stage) const;
  void correct_positions(Atoms& atoms, const TypeMasses& masses, AtomComm& comm, long step);

 private:
  void reserve(const Atoms& atoms);
  // The evaluator of the clusters of `atoms` (inverse masses from `masses`, if given).
  ClusterEval evaluator(const Atoms& atoms, const TypeMasses* masses) const;

  bool on_ = false;
  bool settle_ = false;
  bool rattle_ = false;
  kernels::md::ShakeControl control_;
  ShakeSelection selection_;
  std::vector<double> bond_r0_, angle_theta0_;  // by type - 1
  std::vector<double> type_masses_;
  int term_types_[term_kinds] = {0, 0, 0, 0};
  MPI_Comm comm_ = MPI_COMM_NULL;
  std::int64_t count_ = 0;
  double length_[3] = {1, 1, 1};
  bool periodic_[3] = {true, true, true};
  Kokkos::View<double*, MemSpace> bond_length_, angle_length_;  // by type (index 0 unused)
  IdCopies copies_;
  Vec3View x_shake_;  // predicted positions or velocities (owned and ghost), or corrections
  IntView failed_;
  OrderedSum sums_;
};

}  // namespace cb::md
