// Barostats ([barostat] style; kernels/md/barostat.hpp has the formulas):
// isotropic Berendsen (LAMMPS fix press/berendsen iso) and stochastic cell
// rescaling (C-rescale, Bernetti & Bussi 2020). Each scales the box about its
// centre by a factor mu from the pressure at the end of a step, and the owned
// positions with it (as fractions of the box, LAMMPS x2lamda / lamda2x);
// C-rescale also scales the velocities by 1 / mu. The C-rescale noise comes
// from a stream keyed by (seed, key -1, step): the same on every rank and rank
// count, no state to checkpoint (CSVR uses key 0, Langevin the atom ids).
#pragma once

#include "core/particle_solver.hpp"
#include "solvers/md/atoms.hpp"
#include "solvers/md/params.hpp"

namespace cb::md {

class Barostat {
 public:
  Barostat(const BarostatParams& params, const kernels::md::Units& units);

  bool active() const { return params_.style != BarostatStyle::none; }
  bool scales_velocities() const { return params_.style == BarostatStyle::c_rescale; }
  // The factor mu of the box lengths at the end of step `step`, from the
  // pressure and volume then.
  double dilation(double pressure, double volume, long step, double dt) const;

 private:
  BarostatParams params_;
  kernels::md::Units units_;
};

// `box` with every axis scaled by mu about its centre.
ParticleBox dilated_box(const ParticleBox& box, double mu);
double volume_of(const ParticleBox& box);
// The owned positions at the same fractions of box `to` as they were of `from`.
void remap_positions(const Atoms& atoms, const ParticleBox& from, const ParticleBox& to);

}  // namespace cb::md
