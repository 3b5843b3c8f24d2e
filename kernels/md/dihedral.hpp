// Four-body bonded terms with LAMMPS's conventions (MOLECULE package, docs
// dihedral_charmm, dihedral_harmonic, dihedral_opls, improper_harmonic):
//   dihedral charmm:   E = K [1 + cos(n phi - d)]
//   dihedral harmonic: E = K [1 + d cos(n phi)],  d = +1 or -1
//   dihedral opls:     E = 1/2 K1 [1 + cos phi] + 1/2 K2 [1 - cos 2 phi]
//                        + 1/2 K3 [1 + cos 3 phi] + 1/2 K4 [1 - cos 4 phi]
//   improper harmonic: E = K (chi - chi0)^2,  chi = |phi| in [0, pi]
// phi is the IUPAC dihedral of atoms 1-2-3-4 (trans = 180 deg): the angle
// between the planes (1,2,3) and (2,3,4), positive when, looking along 2->3,
// atom 4 is turned clockwise from atom 1. Angles in radians.
// Forces are written (not added) for the four atoms; the energy is returned.
// Pure functions: no MPI, no allocation, no I/O.
#pragma once

#include "core/kokkos_compat.hpp"
#include "kernels/md/vec3.hpp"

#include <Kokkos_Core.hpp>

namespace cb::kernels::md {

namespace detail {

// cos phi, sin phi and the gradients d phi / d x_i of a dihedral, by Blondel &
// Karplus, J. Comput. Chem. 17, 1132 (1996), eqs. 27-28: with F = x1 - x2,
// G = x2 - x3, H = x4 - x3, A = F x G, B = H x G,
//   d phi/d x1 = -|G| A / A^2,   d phi/d x4 = |G| B / B^2,
//   d phi/d x2 = -d phi/d x1 + (F.G / (A^2 |G|)) A - (H.G / (B^2 |G|)) B,
//   d phi/d x3 = -d phi/d x4 - (F.G / (A^2 |G|)) A + (H.G / (B^2 |G|)) B.
// When a plane is undefined (A or B zero: three atoms on a line) its inverse
// is taken as 0, so c = s = 0 and the gradients vanish, as in LAMMPS.
// c is clipped to [-1, 1]; s is not normalised (c^2 + s^2 = 1 up to round-off).
struct DihedralGeometry {
  double c = 0.0, s = 0.0;
  double grad[4][3] = {};
};

KOKKOS_INLINE_FUNCTION DihedralGeometry dihedral_geometry(const double x[4][3]) {
  double F[3], G[3], H[3], A[3], B[3];
  for (int d = 0; d < 3; ++d) {
    F[d] = x[0][d] - x[1][d];
    G[d] = x[1][d] - x[2][d];
    H[d] = x[3][d] - x[2][d];
  }
  cross(F, G, A);
  cross(H, G, B);
  const double a2 = dot(A, A), b2 = dot(B, B), g = cb::math::sqrt(dot(G, G));
  const double a2inv = a2 > 0.0 ? 1.0 / a2 : 0.0;
  const double b2inv = b2 > 0.0 ? 1.0 / b2 : 0.0;
  const double ginv = g > 0.0 ? 1.0 / g : 0.0;
  const double abinv = cb::math::sqrt(a2inv * b2inv);

  DihedralGeometry geo;
  geo.c = cb::math::clamp(dot(A, B) * abinv, -1.0, 1.0);
  geo.s = g * abinv * dot(A, H);
  const double fa = dot(F, G) * a2inv * ginv, hb = dot(H, G) * b2inv * ginv;
  for (int d = 0; d < 3; ++d) {
    geo.grad[0][d] = -g * a2inv * A[d];
    geo.grad[3][d] = g * b2inv * B[d];
    const double middle = fa * A[d] - hb * B[d];
    geo.grad[1][d] = -geo.grad[0][d] + middle;
    geo.grad[2][d] = -geo.grad[3][d] - middle;
  }
  return geo;
}

// f_i = -dE/dphi * d phi / d x_i.
KOKKOS_INLINE_FUNCTION void dihedral_forces(const DihedralGeometry& geo, double de_dphi,
                                            double f[4][3]) {
  for (int i = 0; i < 4; ++i)
    for (int d = 0; d < 3; ++d) f[i][d] = -de_dphi * geo.grad[i][d];
}

// cos(n phi) and sin(n phi) from c = cos phi, s = sin phi by repeated
// rotation, (c + i s)^n; n >= 0.
struct CosSin {
  double c = 1.0, s = 0.0;
};

KOKKOS_INLINE_FUNCTION CosSin multiple_angle(double c, double s, int n) {
  CosSin r;
  for (int k = 0; k < n; ++k) {
    const double c_next = r.c * c - r.s * s;
    r.s = r.s * c + r.c * s;
    r.c = c_next;
  }
  return r;
}

}  // namespace detail

// E = K [1 + cos(n phi - d)] with cos d, sin d precomputed: dihedral_style
// charmm (d from the data file's integer degrees) and harmonic (cos d = sign,
// sin d = 0). weight is charmm's 1-4 pair weight, not used here.
struct DihedralCharmmCoeff {
  double k = 0.0;
  int n = 0;
  double cos_shift = 1.0, sin_shift = 0.0;
  double weight = 0.0;
};

// dihedral_style harmonic: E = K [1 + sign cos(n phi)].
struct DihedralHarmonicCoeff {
  double k = 0.0;
  int sign = 1;
  int n = 0;
};

// dihedral_style opls: the data file's K1..K4 (energy has 1/2 K_i).
struct DihedralOplsCoeff {
  double k[4] = {0.0, 0.0, 0.0, 0.0};
};

// improper_style harmonic: chi0 in radians.
struct ImproperHarmonicCoeff {
  double k = 0.0, chi0 = 0.0;
};

// E = K [1 + cos(n phi - d)];  dE/dphi = -K n sin(n phi - d).
KOKKOS_INLINE_FUNCTION double dihedral_charmm(const DihedralCharmmCoeff& c, const double x[4][3],
                                              double f[4][3]) {
  const detail::DihedralGeometry geo = detail::dihedral_geometry(x);
  const detail::CosSin m = detail::multiple_angle(geo.c, geo.s, c.n);
  const double cos_term = m.c * c.cos_shift + m.s * c.sin_shift;  // cos(n phi - d)
  const double sin_term = m.s * c.cos_shift - m.c * c.sin_shift;  // sin(n phi - d)
  detail::dihedral_forces(geo, -c.k * c.n * sin_term, f);
  return c.k * (1.0 + cos_term);
}

KOKKOS_INLINE_FUNCTION double dihedral_harmonic(const DihedralHarmonicCoeff& c,
                                                const double x[4][3], double f[4][3]) {
  DihedralCharmmCoeff periodic;
  periodic.k = c.k;
  periodic.n = c.n;
  periodic.cos_shift = c.sign;
  periodic.sin_shift = 0.0;
  return dihedral_charmm(periodic, x, f);
}

KOKKOS_INLINE_FUNCTION double dihedral_opls(const DihedralOplsCoeff& c, const double x[4][3],
                                            double f[4][3]) {
  const detail::DihedralGeometry geo = detail::dihedral_geometry(x);
  const double c1 = geo.c, s1 = geo.s;
  const double c2 = c1 * c1 - s1 * s1, s2 = 2.0 * s1 * c1;
  const double c3 = c2 * c1 - s2 * s1, s3 = s2 * c1 + c2 * s1;
  const double c4 = c2 * c2 - s2 * s2, s4 = 2.0 * s2 * c2;
  const double energy =
      0.5 * (c.k[0] * (1.0 + c1) + c.k[1] * (1.0 - c2) + c.k[2] * (1.0 + c3) + c.k[3] * (1.0 - c4));
  const double de_dphi =
      0.5 * (-c.k[0] * s1 + 2.0 * c.k[1] * s2 - 3.0 * c.k[2] * s3 + 4.0 * c.k[3] * s4);
  detail::dihedral_forces(geo, de_dphi, f);
  return energy;
}

// chi = acos(cos phi) is the angle between the planes (1,2,3) and (2,3,4);
// dchi/dphi = sign(phi). LAMMPS differentiates through cos chi and bounds
// 1 / sin chi by 1 / 0.001; likewise here the force is scaled by
// sin chi / 0.001 where sin chi < 0.001, so it fades to 0 at chi = 0 and pi
// (where chi = |phi| has a kink).
KOKKOS_INLINE_FUNCTION double improper_harmonic(const ImproperHarmonicCoeff& c,
                                                const double x[4][3], double f[4][3]) {
  constexpr double small = 0.001;
  const detail::DihedralGeometry geo = detail::dihedral_geometry(x);
  const double chi = cb::math::kmath::acos(geo.c);
  const double dchi = chi - c.chi0;
  const double sin_chi = cb::math::sqrt(1.0 - geo.c * geo.c);
  const double fade = sin_chi < small ? sin_chi / small : 1.0;
  const double sign = geo.s < 0.0 ? -1.0 : 1.0;
  detail::dihedral_forces(geo, 2.0 * c.k * dchi * sign * fade, f);
  return c.k * dchi * dchi;
}

}  // namespace cb::kernels::md
