// The MTK barostat's step (docs/solvers/md.md "Barostats"): LAMMPS FixNH's
// initial_integrate and final_integrate for fix npt ... iso, with the
// Nose-Hoover thermostat's half steps between the barostat's.
#include "solvers/md/solver.hpp"

namespace cb::md {

// Barostat chain, thermostat chain, box velocity from the pressure of the
// thermostatted velocities and the last step's virial, velocity scaling, half
// kick, box by half, drift, box by half (k-space and ghosts follow the box).
void MdSolver::mtk_initial_integrate(double dt, double dof) {
  barostat_.chain_half_step(dt);
  thermostat_.begin_step(atoms_, masses_, step_ + 1, dt, dof);
  barostat_.box_velocity_half_step(current_thermo(), dof, dt);
  scale_velocity_components_twice(atoms_, barostat_.velocity_factors(dt));
  integrate_final(atoms_, masses_, dt, params_.units.ftm2v);  // the half kick
  const ParticleBox half = barostat_.half_remapped(params_.box, dt);
  remap_positions(atoms_, params_.box, half);
  drift(atoms_, dt);
  const ParticleBox full = barostat_.half_remapped(half, dt);
  remap_positions(atoms_, half, full);
  resize_box(full);
}

// After the half kick: velocity scaling, box velocity from this step's
// pressure, thermostat chain, barostat chain.
void MdSolver::mtk_final_integrate(double dt, double dof) {
  scale_velocity_components_twice(atoms_, barostat_.velocity_factors(dt));
  barostat_.box_velocity_half_step(current_thermo(), dof, dt);
  thermostat_.end_step(atoms_, masses_, step_, dt, dof);
  barostat_.chain_half_step(dt);
  cached_.reset();
}

}  // namespace cb::md
