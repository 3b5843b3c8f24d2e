// Ewald summation of the Coulomb energy of point charges in an orthogonal
// periodic box, tin-foil boundary (Ewald 1921; Allen & Tildesley 2017,
// sec. 6.2; the terms as the NIST SPC/E reference calculations split them).
// With splitting parameter alpha and Coulomb constant qqr2e (units.hpp):
//   E_real    = qqr2e sum_{i<j, r < rc} q_i q_j erfc(alpha r) / r
//   E_Fourier = qqr2e (2 pi / V) sum_{k != 0} exp(-k^2 / (4 alpha^2)) / k^2 |S(k)|^2,
//               S(k) = sum_j q_j exp(i k.r_j),  k = 2 pi (nx / Lx, ny / Ly, nz / Lz)
//   E_self    = -qqr2e (alpha / sqrt(pi)) sum_i q_i^2
//   E_intra   = -qqr2e sum_{excluded i<j} q_i q_j erf(alpha r) / r
// (excluded pairs, e.g. within a rigid molecule, have no real-space term; the
// Fourier sum counts them, E_intra takes them out again). Pure functions: no
// MPI, no allocation, no I/O.
#pragma once

#include "core/kokkos_compat.hpp"

#include <Kokkos_Core.hpp>

#include <algorithm>
#include <cmath>

namespace cb::kernels::md {

// 2 / sqrt(pi)
constexpr double two_over_sqrt_pi = 1.12837916709551257389615890312154517;

// Real-space energy of one pair at distance r (without qqr2e).
KOKKOS_INLINE_FUNCTION double ewald_real_energy(double qiqj, double r, double alpha) {
  return qiqj * cb::math::erfc(alpha * r) / r;
}

// -(dE_real/dr)/r of one pair (without qqr2e): the force on i is this times
// (x_i - x_j).
KOKKOS_INLINE_FUNCTION double ewald_real_fpair(double qiqj, double r, double alpha) {
  const double ar = alpha * r;
  const double r2 = r * r;
  return qiqj * (cb::math::erfc(ar) / r + two_over_sqrt_pi * alpha * cb::math::exp(-ar * ar)) / r2;
}

// The energy an excluded pair contributes to the Fourier sum and the self
// term together, which E_intra removes (without qqr2e): q_i q_j erf(alpha r) / r.
KOKKOS_INLINE_FUNCTION double ewald_excluded_energy(double qiqj, double r, double alpha) {
  return qiqj * (1.0 - cb::math::erfc(alpha * r)) / r;
}

// Self energy per unit q^2 (without qqr2e): -alpha / sqrt(pi).
KOKKOS_INLINE_FUNCTION double ewald_self_per_q2(double alpha) {
  return -0.5 * two_over_sqrt_pi * alpha;
}

// Energy of the uniform background that neutralises a net charge qsum
// (without qqr2e): -pi qsum^2 / (2 alpha^2 V), 0 for a neutral system.
KOKKOS_INLINE_FUNCTION double ewald_background(double qsum, double alpha, double volume) {
  return -(0.5 * cb::math::pi) * qsum * qsum / (alpha * alpha * volume);
}

// Weight of the Fourier term of wave vector k (k2 = |k|^2 > 0) in a box of
// volume V: (2 pi / V) exp(-k^2 / (4 alpha^2)) / k^2.
KOKKOS_INLINE_FUNCTION double ewald_kspace_weight(double k2, double alpha, double volume) {
  return 2.0 * cb::math::pi / volume * cb::math::exp(-k2 / (4.0 * alpha * alpha)) / k2;
}

// Ewald parameters from a relative force accuracy, as LAMMPS's Ewald::init
// and Ewald::setup choose them (the rms force error estimates of Kolafa &
// Perram 1992): g from the real-space error at the cutoff, then per axis the
// smallest k_max whose Fourier error is below the accuracy; the k vectors
// kept have |k|^2 <= max_axis (2 pi k_max / L)^2 (1 + 1e-5).
struct EwaldParameters {
  double g_ewald = 0.0;
  int kmax[3] = {0, 0, 0};
  double gsqmx = 0.0;
};

// Fourier-space rms force error with k_max = km along an axis of length prd.
inline double ewald_rms(int km, double prd, double natoms, double q2, double g) {
  return 2.0 * q2 * g / prd * std::sqrt(1.0 / (cb::math::pi * km * natoms)) *
         std::exp(-cb::math::pi * cb::math::pi * km * km / (g * g * prd * prd));
}

// k_max per axis and gsqmx for a given g (LAMMPS Ewald::setup, called
// initially and whenever the box changes size): per axis the smallest k_max
// whose Fourier error is below `accuracy` (force units) in the k-space box
// `prd_slab`; gsqmx = max_axis (2 pi k_max / L)^2 (1 + 1e-5).
inline void ewald_kmax(double accuracy, double natoms, const double prd_slab[3], double q2,
                       EwaldParameters& p) {
  p.gsqmx = 0.0;
  for (int d = 0; d < 3; ++d) {
    int k = 1;
    while (ewald_rms(k, prd_slab[d], natoms, q2, p.g_ewald) > accuracy) ++k;
    p.kmax[d] = k;
    const double unitk = 2.0 * cb::math::pi / prd_slab[d];
    const double gsq = unitk * unitk * k * k;
    p.gsqmx = std::max(p.gsqmx, gsq);
  }
  p.gsqmx *= 1.00001;
}

// `two_charge_force` is the force between two unit charges one distance unit
// apart (qqr2e); q2 = qqrd2e sum_i q_i^2. With a slab volume factor s (LAMMPS
// kspace_modify slab) g comes from the box itself and k_max along z from the
// length Lz s of the extended box (LAMMPS Ewald::init).
inline EwaldParameters ewald_parameters(double accuracy_relative, double two_charge_force,
                                        double natoms, double cutoff, const double prd[3],
                                        double q2, double slab_volfactor = 1.0) {
  EwaldParameters p;
  const double accuracy = accuracy_relative * two_charge_force;
  double g = accuracy * std::sqrt(natoms * cutoff * prd[0] * prd[1] * prd[2]) / (2.0 * q2);
  g = g >= 1.0 ? (1.35 - 0.15 * std::log(accuracy)) / cutoff : std::sqrt(-std::log(g)) / cutoff;
  p.g_ewald = g;
  const double prd_slab[3] = {prd[0], prd[1], prd[2] * slab_volfactor};
  ewald_kmax(accuracy, natoms, prd_slab, q2, p);
  return p;
}

// The slab correction of a system periodic in x and y and isolated along z,
// summed in a box extended along z to Lz s (Yeh & Berkowitz 1999, J. Chem.
// Phys. 111:3155; the terms of a non-neutral system from Ballenegger, Arnold
// & Cerda 2009, J. Chem. Phys. 131:094107, as LAMMPS's slabcorr), without
// qqrd2e: with M = sum_i q_i z_i, M2 = sum_i q_i z_i^2, Q = sum_i q_i and V =
// Lx Ly Lz s the extended volume,
//   E     = (2 pi / V) (M^2 - Q M2 - Q^2 Lz^2 / 12)
//   F_z,i = -(4 pi / V) q_i (M - Q z_i)
// LAMMPS sums M2 only for |Q| > 1e-5 (SMALL): below, it counts as 0.
constexpr double slab_charged = 1.0e-5;

inline double slab_energy(double dipole, double dipole_r2, double qsum, double zprd,
                          double volume) {
  return 2.0 * cb::math::pi *
         (dipole * dipole - qsum * dipole_r2 - qsum * qsum * zprd * zprd / 12.0) / volume;
}

// -4 pi / V: the factor of q_i (M - Q z_i) in F_z,i.
KOKKOS_INLINE_FUNCTION double slab_force_factor(double volume) {
  return -4.0 * cb::math::pi / volume;
}

}  // namespace cb::kernels::md
