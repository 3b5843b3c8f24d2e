// Time integration of Newton's equations (unit conversions: units.hpp), and thermostats.
// Velocity Verlet (Swope et al. 1982) split as LAMMPS fix nve does:
//   initial: v += (dt/2m) f;  x += dt v      final: v += (dt/2m) f
// Thermostats:
//   Langevin (Schneider & Stoll 1978; LAMMPS fix langevin's force):
//     f += -(m/damp) v + sqrt(24 kT m / (dt damp)) (u - 1/2),  u uniform [0,1)
//     (a uniform variate with the variance of the Gaussian one)
//     applied as the impulse v += (dt/m) f after the forces, f from the
//     half-step velocity (the solver's langevin_kick)
//   Berendsen et al. (1984): v *= sqrt(1 + (dt/tau)(T0/T - 1))
//   Nose-Hoover chains (Martyna, Klein & Tuckerman 1992; the half-step
//   Trotter update of Martyna, Tuckerman, Tobias & Klein 1996) as LAMMPS fix
//   nvt applies them at both ends of a velocity-Verlet step
//   Stochastic velocity rescaling (Bussi, Donadio & Parrinello 2007, eq. A7),
//   the kinetic energy drawn after one step of its stochastic equation
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

// Nose-Hoover chain of `length` thermostats (LAMMPS fix nvt tchain; nc_tchain
// = 1, no drag): positions eta[k], velocities eta_dot[k] (eta_dot[length] = 0)
// and masses Q_0 = dof T0 damp^2, Q_k = T0 damp^2 (k > 0), in temperature
// units (k_B times both sides of each equation of motion cancels).
// half_step() advances the chain by dt/2 given the current temperature and
// returns the factor to scale velocities by: the chain's far end inwards with
// forces G_k = (Q_{k-1} eta_dot_{k-1}^2 - T0) / Q_k and G_0 = dof (T - T0) / Q_0,
// each velocity update between two factors exp(-dt/8 eta_dot_{k+1}); the
// particle scaling exp(-dt/2 eta_dot_0); the positions; then outwards
// (Martyna et al. 1996, eqs. 29-32 with one Suzuki-Yoshida weight; the
// sequence of LAMMPS FixNH::nhc_temp_integrate). Length 1 is the Nose-Hoover
// thermostat of the single variable, unchanged in every bit.
constexpr int max_chain = 10;

// One chain element's kick: v_k <- (v_k e + G dt/4) e with e = exp(-dt/8
// v_{k+1}); returns e (the thermostat's chain here, the barostat's in mtk.hpp).
inline double chain_kick(double& velocity, double next_velocity, double force, double dt4,
                         double dt8) {
  const double expfac = std::exp(-dt8 * next_velocity);
  velocity *= expfac;
  velocity += force * dt4;
  velocity *= expfac;
  return expfac;
}

struct NoseHooverChain {
  int length = 3;
  double eta[max_chain] = {};
  double eta_dot[max_chain + 1] = {};

  double half_step(double t_current, double t_target, double dof, double damp, double dt) {
    const double q0 = dof * t_target * damp * damp, q = t_target * damp * damp;
    const double ke_target = dof * t_target;
    double ke = dof * t_current;
    const double dt8 = 0.125 * dt, dt4 = 0.25 * dt, dthalf = 0.5 * dt;
    const auto mass = [&](int k) { return k == 0 ? q0 : q; };
    const auto force = [&](int k) {
      return (mass(k - 1) * eta_dot[k - 1] * eta_dot[k - 1] - t_target) / q;
    };
    for (int k = length - 1; k > 0; --k) thermostat_kick(k, force(k), dt4, dt8);
    const double expfac = thermostat_kick(0, (ke - ke_target) / q0, dt4, dt8);
    const double factor = std::exp(-dthalf * eta_dot[0]);
    ke *= factor * factor;
    for (int k = 0; k < length; ++k) eta[k] += dthalf * eta_dot[k];
    eta_dot[0] *= expfac;
    eta_dot[0] += (ke - ke_target) / q0 * dt4;
    eta_dot[0] *= expfac;
    for (int k = 1; k < length; ++k) thermostat_kick(k, force(k), dt4, dt8);
    return factor;
  }

  // The chain's energy (Martyna et al. 1996, eq. 2): dof T0 eta_0 +
  // sum_{k>0} T0 eta_k + sum_k Q_k eta_dot_k^2 / 2, in temperature units
  // (times k_B: LAMMPS's fix nvt energy, f_ID or ecouple).
  double energy(double t_target, double dof, double damp) const {
    const double q = t_target * damp * damp;
    double e = dof * t_target * eta[0] + 0.5 * dof * q * eta_dot[0] * eta_dot[0];
    for (int k = 1; k < length; ++k) e += t_target * eta[k] + 0.5 * q * eta_dot[k] * eta_dot[k];
    return e;
  }

 private:
  double thermostat_kick(int k, double force, double dt4, double dt8) {
    return chain_kick(eta_dot[k], eta_dot[k + 1], force, dt4, dt8);
  }
};

// Stochastic velocity rescaling (Bussi, Donadio & Parrinello 2007, eq. A7):
// the kinetic energy K after a step dt of relaxation time tau towards the
// target K0 = dof k_B T0 / 2,
//   K' = c K + (1 - c) K0 (r1^2 + chi2) / dof + 2 r1 sqrt(c (1 - c) K K0 / dof),
// c = exp(-dt/tau), r1 a standard Gaussian and chi2 a sum of dof - 1 squared
// standard Gaussians. Returns the velocity scale factor sqrt(K'/K); only the
// ratio K0/K enters, so K and K0 may be given as temperatures (the solver does).
inline double csvr_scale(double ke, double ke_target, double dof, double dt, double tau, double r1,
                         double chi2) {
  if (!(ke > 0.0)) return 1.0;
  const double c1 = std::exp(-dt / tau);
  const double c2 = (1.0 - c1) * ke_target / ke / dof;
  return std::sqrt(c1 + c2 * (r1 * r1 + chi2) + 2.0 * r1 * std::sqrt(c1 * c2));
}

}  // namespace cb::kernels::md
