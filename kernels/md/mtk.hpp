// The Martyna-Tobias-Klein (MTK) barostat with its own Nose-Hoover chain,
// isotropic, as LAMMPS fix npt ... iso applies it (FixNH: Martyna, Tobias &
// Klein 1994, J. Chem. Phys. 101:4177; the Trotter splitting of Martyna,
// Tuckerman, Tobias & Klein 1996, Mol. Phys. 87:1117; Shinoda, Shiga &
// Mikami 2004, Phys. Rev. B 69:134103). Host-side state and formulas; the
// solver applies the factors to the atoms and the box.
//
// Per axis d the box velocity omega_dot_d (1/time) with mass
// W = (N + 1) k_B T0 / p_freq^2, p_freq = 1/damp, moves as
//   d omega_dot_d / dt = ((P_d - P0) V / nktv2p + K_mtk) / W,
//   K_mtk = dof k_B T / (3 N)                       (mtk_term1)
// with P_d the scalar pressure on every axis (iso) or the tensor's P_dd
// (aniso, where K_mtk = sum_a m v_a^2 / (3 N), LAMMPS's mvv_current)
// the velocities by v *= exp(-dt/4 (omega_dot_d + mtk_term2)) twice per half
// step, mtk_term2 = sum_d omega_dot_d / (3 N), and the box about its centre
// by exp(dt/2 omega_dot_d) before and after the drift. The barostat's chain
// (masses Q = k_B T0 / p_freq^2, force on the first element
// (sum_d W omega_dot_d^2 - k_B T0) / Q) scales omega_dot as the particle
// chain scales the velocities (integrate.hpp's NoseHooverChain).
#pragma once

#include "kernels/md/integrate.hpp"

#include <cmath>

namespace cb::kernels::md {

constexpr int max_barostat_chain = 10;

struct MtkBarostat {
  int length = 3;                        // the barostat chain (LAMMPS pchain)
  double omega_dot[3] = {};              // box velocity per axis
  double etap[max_barostat_chain] = {};  // chain positions
  double etap_dot[max_barostat_chain + 1] = {};
  double mtk_term2 = 0.0;  // set by every omega_half_step
  // The kinetic energy the chain's first element drives the box towards, in
  // k_B T0: one box variable (iso) or one per axis (aniso; LAMMPS lkt_press).
  double box_dof = 1.0;

  // Half step of the barostat's chain (LAMMPS nhc_press_integrate, one
  // Suzuki-Yoshida weight, no drag); kt = k_B T0, w and q the masses above.
  void chain_half_step(double kt, double w, double q, double dt) {
    const double dt8 = 0.125 * dt, dt4 = 0.25 * dt, dthalf = 0.5 * dt;
    const auto force = [&](int k) { return (q * etap_dot[k - 1] * etap_dot[k - 1] - kt) / q; };
    for (int k = length - 1; k > 0; --k) chain_kick(k, force(k), dt4, dt8);
    const double lkt = box_dof * kt;
    const double expfac = chain_kick(0, (box_kinetic(w) - lkt) / q, dt4, dt8);
    for (int k = 0; k < length; ++k) etap[k] += dthalf * etap_dot[k];
    const double factor = std::exp(-dthalf * etap_dot[0]);
    for (double& o : omega_dot) o *= factor;
    etap_dot[0] *= expfac;
    etap_dot[0] += (box_kinetic(w) - lkt) / q * dt4;
    etap_dot[0] *= expfac;
    for (int k = 1; k < length; ++k) chain_kick(k, force(k), dt4, dt8);
  }

  // Half step of the box velocities (LAMMPS nh_omega_dot) from the pressure
  // along each axis (iso: the scalar P on all three; aniso: P_aa) and the
  // target P0, the volume, kinetic (iso: dof k_B T; aniso: sum_a m v_a^2 in
  // energy units), the atom count.
  void omega_half_step(const double (&pressure)[3], double target, double volume, double kinetic,
                       double w, double natoms, double nktv2p, double dt) {
    const double term1 = kinetic / (3.0 * natoms);
    for (int d = 0; d < 3; ++d) {
      const double f_omega = (pressure[d] - target) * volume / (w * nktv2p) + term1 / w;
      omega_dot[d] += f_omega * (0.5 * dt);
    }
    mtk_term2 = (omega_dot[0] + omega_dot[1] + omega_dot[2]) / (3.0 * natoms);
  }

  // The factor applied twice to velocity component d each half step.
  double velocity_factor(int d, double dt) const {
    return std::exp(-(0.25 * dt) * (omega_dot[d] + mtk_term2));
  }
  // The factor of the box lengths along d in each of the two half remaps.
  double box_factor(int d, double dt) const { return std::exp((0.5 * dt) * omega_dot[d]); }

  // The barostat's share of LAMMPS's conserved energy (fix npt's f_ID less
  // the thermostat's chain): box kinetic energy, P0 (V - V0), and the chain.
  double energy(double kt, double w, double q, double target, double volume, double volume0,
                double nktv2p) const {
    double e = 0.0;
    for (const double o : omega_dot)
      e += 0.5 * o * o * w + target * (volume - volume0) / (3.0 * nktv2p);
    e += box_dof * kt * etap[0] + 0.5 * q * etap_dot[0] * etap_dot[0];
    for (int k = 1; k < length; ++k) e += kt * etap[k] + 0.5 * q * etap_dot[k] * etap_dot[k];
    return e;
  }

 private:
  double box_kinetic(double w) const {
    double ke = 0.0;
    for (const double o : omega_dot) ke += w * o * o;
    return ke;
  }
  double chain_kick(int k, double force, double dt4, double dt8) {
    return md::chain_kick(etap_dot[k], etap_dot[k + 1], force, dt4, dt8);
  }
};

}  // namespace cb::kernels::md
