// Lennard-Jones with cut Coulomb, LAMMPS pair_style lj/cut/coul/cut:
//   E(r) = E_LJ(r) [r < rc_LJ] + qqrd2e q_i q_j / r [r < rc_coul],
// qqrd2e = qqr2e / dielectric (units.hpp). The force is evaluated in LAMMPS's
// order (PairLJCutCoulCut::compute), so the sums match LAMMPS's bits:
//   fpair = (forcecoul + forcelj) / r^2,  forcecoul = (qqrd2e q_i) q_j / r.
// Pure functions: no MPI, no allocation, no I/O.
#pragma once

#include "kernels/md/lj.hpp"

namespace cb::kernels::md {

// The Coulomb part of a pair style: its cutoff and qqrd2e.
struct CoulCut {
  double cutsq = 0.0;   // rc_coul^2
  double qqrd2e = 0.0;  // qqr2e / dielectric
};

// -(dE/dr)/r of a pair at squared distance rsq < max(rc_LJ, rc_coul)^2, with
// qqrd2e_qi = qqrd2e q_i.
KOKKOS_INLINE_FUNCTION double lj_coul_cut_fpair(double rsq, const LjCoeff& c, const CoulCut& coul,
                                                double qqrd2e_qi, double qj) {
  const double r2inv = 1.0 / rsq;
  const double forcecoul = rsq < coul.cutsq ? qqrd2e_qi * qj * cb::math::sqrt(r2inv) : 0.0;
  double forcelj = 0.0;
  if (rsq < c.cutsq) {
    const double r6inv = r2inv * r2inv * r2inv;
    forcelj = r6inv * (c.lj1 * r6inv - c.lj2);
  }
  return (forcecoul + forcelj) * r2inv;
}

// The Coulomb energy of the pair (zero beyond rc_coul).
KOKKOS_INLINE_FUNCTION double coul_cut_energy(double rsq, const CoulCut& coul, double qqrd2e_qi,
                                              double qj) {
  return rsq < coul.cutsq ? qqrd2e_qi * qj * cb::math::sqrt(1.0 / rsq) : 0.0;
}

}  // namespace cb::kernels::md
