// Time integration of Newton's equations (unit conversions: units.hpp), and thermostats.
// Velocity Verlet (Swope et al. 1982) split as LAMMPS fix nve does:
//   initial: v += (dt/2m) f;  x += dt v      final: v += (dt/2m) f
// Thermostats:
//   Langevin (Schneider & Stoll 1978; LAMMPS fix langevin's force):
//     f += -(m/damp) v + sqrt(24 kT m / (dt damp)) (u - 1/2),  u uniform [0,1)
//     (a uniform variate with the variance of the Gaussian one)
//     applied as the impulse v += (dt/m) f at the start of each step, f from
//     the start-of-step velocity (Euler-Maruyama; the solver's langevin_kick)
//   Berendsen et al. (1984): v *= sqrt(1 + (dt/tau)(T0/T - 1))
//   Nose-Hoover (chain of length 1), the half-step update of the thermostat
//   velocity of Martyna, Tuckerman, Tobias & Klein (1996) as LAMMPS fix nvt
//   applies it at both ends of a velocity-Verlet step.
#pragma once

#include "core/kokkos_compat.hpp"
#include "kernels/md/units.hpp"

#include <Kokkos_Core.hpp>

#include <cmath>

namespace cb::kernels::md {

// Half kick followed by the drift of one coordinate (LAMMPS fix nve order).
KOKKOS_INLINE_FUNCTION void kick_drift(double& x, double& v, double f, double dtf_over_m,
                                       double dt) {
  v += dtf_over_m * f;
  x += dt * v;
}

KOKKOS_INLINE_FUNCTION void kick(double& v, double f, double dtf_over_m) {
  v += dtf_over_m * f;
}

// Langevin friction + random force on one component, in force units
// (LAMMPS FixLangevin::init: gfactor1 and gfactor2 with the unit conversions
// of units.hpp; all of them 1 in lj units).
struct LangevinCoeff {
  double gamma1 = 0.0;  // -m / (damp ftm2v)
  double gamma2 = 0.0;  // sqrt(24 k_B T m / (dt damp mvv2e)) / ftm2v
};

KOKKOS_INLINE_FUNCTION LangevinCoeff langevin_coeff(double mass, double temperature, double damp,
                                                    double dt, const Units& u) {
  LangevinCoeff c;
  c.gamma1 = -mass / damp / u.ftm2v;
  c.gamma2 = cb::math::sqrt(mass) * cb::math::sqrt(24.0 * u.boltz / damp / dt / u.mvv2e) / u.ftm2v *
             cb::math::sqrt(temperature);
  return c;
}

KOKKOS_INLINE_FUNCTION double langevin_force(double v, double uniform, const LangevinCoeff& c) {
  return c.gamma1 * v + c.gamma2 * (uniform - 0.5);
}

// Berendsen velocity scale factor.
inline double berendsen_scale(double t_current, double t_target, double dt, double tau) {
  if (!(t_current > 0.0)) return 1.0;
  return std::sqrt(1.0 + dt / tau * (t_target / t_current - 1.0));
}

// Nose-Hoover thermostat of one variable: position eta, velocity eta_dot and
// mass Q = dof k T0 tau^2. half_step() advances it by dt/2 given the current
// kinetic energy 2 KE = dof k T and returns the factor to scale velocities by.
struct NoseHoover {
  double eta = 0.0, eta_dot = 0.0;

  double half_step(double t_current, double t_target, double dof, double damp, double dt) {
    const double q = dof * t_target * damp * damp;
    const double ke_target = dof * t_target;
    double ke = dof * t_current;
    const double dt4 = 0.25 * dt, dthalf = 0.5 * dt;
    eta_dot += (ke - ke_target) / q * dt4;
    const double factor = std::exp(-dthalf * eta_dot);
    ke *= factor * factor;
    eta += dthalf * eta_dot;
    eta_dot += (ke - ke_target) / q * dt4;
    return factor;
  }
};

}  // namespace cb::kernels::md
