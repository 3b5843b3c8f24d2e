// Lennard-Jones with Coulomb, LAMMPS pair_style lj/cut/coul/cut and
// lj/cut/coul/long:
//   cut:  E(r) = E_LJ(r) [r < rc_LJ] + qqrd2e q_i q_j / r [r < rc_coul]
//   long: the Coulomb term times erfc(g r), the real-space part of an Ewald
//         sum (ewald.hpp has the rest), with LAMMPS's erfc: Abramowitz &
//         Stegun (1964) 7.1.26, t = 1 / (1 + p g r), erfc ~ t (a1 + t (a2 + ...))
//         exp(-g^2 r^2), absolute error below 1.5e-7 (as `pair_modify table 0`)
// qqrd2e = qqr2e / dielectric (units.hpp). Forces are evaluated in LAMMPS's
// order (PairLJCutCoulCut::compute, PairLJCutCoulLong::compute), so the sums
// match LAMMPS's bits: fpair = (forcecoul + forcelj) / r^2.
// Pure functions: no MPI, no allocation, no I/O.
#pragma once

#include "core/pow_positive.hpp"
#include "kernels/md/lj.hpp"

namespace cb::kernels::md {

// The Coulomb part of a pair style: its cutoff, qqrd2e and, for coul/long,
// the Ewald splitting parameter g.
struct CoulCut {
  double cutsq = 0.0;   // rc_coul^2
  double qqrd2e = 0.0;  // qqr2e / dielectric
  double g_ewald = 0.0;
};

// The LJ part of a pair's force times r (LAMMPS's forcelj), zero beyond rc_LJ.
// (Selects, not branches, in these pair functions: the pair loops vectorise.)
KOKKOS_INLINE_FUNCTION double lj_forcelj(double rsq, double r2inv, const LjCoeff& c) {
  const double r6inv = r2inv * r2inv * r2inv;
  const double forcelj = r6inv * (c.lj1 * r6inv - c.lj2);
  return rsq < c.cutsq ? forcelj : 0.0;
}

// erfc(g r) and exp(-(g r)^2) by Abramowitz & Stegun 7.1.26.
struct ScreenedCoulomb {
  double erfc = 0.0, expm2 = 0.0;
};

KOKKOS_INLINE_FUNCTION ScreenedCoulomb screened_coulomb(double grij) {
  constexpr double p = 0.3275911, a1 = 0.254829592, a2 = -0.284496736, a3 = 1.421413741,
                   a4 = -1.453152027, a5 = 1.061405429;
  ScreenedCoulomb s;
  s.expm2 = cb::math::exp_plain(-grij * grij);
  const double t = 1.0 / (1.0 + p * grij);
  s.erfc = t * (a1 + t * (a2 + t * (a3 + t * (a4 + t * a5)))) * s.expm2;
  return s;
}

// 2 / sqrt(pi) to the digits LAMMPS's pair styles use (EWALD_F).
constexpr double ewald_f = 1.12837917;

// LAMMPS special_bonds factors of a pair: 1 and 1 for an ordinary pair;
// atoms 1-2, 1-3 or 1-4 apart in a molecule get the factors of that level.
struct SpecialFactor {
  double lj = 1.0, coul = 1.0;
};

// The real-space Coulomb force times r (LAMMPS's forcecoul) and energy of a
// coul/long pair, from one erfc (zero beyond rc_coul). A special pair loses
// (1 - factor) of the full 1/r term, k-space having counted all of it
// (PairLJCutCoulLong::compute).
struct CoulLongTerms {
  double force = 0.0, energy = 0.0;
};

KOKKOS_INLINE_FUNCTION CoulLongTerms coul_long_terms(double rsq, const CoulCut& coul,
                                                     double qqrd2e_qi, double qj,
                                                     const SpecialFactor& s) {
  const double r = cb::math::sqrt(rsq);
  const double grij = coul.g_ewald * r;
  const ScreenedCoulomb sc = screened_coulomb(grij);
  // Beyond rc_coul the charge product is zero, and so are both terms (a product, not a
  // select of it: GCC would move the load of qj into a branch, and the loop not vectorise).
  const double qiqj = qqrd2e_qi * qj * (rsq < coul.cutsq ? 1.0 : 0.0);
  const double prefactor = qiqj / r;
  // LAMMPS subtracts only when s.coul < 1; subtracting 0 x prefactor changes no bit.
  const double removed = (1.0 - s.coul) * prefactor;
  CoulLongTerms t;
  t.force = prefactor * (sc.erfc + ewald_f * grij * sc.expm2) - removed;
  t.energy = prefactor * sc.erfc - removed;
  return t;
}

KOKKOS_INLINE_FUNCTION double coul_long_forcecoul(double rsq, const CoulCut& coul, double qqrd2e_qi,
                                                  double qj, const SpecialFactor& s) {
  return coul_long_terms(rsq, coul, qqrd2e_qi, qj, s).force;
}

// -(dE/dr)/r of a lj/cut/coul/long pair at rsq < max(rc_LJ, rc_coul)^2.
KOKKOS_INLINE_FUNCTION double lj_coul_long_fpair(double rsq, const LjCoeff& c, const CoulCut& coul,
                                                 double qqrd2e_qi, double qj,
                                                 const SpecialFactor& s = {}) {
  const double r2inv = 1.0 / rsq;
  const double forcecoul = coul_long_forcecoul(rsq, coul, qqrd2e_qi, qj, s);
  return (forcecoul + s.lj * lj_forcelj(rsq, r2inv, c)) * r2inv;
}

// The real-space Coulomb energy of a coul/long pair (zero beyond rc_coul).
KOKKOS_INLINE_FUNCTION double coul_long_energy(double rsq, const CoulCut& coul, double qqrd2e_qi,
                                               double qj, const SpecialFactor& s = {}) {
  return coul_long_terms(rsq, coul, qqrd2e_qi, qj, s).energy;
}

// -(dE/dr)/r of a pair at squared distance rsq < max(rc_LJ, rc_coul)^2, with
// qqrd2e_qi = qqrd2e q_i.
KOKKOS_INLINE_FUNCTION double lj_coul_cut_fpair(double rsq, const LjCoeff& c, const CoulCut& coul,
                                                double qqrd2e_qi, double qj,
                                                const SpecialFactor& s = {}) {
  const double r2inv = 1.0 / rsq;
  const double forcecoul = rsq < coul.cutsq ? qqrd2e_qi * qj * cb::math::sqrt(r2inv) : 0.0;
  return (s.coul * forcecoul + s.lj * lj_forcelj(rsq, r2inv, c)) * r2inv;
}

// The Coulomb energy of the pair (zero beyond rc_coul).
KOKKOS_INLINE_FUNCTION double coul_cut_energy(double rsq, const CoulCut& coul, double qqrd2e_qi,
                                              double qj, const SpecialFactor& s = {}) {
  return rsq < coul.cutsq ? s.coul * qqrd2e_qi * qj * cb::math::sqrt(1.0 / rsq) : 0.0;
}

}  // namespace cb::kernels::md
