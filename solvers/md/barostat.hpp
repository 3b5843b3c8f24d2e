// Barostats ([barostat] style; kernels/md/barostat.hpp has the formulas):
// isotropic Berendsen (LAMMPS fix press/berendsen iso) and stochastic cell
// rescaling (C-rescale, Bernetti & Bussi 2020). Each scales the box about its
// centre by a factor mu from the pressure at the end of a step, and the owned
// positions with it (as fractions of the box, LAMMPS x2lamda / lamda2x);
// C-rescale also scales the velocities by 1 / mu. The C-rescale noise comes
// from a stream keyed by (seed, key -1, step): the same on every rank and rank
// count, no state to checkpoint (CSVR uses key 0, Langevin the atom ids).
// MTK (LAMMPS fix npt iso; kernels/md/mtk.hpp) instead gives the box a
// velocity and its own chain, integrated with the thermostat's within the
// step: the solver asks for the half steps, factors and boxes below.
#pragma once

#include "core/particle_solver.hpp"
#include "kernels/md/mtk.hpp"
#include "solvers/md/atoms.hpp"
#include "solvers/md/params.hpp"
#include "solvers/md/thermo.hpp"

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace cb::md {

class Barostat {
 public:
  Barostat(const BarostatParams& params, const kernels::md::Units& units);

  bool active() const { return params_.style != BarostatStyle::none; }
  // Berendsen and C-rescale rescale the box once at the end of a step.
  bool rescales() const { return active() && !mtk(); }
  bool mtk() const { return params_.style == BarostatStyle::mtk; }
  bool scales_velocities() const { return params_.style == BarostatStyle::c_rescale; }
  // The factor mu of the box lengths at the end of step `step`, from the
  // pressure and volume then.
  double dilation(double pressure, double volume, long step, double dt) const;

  // MTK: the box the run starts from (the case's, also on a restart: its
  // centre stays fixed, its volume is the energy's V0) and the atom count.
  void set_reference(const ParticleBox& box, std::int64_t natoms);
  // Half step of the barostat's chain (before the thermostat's at the start
  // of a step, after it at the end).
  void chain_half_step(double dt);
  // Half step of the box velocities from the state now: iso from the scalar
  // pressure and dof k_B T, aniso from the tensor's diagonal and sum m v_a^2.
  void box_velocity_half_step(const Thermo& now, double dof, double dt);
  // The factors by which each velocity component is scaled twice.
  Kokkos::Array<double, 3> velocity_factors(double dt) const;
  // `box` scaled about the reference centre by one of the two half remaps.
  ParticleBox half_remapped(const ParticleBox& box, double dt) const;
  // The barostat's share of the conserved energy at volume V (energy units).
  double energy(double volume) const;

  std::vector<std::pair<std::string, double>> checkpoint_scalars() const;
  void restore(const std::string& name, double value);

 private:
  double kt() const { return units_.boltz * params_.temperature; }
  double box_mass() const;
  double chain_mass() const;

  BarostatParams params_;
  kernels::md::Units units_;
  kernels::md::MtkBarostat mtk_;
  double natoms_ = 0.0;
  double volume0_ = 0.0;
  double centre_[3] = {};
};

// `box` with every axis scaled by mu about its centre.
ParticleBox dilated_box(const ParticleBox& box, double mu);
double volume_of(const ParticleBox& box);
// The owned positions at the same fractions of box `to` as they were of `from`.
void remap_positions(const Atoms& atoms, const ParticleBox& from, const ParticleBox& to);

}  // namespace cb::md
