// Thermostats ([thermostat] style; kernels/md/integrate.hpp has the formulas):
//  - Langevin: friction and noise as one velocity impulse at the start of the
//    step (Schneider & Stoll 1978; the force of LAMMPS fix langevin);
//  - Nose-Hoover, a chain of length 1 (Martyna, Tuckerman, Tobias & Klein
//    1996): half steps of the thermostat variable before the first and after
//    the second kick, as LAMMPS fix nvt;
//  - Berendsen et al. (1984): velocity rescaling at the end of the step.
#pragma once

#include "kernels/md/integrate.hpp"
#include "solvers/md/dynamics.hpp"
#include "solvers/md/params.hpp"

#include <mpi.h>

#include <string>
#include <utility>
#include <vector>

namespace cb::md {

class Thermostat {
 public:
  Thermostat(const ThermostatParams& params, MPI_Comm comm);

  // Before the first half kick of step `step` (the step being taken);
  // `dof` = degrees of freedom of the whole system. Collective.
  void begin_step(const Atoms& atoms, const TypeMasses& masses, long step, double dt, double dof);
  // After the second half kick. Collective.
  void end_step(const Atoms& atoms, const TypeMasses& masses, double dt, double dof);

  // The thermostat's own state (Nose-Hoover eta and eta_dot) for checkpoints.
  std::vector<std::pair<std::string, double>> checkpoint_scalars() const;
  void restore(const std::string& name, double value);

 private:
  // Scales the velocities towards the target temperature (Berendsen, or a
  // Nose-Hoover half step) given the current kinetic energy.
  void rescale(const Atoms& atoms, const TypeMasses& masses, double dt, double dof);

  ThermostatParams params_;
  MPI_Comm comm_;
  kernels::md::NoseHoover nose_hoover_;
  OrderedSum sums_;
};

// Langevin friction and noise as one velocity update (Euler-Maruyama for
// dv = -v/damp dt + sqrt(2 kT / (m damp)) dW), random stream keyed by
// (seed, atom id, step, component).
void langevin_kick(const Atoms& atoms, const TypeMasses& masses, const ThermostatParams& params,
                   long step, double dt);

}  // namespace cb::md
