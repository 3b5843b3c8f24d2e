// Isotropic barostats: the factor mu by which a step scales the box lengths
// (and the positions with them), and the remap of a coordinate into the
// scaled box. Pure functions of their arguments, host and device.
//  - Berendsen et al. (1984), J. Chem. Phys. 81:3684, eq. (23) as LAMMPS fix
//    press/berendsen: mu = (1 - dt / damp (P0 - P) / B)^(1/3), B the bulk
//    modulus (the compressibility beta_T = 1 / B).
//  - Stochastic cell rescaling (C-rescale; Bernetti & Bussi 2020, J. Chem.
//    Phys. 153:114107, eqs. (5) and (8)), isotropic, Euler-Maruyama (Ito) step
//    of the log-volume epsilon = ln V:
//      d epsilon = -(beta_T / tau_p) (P0 - P) dt
//                  + sqrt(2 k_B T beta_T dt / (V tau_p)) xi,   xi ~ N(0, 1),
//    mu = exp(d epsilon / 3); the velocities scale by 1 / mu. In the Ito form
//    the -k_B T / V drift of the paper's eq. (5) cancels the noise-induced
//    drift d(D)/d(epsilon) = -D of D = k_B T beta_T / (V tau_p), as in
//    GROMACS's implementation. nktv2p converts k_B T / V to pressure units.
#pragma once

#include <Kokkos_Core.hpp>

#include <cmath>

namespace cb::kernels::md {

inline double berendsen_dilation(double target, double current, double dt, double damp,
                                 double modulus) {
  return std::pow(1.0 - dt / damp * (target - current) / modulus, 1.0 / 3.0);
}

inline double c_rescale_dilation(double target, double current, double dt, double tau,
                                 double compressibility, double kt, double volume, double nktv2p,
                                 double gaussian) {
  const double drift = -compressibility / tau * (target - current) * dt;
  const double noise = std::sqrt(2.0 * kt * compressibility * dt * nktv2p / (volume * tau));
  return std::exp((drift + noise * gaussian) / 3.0);
}

// The bounds of an axis scaled by mu about its centre (LAMMPS fix
// press/berendsen's remap).
inline void dilate_about_centre(double lo, double hi, double mu, double& new_lo, double& new_hi) {
  const double centre = 0.5 * (lo + hi);
  new_lo = (lo - centre) * mu + centre;
  new_hi = (hi - centre) * mu + centre;
}

// A coordinate to the same fraction of the new box (LAMMPS Domain::x2lamda,
// set the new box, Domain::lamda2x): lambda = (x - lo) / L, x' = L' lambda + lo'.
KOKKOS_INLINE_FUNCTION double remap_coordinate(double x, double lo, double inv_length,
                                               double new_lo, double new_length) {
  const double lambda = inv_length * (x - lo);
  return new_length * lambda + new_lo;
}

}  // namespace cb::kernels::md
