// Bonded terms with LAMMPS's conventions (MOLECULE package, docs bond_harmonic,
// angle_harmonic, angle_charmm; the four-body terms are in dihedral.hpp):
//   bond harmonic:  E = K (r - r0)^2
//   angle harmonic: E = K (theta - theta0)^2
//   angle charmm:   E = K (theta - theta0)^2 + K_ub (r13 - r_ub)^2
// plus a dispatcher by style for device loops over terms, and host functions
// that map a data file's Coeffs numbers to coefficients as LAMMPS does.
// Each kernel takes the term's atoms unwrapped in one frame, writes (not adds)
// the force on every atom and returns the energy. Angles in radians.
// Pure functions: no MPI, no allocation, no I/O.
#pragma once

#include "kernels/md/dihedral.hpp"
#include "kernels/md/vec3.hpp"

#include <cmath>
#include <stdexcept>
#include <string>
#include <vector>

namespace cb::kernels::md {

struct BondHarmonicCoeff {
  double k = 0.0, r0 = 0.0;
};

struct AngleHarmonicCoeff {
  double k = 0.0, theta0 = 0.0;
};

// theta0 in radians; the Urey-Bradley spring acts between atoms 1 and 3.
struct AngleCharmmCoeff {
  double k = 0.0, theta0 = 0.0, k_ub = 0.0, r_ub = 0.0;
};

// E = K (r - r0)^2; a zero-length bond gets no force.
KOKKOS_INLINE_FUNCTION double bond_harmonic(const BondHarmonicCoeff& c, const double x[2][3],
                                            double f[2][3]) {
  double del[3];
  for (int d = 0; d < 3; ++d) del[d] = x[0][d] - x[1][d];
  const double r = cb::math::sqrt(detail::dot(del, del));
  const double dr = r - c.r0;
  const double fbond = r > 0.0 ? -2.0 * c.k * dr / r : 0.0;  // -(dE/dr) / r
  for (int d = 0; d < 3; ++d) {
    f[0][d] = fbond * del[d];
    f[1][d] = -fbond * del[d];
  }
  return c.k * dr * dr;
}

// E = K (theta - theta0)^2 with cos theta = d1.d2 / (r1 r2), d1 = x1 - x2,
// d2 = x3 - x2:  f1 = (2 K dtheta / sin theta) (d2 / (r1 r2) - cos theta d1 / r1^2),
// f3 likewise, f2 = -f1 - f3. As LAMMPS, sin theta is taken as at least
// 0.001, so a nearly straight angle gets a bounded force.
KOKKOS_INLINE_FUNCTION double angle_harmonic(const AngleHarmonicCoeff& c, const double x[3][3],
                                             double f[3][3]) {
  constexpr double small = 0.001;
  double d1[3], d2[3];
  for (int d = 0; d < 3; ++d) {
    d1[d] = x[0][d] - x[1][d];
    d2[d] = x[2][d] - x[1][d];
  }
  const double r1sq = detail::dot(d1, d1), r2sq = detail::dot(d2, d2);
  const double r1r2 = cb::math::sqrt(r1sq) * cb::math::sqrt(r2sq);
  const double cos_theta = cb::math::clamp(detail::dot(d1, d2) / r1r2, -1.0, 1.0);
  const double sin_theta = cb::math::max(cb::math::sqrt(1.0 - cos_theta * cos_theta), small);
  const double dtheta = cb::math::kmath::acos(cos_theta) - c.theta0;
  const double a = 2.0 * c.k * dtheta / sin_theta;  // -dE/d(cos theta)
  for (int d = 0; d < 3; ++d) {
    f[0][d] = a * (d2[d] / r1r2 - cos_theta * d1[d] / r1sq);
    f[2][d] = a * (d1[d] / r1r2 - cos_theta * d2[d] / r2sq);
    f[1][d] = -f[0][d] - f[2][d];
  }
  return c.k * dtheta * dtheta;
}

// The harmonic angle plus E_ub = K_ub (r13 - r_ub)^2.
KOKKOS_INLINE_FUNCTION double angle_charmm(const AngleCharmmCoeff& c, const double x[3][3],
                                           double f[3][3]) {
  const double energy = angle_harmonic(AngleHarmonicCoeff{c.k, c.theta0}, x, f);
  double d13[3];
  for (int d = 0; d < 3; ++d) d13[d] = x[2][d] - x[0][d];
  const double r13 = cb::math::sqrt(detail::dot(d13, d13));
  const double dr = r13 - c.r_ub;
  const double fub = r13 > 0.0 ? 2.0 * c.k_ub * dr / r13 : 0.0;  // (dE_ub/dr) / r
  for (int d = 0; d < 3; ++d) {
    f[0][d] += fub * d13[d];
    f[2][d] -= fub * d13[d];
  }
  return energy + c.k_ub * dr * dr;
}

// sum_i (x_i - x_0) . f_i over the N atoms of a term: its share of the virial
// sum r . f. Equal to sum_i x_i . f_i because a term's forces sum to zero;
// measured from atom 0 so that far-away unwrapped positions lose no digits.
template <int N>
KOKKOS_INLINE_FUNCTION double term_virial(const double (&x)[N][3], const double (&f)[N][3]) {
  double w = 0.0;
  for (int i = 1; i < N; ++i)
    for (int d = 0; d < 3; ++d) w += (x[i][d] - x[0][d]) * f[i][d];
  return w;
}

// Its tensor component c (vec3.hpp): sum_i (x_i,a - x_0,a) f_i,b, a and b
// the component's row and column (LAMMPS's ev_tally order).
template <int N>
KOKKOS_INLINE_FUNCTION double term_virial_component(const double (&x)[N][3],
                                                    const double (&f)[N][3], int c) {
  const int a = tensor_row(c), b = tensor_col(c);
  double w = 0.0;
  for (int i = 1; i < N; ++i) w += (x[i][a] - x[0][a]) * f[i][b];
  return w;
}

// ---- dispatch by style -----------------------------------------------------

enum class BondStyle : int { none, harmonic };
enum class AngleStyle : int { none, harmonic, charmm };
enum class DihedralStyle : int { none, charmm, harmonic, opls };
enum class ImproperStyle : int { none, harmonic };

// One coefficient type per kind, able to hold any style of the kind: angle
// harmonic is charmm with K_ub = 0; dihedral harmonic is held as charmm with
// cos d = sign, sin d = 0.
using BondCoeff = BondHarmonicCoeff;
using AngleCoeff = AngleCharmmCoeff;
struct DihedralCoeff {
  DihedralCharmmCoeff periodic;  // charmm and harmonic
  DihedralOplsCoeff opls;
};
using ImproperCoeff = ImproperHarmonicCoeff;

// Style `none` (and an unknown value) gives zero energy and forces.
template <int N>
KOKKOS_INLINE_FUNCTION double no_term(double f[N][3]) {
  for (int i = 0; i < N; ++i) f[i][0] = f[i][1] = f[i][2] = 0.0;
  return 0.0;
}

KOKKOS_INLINE_FUNCTION double bond_energy_forces(BondStyle style, const BondCoeff& c,
                                                 const double x[2][3], double f[2][3]) {
  if (style == BondStyle::harmonic) return bond_harmonic(c, x, f);
  return no_term<2>(f);
}

KOKKOS_INLINE_FUNCTION double angle_energy_forces(AngleStyle style, const AngleCoeff& c,
                                                  const double x[3][3], double f[3][3]) {
  switch (style) {
    case AngleStyle::harmonic:
      return angle_harmonic(AngleHarmonicCoeff{c.k, c.theta0}, x, f);
    case AngleStyle::charmm:
      return angle_charmm(c, x, f);
    default:
      return no_term<3>(f);
  }
}

KOKKOS_INLINE_FUNCTION double dihedral_energy_forces(DihedralStyle style, const DihedralCoeff& c,
                                                     const double x[4][3], double f[4][3]) {
  switch (style) {
    case DihedralStyle::charmm:
    case DihedralStyle::harmonic:
      return dihedral_charmm(c.periodic, x, f);
    case DihedralStyle::opls:
      return dihedral_opls(c.opls, x, f);
    default:
      return no_term<4>(f);
  }
}

KOKKOS_INLINE_FUNCTION double improper_energy_forces(ImproperStyle style, const ImproperCoeff& c,
                                                     const double x[4][3], double f[4][3]) {
  if (style == ImproperStyle::harmonic) return improper_harmonic(c, x, f);
  return no_term<4>(f);
}

// ---- host: styles and coefficients from a data file's numbers --------------
// The numbers of one Coeffs line after the type, in LAMMPS's order; degrees
// become radians as LAMMPS converts them (deg / 180 * pi; the charmm shift
// d as cos(pi d / 180), sin(pi d / 180)). Errors throw std::invalid_argument.

namespace detail {

inline void expect_count(const char* what, const std::vector<double>& v, std::size_t n,
                         const char* names) {
  if (v.size() != n)
    throw std::invalid_argument(std::string(what) + " takes " + std::to_string(n) +
                                " coefficients (" + names + "), got " + std::to_string(v.size()));
}

// v must be a whole number (as LAMMPS's integer arguments).
inline int whole_number(const char* what, const char* name, double v) {
  if (!(v == std::floor(v)) || std::fabs(v) > 1e9)
    throw std::invalid_argument(std::string(what) + ": " + name + " must be an integer, got " +
                                std::to_string(v));
  return static_cast<int>(v);
}

inline double radians(double degrees) {
  return degrees / 180.0 * cb::math::pi;
}

}  // namespace detail

// "harmonic" etc. (the style named in a data file's section comment or the
// input); "none" gives none. Throws on an unsupported name.
inline BondStyle bond_style(const std::string& name) {
  if (name == "none") return BondStyle::none;
  if (name == "harmonic") return BondStyle::harmonic;
  throw std::invalid_argument("unsupported bond style '" + name + "' (harmonic)");
}

inline AngleStyle angle_style(const std::string& name) {
  if (name == "none") return AngleStyle::none;
  if (name == "harmonic") return AngleStyle::harmonic;
  if (name == "charmm") return AngleStyle::charmm;
  throw std::invalid_argument("unsupported angle style '" + name + "' (harmonic, charmm)");
}

inline DihedralStyle dihedral_style(const std::string& name) {
  if (name == "none") return DihedralStyle::none;
  if (name == "charmm") return DihedralStyle::charmm;
  if (name == "harmonic") return DihedralStyle::harmonic;
  if (name == "opls") return DihedralStyle::opls;
  throw std::invalid_argument("unsupported dihedral style '" + name + "' (charmm, harmonic, opls)");
}

inline ImproperStyle improper_style(const std::string& name) {
  if (name == "none") return ImproperStyle::none;
  if (name == "harmonic") return ImproperStyle::harmonic;
  throw std::invalid_argument("unsupported improper style '" + name + "' (harmonic)");
}

// bond harmonic: K r0.
inline BondCoeff bond_coeff(BondStyle style, const std::vector<double>& v) {
  if (style == BondStyle::none) return {};
  detail::expect_count("bond_style harmonic", v, 2, "K r0");
  return {v[0], v[1]};
}

inline AngleHarmonicCoeff angle_harmonic_coeff(double k, double theta0_degrees) {
  return {k, detail::radians(theta0_degrees)};
}

inline AngleCharmmCoeff angle_charmm_coeff(double k, double theta0_degrees, double k_ub,
                                           double r_ub) {
  return {k, detail::radians(theta0_degrees), k_ub, r_ub};
}

// angle harmonic: K theta0; charmm: K theta0 K_ub r_ub (theta0 in degrees).
inline AngleCoeff angle_coeff(AngleStyle style, const std::vector<double>& v) {
  if (style == AngleStyle::harmonic) {
    detail::expect_count("angle_style harmonic", v, 2, "K theta0");
    return angle_charmm_coeff(v[0], v[1], 0.0, 0.0);
  }
  if (style == AngleStyle::charmm) {
    detail::expect_count("angle_style charmm", v, 4, "K theta0 K_ub r_ub");
    return angle_charmm_coeff(v[0], v[1], v[2], v[3]);
  }
  return {};
}

// d in integer degrees, n >= 0, 0 <= weight <= 1 (LAMMPS's checks).
inline DihedralCharmmCoeff dihedral_charmm_coeff(double k, int n, int d_degrees, double weight) {
  if (n < 0)
    throw std::invalid_argument("dihedral_style charmm: n must be >= 0, got " + std::to_string(n));
  if (!(weight >= 0.0 && weight <= 1.0))
    throw std::invalid_argument("dihedral_style charmm: weight must be in [0, 1], got " +
                                std::to_string(weight));
  DihedralCharmmCoeff c;
  c.k = k;
  c.n = n;
  c.cos_shift = std::cos(cb::math::pi * d_degrees / 180.0);
  c.sin_shift = std::sin(cb::math::pi * d_degrees / 180.0);
  c.weight = weight;
  return c;
}

// sign = +1 or -1, n >= 0.
inline DihedralHarmonicCoeff dihedral_harmonic_coeff(double k, int sign, int n) {
  if (sign != 1 && sign != -1)
    throw std::invalid_argument("dihedral_style harmonic: d must be +1 or -1, got " +
                                std::to_string(sign));
  if (n < 0)
    throw std::invalid_argument("dihedral_style harmonic: n must be >= 0, got " +
                                std::to_string(n));
  return {k, sign, n};
}

// charmm: K n d w; harmonic: K d n; opls: K1 K2 K3 K4.
inline DihedralCoeff dihedral_coeff(DihedralStyle style, const std::vector<double>& v) {
  DihedralCoeff c;
  if (style == DihedralStyle::charmm) {
    const char* what = "dihedral_style charmm";
    detail::expect_count(what, v, 4, "K n d w");
    c.periodic = dihedral_charmm_coeff(v[0], detail::whole_number(what, "n", v[1]),
                                       detail::whole_number(what, "d", v[2]), v[3]);
  } else if (style == DihedralStyle::harmonic) {
    const char* what = "dihedral_style harmonic";
    detail::expect_count(what, v, 3, "K d n");
    const DihedralHarmonicCoeff h = dihedral_harmonic_coeff(
        v[0], detail::whole_number(what, "d", v[1]), detail::whole_number(what, "n", v[2]));
    c.periodic.k = h.k;
    c.periodic.n = h.n;
    c.periodic.cos_shift = h.sign;
    c.periodic.sin_shift = 0.0;
  } else if (style == DihedralStyle::opls) {
    detail::expect_count("dihedral_style opls", v, 4, "K1 K2 K3 K4");
    for (int i = 0; i < 4; ++i) c.opls.k[i] = v[i];
  }
  return c;
}

inline ImproperHarmonicCoeff improper_harmonic_coeff(double k, double chi0_degrees) {
  return {k, detail::radians(chi0_degrees)};
}

// improper harmonic: K chi0 (degrees).
inline ImproperCoeff improper_coeff(ImproperStyle style, const std::vector<double>& v) {
  if (style == ImproperStyle::none) return {};
  detail::expect_count("improper_style harmonic", v, 2, "K chi0");
  return improper_harmonic_coeff(v[0], v[1]);
}

}  // namespace cb::kernels::md
