// CHARMM's switched Lennard-Jones with long-range Coulomb, LAMMPS pair_style
// lj/charmm/coul/long: between the inner and outer LJ cutoffs r_i < r < r_c
// the LJ energy is multiplied by the switch (Brooks et al. 1983, J. Comput.
// Chem. 4:187, eq. 13)
//   S(r) = (r_c^2 - r^2)^2 (r_c^2 + 2 r^2 - 3 r_i^2) / (r_c^2 - r_i^2)^3,
// and the force gets E_LJ dS/dr. The Coulomb part is coul/long's
// (coulomb.hpp). The 1-4 pairs of charmm dihedrals use the same 12-6 form with
// their own epsilon_14 and sigma_14, unswitched and with the bare Coulomb
// (LAMMPS DihedralCharmm). Evaluated in LAMMPS's order
// (PairLJCharmmCoulLong::compute). Pure functions.
#pragma once

#include "kernels/md/coulomb.hpp"

namespace cb::kernels::md {

struct CharmmSwitch {
  double inner_sq = 0.0, outer_sq = 0.0;  // r_i^2, r_c^2
  double denom = 1.0;                     // (r_c^2 - r_i^2)^3
};

inline CharmmSwitch make_charmm_switch(double inner, double outer) {
  CharmmSwitch s;
  s.inner_sq = inner * inner;
  s.outer_sq = outer * outer;
  const double gap = s.outer_sq - s.inner_sq;
  s.denom = gap * gap * gap;
  return s;
}

// The switched LJ force times r (LAMMPS's forcelj), zero beyond r_c.
KOKKOS_INLINE_FUNCTION double charmm_forcelj(double rsq, double r2inv, const LjCoeff& c,
                                             const CharmmSwitch& sw) {
  const double r6inv = r2inv * r2inv * r2inv;
  const double forcelj = r6inv * (c.lj1 * r6inv - c.lj2);
  const double to_outer = sw.outer_sq - rsq;
  const double switch1 =
      to_outer * to_outer * (sw.outer_sq + 2.0 * rsq - 3.0 * sw.inner_sq) / sw.denom;
  const double switch2 = 12.0 * rsq * to_outer * (rsq - sw.inner_sq) / sw.denom;
  const double philj = r6inv * (c.lj3 * r6inv - c.lj4);
  const double switched = rsq > sw.inner_sq ? forcelj * switch1 + philj * switch2 : forcelj;
  return rsq < sw.outer_sq ? switched : 0.0;
}

// The switched LJ energy (zero beyond r_c).
KOKKOS_INLINE_FUNCTION double charmm_lj_energy(double rsq, const LjCoeff& c,
                                               const CharmmSwitch& sw) {
  const double r2inv = 1.0 / rsq;
  const double r6inv = r2inv * r2inv * r2inv;
  const double e = r6inv * (c.lj3 * r6inv - c.lj4);
  const double to_outer = sw.outer_sq - rsq;
  const double switch1 =
      to_outer * to_outer * (sw.outer_sq + 2.0 * rsq - 3.0 * sw.inner_sq) / sw.denom;
  const double switched = rsq > sw.inner_sq ? e * switch1 : e;
  return rsq < sw.outer_sq ? switched : 0.0;
}

// -(dE/dr)/r of a lj/charmm/coul/long pair (special factors as coul/long's).
KOKKOS_INLINE_FUNCTION double lj_charmm_coul_long_fpair(double rsq, const LjCoeff& c,
                                                        const CoulCut& coul, const CharmmSwitch& sw,
                                                        double qqrd2e_qi, double qj,
                                                        const SpecialFactor& s) {
  const double r2inv = 1.0 / rsq;
  const double forcecoul = coul_long_forcecoul(rsq, coul, qqrd2e_qi, qj, s);
  return (forcecoul + s.lj * charmm_forcelj(rsq, r2inv, c, sw)) * r2inv;
}

// A 1-4 pair of a charmm dihedral with weight w: fpair and the LJ and Coulomb
// energies, all times w (LAMMPS DihedralCharmm, explicit solvent).
struct Pair14 {
  double fpair = 0.0, evdwl = 0.0, ecoul = 0.0;
};

KOKKOS_INLINE_FUNCTION Pair14 charmm_pair14(double rsq, const LjCoeff& c14, double qqrd2e_qi,
                                            double qj, double weight) {
  const double r2inv = 1.0 / rsq;
  const double r6inv = r2inv * r2inv * r2inv;
  const double forcecoul = qqrd2e_qi * qj * cb::math::sqrt(r2inv);
  const double forcelj = r6inv * (c14.lj1 * r6inv - c14.lj2);
  Pair14 p;
  p.fpair = weight * (forcelj + forcecoul) * r2inv;
  p.ecoul = weight * forcecoul;
  p.evdwl = weight * (r6inv * (c14.lj3 * r6inv - c14.lj4));
  return p;
}

}  // namespace cb::kernels::md
