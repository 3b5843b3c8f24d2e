// Thermostats ([thermostat] style; kernels/md/integrate.hpp has the formulas):
//  - Langevin: friction and noise as one velocity impulse after the forces,
//    before the constraints see them (Schneider & Stoll 1978; the force of
//    LAMMPS fix langevin, on the half-step velocity as LAMMPS has it);
//  - Nose-Hoover chains (Martyna, Klein & Tuckerman 1992; Martyna, Tuckerman,
//    Tobias & Klein 1996): half steps of the chain before the first and after
//    the second kick, as LAMMPS fix nvt (tchain = `chain`, default 3);
//  - Berendsen et al. (1984): velocity rescaling at the end of the step;
//  - CSVR, stochastic velocity rescaling (Bussi, Donadio & Parrinello 2007;
//    GROMACS v-rescale, LAMMPS fix temp/csvr): at the end of the step, one
//    global factor from a stream keyed by (seed, step), the same on every rank.
// ecouple() is the energy the thermostat has exchanged with the atoms (LAMMPS
// ecouple): the chain's energy for Nose-Hoover, the sum of the kinetic energy
// removed by each rescaling for CSVR and Berendsen; TotEng + ecouple is
// conserved (CSVR: the "effective energy" of Bussi et al.).
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

  // LAMMPS fix nvt's setup, at step 0 before the constraints' setup: the
  // kinetic energy the chain's first half step takes (fix nvt precedes fix
  // rattle, whose setup then changes the velocities). Collective.
  void setup(const Atoms& atoms, const TypeMasses& masses);
  // Before the first half kick of step `step` (the step being taken);
  // `dof` = degrees of freedom of the whole system. Collective.
  void begin_step(const Atoms& atoms, const TypeMasses& masses, long step, double dt, double dof);
  // After the forces of step `step`, before the constraints' forces: Langevin's
  // impulse on the half-step velocity, which the constraint solve then sees
  // (a kick after it would move constrained atoms off their distances).
  void after_forces(const Atoms& atoms, const TypeMasses& masses, long step, double dt);
  // After the second half kick of step `step`. Collective.
  void end_step(const Atoms& atoms, const TypeMasses& masses, long step, double dt, double dof);

  // Whether ecouple() means something (Nose-Hoover, CSVR, Berendsen).
  bool couples() const;
  // Energy taken from the atoms so far (energy units, whole system).
  double ecouple(double dof) const;

  // The thermostat's own state (Nose-Hoover chain, exchanged energy) for checkpoints.
  std::vector<std::pair<std::string, double>> checkpoint_scalars() const;
  void restore(const std::string& name, double value);

 private:
  // Scales the velocities towards the target temperature (Berendsen, CSVR or
  // a Nose-Hoover half step) given the current sum m v^2.
  void rescale(const Atoms& atoms, long step, double dt, double dof, double mv2);
  double total_mv2(const Atoms& atoms, const TypeMasses& masses);
  double rescale_factor(double current, long step, double dt, double dof);

  ThermostatParams params_;
  MPI_Comm comm_;
  kernels::md::NoseHooverChain chain_;
  double removed_ = 0.0;     // kinetic energy taken out by CSVR/Berendsen rescaling
  double setup_mv2_ = -1.0;  // setup()'s sum m v^2 until the first half step takes it
  OrderedSum sums_;
};

// Langevin friction and noise as one velocity update (Euler-Maruyama for
// dv = -v/damp dt + sqrt(2 kT / (m damp)) dW), random stream keyed by
// (seed, atom id, step, component).
void langevin_kick(const Atoms& atoms, const TypeMasses& masses, const ThermostatParams& params,
                   long step, double dt);

}  // namespace cb::md
