// Lennard-Jones 12-6 pair interaction in reduced units, with the options of
// LAMMPS's pair_style lj/cut: per type-pair epsilon, sigma and cutoff, mixing,
// energy shift at the cutoff and long-range tail corrections.
//   E(r) = 4 eps [(sigma/r)^12 - (sigma/r)^6] - E_shift,   r < rc
// Pure functions: no MPI, no allocation, no I/O.
#pragma once

#include "core/kokkos_compat.hpp"

#include <Kokkos_Core.hpp>

namespace cb::kernels::md {

// Coefficients of one type pair, precomputed so that the force loop needs one
// division: lj1 = 48 eps s^12, lj2 = 24 eps s^6, lj3 = 4 eps s^12,
// lj4 = 4 eps s^6 (the factors of LAMMPS's pair_lj_cut).
struct LjCoeff {
  double lj1 = 0.0, lj2 = 0.0, lj3 = 0.0, lj4 = 0.0;
  double cutsq = 0.0;   // cutoff squared
  double offset = 0.0;  // energy at the cutoff when shifted, else 0
};

KOKKOS_INLINE_FUNCTION LjCoeff make_lj_coeff(double epsilon, double sigma, double cutoff,
                                             bool shift) {
  LjCoeff c;
  const double s6 = sigma * sigma * sigma * sigma * sigma * sigma;
  const double s12 = s6 * s6;
  c.lj1 = 48.0 * epsilon * s12;
  c.lj2 = 24.0 * epsilon * s6;
  c.lj3 = 4.0 * epsilon * s12;
  c.lj4 = 4.0 * epsilon * s6;
  c.cutsq = cutoff * cutoff;
  if (shift && cutoff > 0.0) {
    const double ratio6 = s6 / (cutoff * cutoff * cutoff * cutoff * cutoff * cutoff);
    c.offset = 4.0 * epsilon * (ratio6 * ratio6 - ratio6);
  }
  return c;
}

// -(dE/dr)/r at squared distance rsq: the force on atom i is fpair * (x_i - x_j).
KOKKOS_INLINE_FUNCTION double lj_fpair(double rsq, const LjCoeff& c) {
  const double r2inv = 1.0 / rsq;
  const double r6inv = r2inv * r2inv * r2inv;
  return r6inv * (c.lj1 * r6inv - c.lj2) * r2inv;
}

// Pair energy at squared distance rsq (shifted when the coefficient says so).
KOKKOS_INLINE_FUNCTION double lj_energy(double rsq, const LjCoeff& c) {
  const double r2inv = 1.0 / rsq;
  const double r6inv = r2inv * r2inv * r2inv;
  return r6inv * (c.lj3 * r6inv - c.lj4) - c.offset;
}

enum class Mixing : int { geometric, arithmetic };

// Mixed epsilon, sigma, cutoff of types i and j (LAMMPS pair_modify mix):
// geometric: all three sqrt(a_i a_j); arithmetic (Lorentz-Berthelot): epsilon
// sqrt(eps_i eps_j), sigma and cutoff (a_i + a_j) / 2.
struct LjParams {
  double epsilon = 1.0, sigma = 1.0, cutoff = 2.5;
};

inline LjParams mix(const LjParams& a, const LjParams& b, Mixing rule) {
  LjParams m;
  m.epsilon = cb::math::sqrt(a.epsilon * b.epsilon);
  if (rule == Mixing::geometric) {
    m.sigma = cb::math::sqrt(a.sigma * b.sigma);
    m.cutoff = cb::math::sqrt(a.cutoff * b.cutoff);
  } else {
    m.sigma = 0.5 * (a.sigma + b.sigma);
    m.cutoff = 0.5 * (a.cutoff + b.cutoff);
  }
  return m;
}

// Long-range tail corrections for a pair of types with counts n_i, n_j,
// assuming g(r) = 1 beyond rc (Allen & Tildesley 2017, eqs. 2.143-2.144; the
// form of LAMMPS pair_modify tail yes). Energy: E_tail = etail / V; pressure:
// P_tail = ptail / V^2. For i != j both orders are summed by the caller.
struct TailTerms {
  double etail = 0.0, ptail = 0.0;
};

inline TailTerms lj_tail(double n_i, double n_j, const LjParams& p) {
  const double sig2 = p.sigma * p.sigma;
  const double sig6 = sig2 * sig2 * sig2;
  const double rc3 = p.cutoff * p.cutoff * p.cutoff;
  const double rc6 = rc3 * rc3;
  const double rc9 = rc3 * rc6;
  const double prefactor = 8.0 * cb::math::pi * n_i * n_j * p.epsilon * sig6 / (9.0 * rc9);
  return {prefactor * (sig6 - 3.0 * rc6), 2.0 * prefactor * (2.0 * sig6 - 3.0 * rc6)};
}

}  // namespace cb::kernels::md
