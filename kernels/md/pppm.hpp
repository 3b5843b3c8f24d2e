// The pure pieces of particle-particle particle-mesh Ewald (PPPM) as LAMMPS's
// kspace_style pppm computes them with the default ik differentiation (LAMMPS
// PPPM; Hockney & Eastwood 1988; Deserno & Holm 1998, JCP 109:7678; Kolafa &
// Perram 1992). The parameter choice (g_ewald, mesh, error estimates) is in
// pppm_estimates.hpp. A solver assembles one long-range step from these:
//
//   mesh      n = (nx, ny, nz) points over the box (Lx, Ly, Lz s), s the slab
//             volume factor (1 without slab); inverse spacings delinv =
//             n / (Lx, Ly, Lz s), delvolinv = delxinv delyinv delzinv
//   assign    each charge q at x goes to the order^3 points around
//             pppm_grid_point (one axis at a time) with weights
//             pppm_assignment_weights: rho(m) += q delvolinv wx wy wz
//   solve     rho_hat = FFT(rho) (forward, unnormalised, e^{-i k.r}); with
//             G = pppm_greens_ik at each mesh index, the energy sum is
//             sum_k pppm_energy_term(G, rho_hat), and the field transform is
//             E_hat_d(k) = -i k_d scaleinv G rho_hat (k_d = pppm_wave_number),
//             whose backward FFTs (unnormalised, e^{+i k.r}) give the three
//             field components on the mesh (LAMMPS transforms the gradient
//             +i k_d scaleinv G rho_hat and subtracts its interpolation: the
//             same numbers)
//   interpolate  E(x_i) = sum_m wx wy wz E(m) with the same weights, and
//             F_i = qqrd2e q_i E(x_i)
//   total     pppm_energy(sum, ...) adds the self and neutralising-background
//             terms; the virial sums pppm_energy_term * pppm_virial_coeff.
//
// Device functions take the small by-value tables built once on the host
// (pppm_assignment_coeff, pppm_greens_ik_setup). No MPI, no allocation, no I/O.
#pragma once

#include "core/kokkos_compat.hpp"
#include "kernels/md/pppm_estimates.hpp"

#include <Kokkos_Core.hpp>

#include <cmath>
#include <cstdint>
#include <stdexcept>
#include <string>

namespace cb::kernels::md {

constexpr int pppm_min_order = 2;
constexpr int pppm_max_order = 7;
// Added before truncation to an integer so that negative reduced coordinates
// (atoms slightly outside the box) still round down (LAMMPS's OFFSET).
constexpr int pppm_grid_offset = 16384;
// sqrt(pi) (LAMMPS MY_PIS)
constexpr double pppm_sqrt_pi = 1.77245385090551602729816748334114518;

inline void pppm_check_order(int order) {
  if (order < pppm_min_order || order > pppm_max_order)
    throw std::invalid_argument("PPPM order must be in [2, 7], got " + std::to_string(order));
}

// ---------------------------------------------------------------------------
// Charge assignment (Hockney & Eastwood 1988: the order-p
// assignment function W_p, the p-fold convolution of the unit box, i.e. the
// centred cardinal B-spline of order p, support |s| < p / 2 in mesh units).

// The stencil of order p along one axis: mesh points n + nlower .. n + nupper
// around the point n of pppm_grid_point; nlower = -(p - 1) / 2, nupper = p / 2
// (integer division), and the shifts that place n.
struct PppmStencil {
  int order = 5;
  int nlower = -2, nupper = 2;
  double shift = pppm_grid_offset + 0.5;  // OFFSET + 1/2 for odd p, OFFSET for even p
  double shiftone = 0.0;                  // 0 for odd p, 1/2 for even p
};

KOKKOS_INLINE_FUNCTION PppmStencil pppm_stencil(int order) {
  PppmStencil s;
  s.order = order;
  s.nlower = -(order - 1) / 2;
  s.nupper = order / 2;
  s.shift = order % 2 ? pppm_grid_offset + 0.5 : pppm_grid_offset;
  s.shiftone = order % 2 ? 0.0 : 0.5;
  return s;
}

// Where a coordinate lands on one mesh axis (LAMMPS particle_map and make_rho):
// with u = (x - boxlo) delinv the position in mesh units,
//   n  = int(u + shift) - OFFSET   the nearest point (odd p) or the point
//                                  below (even p); may lie outside [0, N) for
//                                  atoms outside the box (wrap periodically)
//   dx = n + shiftone - u          in (-1/2, 1/2]
// The weight of mesh point n + k (k in [nlower, nupper]) is the B-spline at
// the point's offset from the atom: w_k = W_p(k + dx - shiftone).
struct PppmGridPoint {
  int n = 0;
  double dx = 0.0;
};

KOKKOS_INLINE_FUNCTION PppmGridPoint pppm_grid_point(double x, double boxlo, double delinv,
                                                     const PppmStencil& s) {
  PppmGridPoint p;
  p.n = static_cast<int>((x - boxlo) * delinv + s.shift) - pppm_grid_offset;
  p.dx = p.n + s.shiftone - (x - boxlo) * delinv;
  return p;
}

// The weights as polynomials in dx (LAMMPS compute_rho_coeff): coeff[l][k -
// nlower] multiplies dx^l in the weight of stencil point k.
struct PppmAssignmentCoeff {
  int order = 0;
  double coeff[pppm_max_order][pppm_max_order] = {};
};

// Builds the polynomial pieces of W_p by the recursion W_{j+1} = W_j * box:
// piece k of W_j (centred at k / 2, k = -j, -j + 2, ..., j) is a polynomial in
// (s - k / 2) on |s - k / 2| < 1/2; its derivative coefficients follow from
// the difference of the neighbouring pieces of W_{j-1}, its constant term from
// integrating them over half a cell each.
inline PppmAssignmentCoeff pppm_assignment_coeff(int order) {
  pppm_check_order(order);
  constexpr int width = 2 * pppm_max_order + 1;
  double a[pppm_max_order][width] = {};  // a[l][k + order]
  auto at = [&](int l, int k) -> double& { return a[l][k + order]; };
  at(0, 0) = 1.0;
  for (int j = 1; j < order; ++j) {
    for (int k = -j; k <= j; k += 2) {
      double constant = 0.0;
      for (int l = 0; l < j; ++l) {
        at(l + 1, k) = (at(l, k + 1) - at(l, k - 1)) / (l + 1);
        constant += std::pow(0.5, static_cast<double>(l) + 1) *
                    (at(l, k - 1) + std::pow(-1.0, static_cast<double>(l)) * at(l, k + 1)) /
                    (l + 1);
      }
      at(0, k) = constant;
    }
  }
  PppmAssignmentCoeff c;
  c.order = order;
  int i = 0;
  for (int k = -(order - 1); k < order; k += 2, ++i)
    for (int l = 0; l < order; ++l) c.coeff[l][i] = at(l, k);
  return c;
}

// The `order` weights of one axis at offset dx (LAMMPS compute_rho1d, Horner
// in dx): w[k - nlower] for k = nlower .. nupper. They sum to 1.
KOKKOS_INLINE_FUNCTION void pppm_assignment_weights(const PppmAssignmentCoeff& c, double dx,
                                                    double w[pppm_max_order]) {
  for (int i = 0; i < c.order; ++i) {
    double r = 0.0;
    for (int l = c.order - 1; l >= 0; --l) r = c.coeff[l][i] + r * dx;
    w[i] = r;
  }
}

// ---------------------------------------------------------------------------
// Wave vectors of the mesh (LAMMPS PPPM::setup): FFT index i in [0, N) is the
// signed wave number i - N (2 i / N) (integer division: i for i < N / 2
// rounded up, i - N above), and k = (2 pi / L) times it, L = Lz s along z.

KOKKOS_INLINE_FUNCTION int pppm_signed_index(int i, int n) {
  return i - n * (2 * i / n);
}

KOKKOS_INLINE_FUNCTION double pppm_wave_number(int i, int n, double unitk) {
  const double per = pppm_signed_index(i, n);
  return unitk * per;
}

KOKKOS_INLINE_FUNCTION double pppm_square(double v) {
  return v * v;
}

// (sin(x) / x)^n by repeated squaring, 1 at x = 0 (LAMMPS powsinxx).
KOKKOS_INLINE_FUNCTION double pppm_powsinxx(double x, int n) {
  if (x == 0.0) return 1.0;
  double base = cb::math::sin(x) / x;
  double result = 1.0;
  for (; n != 0; n >>= 1, base *= base)
    if (n & 1) result *= base;
  return result;
}

// ---------------------------------------------------------------------------
// Optimal influence function for ik differentiation (Hockney & Eastwood 1988,
// eq. 8-22; LAMMPS compute_gf_ik): for k != 0, with aliases k_m = k + 2 pi m
// / h, U(k) = prod_d (sin(k_d h_d / 2) / (k_d h_d / 2))^p and R the
// reference force's transform,
//   G(k) = (4 pi / k^2) sum_m (k.k_m / k_m^2) exp(-k_m^2 / (4 g^2)) U(k_m)^2
//          / [sum_m U(k_m)^2]^2,
// the numerator's alias sum cut at |m_d| <= nb_d (the terms below 1e-7), the
// denominator's in closed form: sum_m U(k_m)^2 = prod_d S_p(sin^2(k_d h_d / 2))
// with S_p a polynomial of degree p - 1 (gf_b). G(0) = 0.
struct PppmGreensIk {
  int n[3] = {0, 0, 0};
  double prd[3] = {0.0, 0.0, 0.0};  // Lx, Ly, Lz s
  double unitk[3] = {0.0, 0.0, 0.0};
  double g_ewald = 0.0;
  int order = 0;
  int nb[3] = {0, 0, 0};
  double gf_b[pppm_max_order] = {};
};

// Coefficients of S_p(z) = sum_l b_l z^l = sum_j (sin x / (x + pi j))^{2p},
// z = sin^2 x (LAMMPS compute_gf_denom; S_p = -z^p / (2p - 1)! d^{2p-1}/dx^{2p-1}
// cot x).
inline void pppm_gf_denom_coeff(int order, double b[pppm_max_order]) {
  pppm_check_order(order);
  for (int l = 1; l < order; ++l) b[l] = 0.0;
  b[0] = 1.0;
  for (int m = 1; m < order; ++m) {
    int l = m;
    for (; l > 0; --l)
      b[l] = 4.0 * (b[l] * (l - m) * (l - m - 0.5) - b[l - 1] * (l - m - 1) * (l - m - 1));
    b[0] = 4.0 * (b[0] * (l - m) * (l - m - 0.5));
  }
  std::int64_t factorial = 1;
  for (int k = 1; k < 2 * order; ++k) factorial *= k;
  const double inverse = 1.0 / factorial;
  for (int l = 0; l < order; ++l) b[l] *= inverse;
}

// [S_p(snx) S_p(sny) S_p(snz)]^2 (LAMMPS gf_denom).
KOKKOS_INLINE_FUNCTION double pppm_gf_denom(const PppmGreensIk& p, double snx, double sny,
                                            double snz) {
  double sx = 0.0, sy = 0.0, sz = 0.0;
  for (int l = p.order - 1; l >= 0; --l) {
    sx = p.gf_b[l] + sx * snx;
    sy = p.gf_b[l] + sy * sny;
    sz = p.gf_b[l] + sz * snz;
  }
  const double s = sx * sy * sz;
  return s * s;
}

// The table of pppm_greens_ik for mesh n over box prd (the slab factor
// stretches z), splitting parameter g_ewald and assignment order.
inline PppmGreensIk pppm_greens_ik_setup(const int n[3], const double prd[3], double g_ewald,
                                         int order, double slab_volfactor = 1.0) {
  PppmGreensIk p;
  const double two_pi = 2.0 * cb::math::pi;
  const double eps_hoc = 1.0e-7;  // LAMMPS EPS_HOC
  for (int d = 0; d < 3; ++d) {
    p.n[d] = n[d];
    p.prd[d] = d == 2 ? prd[d] * slab_volfactor : prd[d];
    p.unitk[d] = two_pi / p.prd[d];
    p.nb[d] = static_cast<int>((g_ewald * p.prd[d] / (cb::math::pi * n[d])) *
                               std::pow(-std::log(eps_hoc), 0.25));
  }
  p.g_ewald = g_ewald;
  p.order = order;
  pppm_gf_denom_coeff(order, p.gf_b);
  return p;
}

// What G takes from one axis d at signed index `per` and alias a (|a| <= nb_d):
// q = unitk (per + n a), its screening exp(-q^2 / 4 g^2), the assignment
// weight (sin x / x)^{2p} at x = q L / 2n, and unitk per q (a term of k . q).
// G is separable in these, so a mesh's G can be built from per-axis tables.
struct PppmAxisTerm {
  double q = 0.0, screen = 0.0, weight = 0.0, projected = 0.0;
};

KOKKOS_INLINE_FUNCTION PppmAxisTerm pppm_axis_term(const PppmGreensIk& p, int d, int per,
                                                   int alias) {
  PppmAxisTerm t;
  t.q = p.unitk[d] * (per + p.n[d] * alias);
  t.screen = cb::math::exp(-0.25 * pppm_square(t.q / p.g_ewald));
  t.weight = pppm_powsinxx(0.5 * t.q * p.prd[d] / p.n[d], 2 * p.order);
  t.projected = p.unitk[d] * per * t.q;
  return t;
}

// sin^2(unitk per L / 2n) of axis d, the argument of pppm_gf_denom.
KOKKOS_INLINE_FUNCTION double pppm_axis_sin_sq(const PppmGreensIk& p, int d, int per) {
  return pppm_square(cb::math::sin(0.5 * p.unitk[d] * per * p.prd[d] / p.n[d]));
}

// G at signed indices per[3] from its axes' terms: term(d, a) is
// pppm_axis_term(p, d, per[d], a - nb_d) and sin_sq[d] pppm_axis_sin_sq, in
// LAMMPS's order of operations (its numerator 4 pi is the literal 12.5663706).
template <class Terms>
KOKKOS_INLINE_FUNCTION double pppm_greens_of(const PppmGreensIk& p, const int per[3],
                                             const double sin_sq[3], const Terms& term) {
  const double kx = p.unitk[0] * per[0], ky = p.unitk[1] * per[1], kz = p.unitk[2] * per[2];
  const double sqk = kx * kx + ky * ky + kz * kz;
  if (sqk == 0.0) return 0.0;
  const double numerator = 12.5663706 / sqk;
  const double denominator = pppm_gf_denom(p, sin_sq[0], sin_sq[1], sin_sq[2]);
  double sum = 0.0;
  for (int ax = 0; ax <= 2 * p.nb[0]; ++ax) {
    const PppmAxisTerm tx = term(0, ax);
    for (int ay = 0; ay <= 2 * p.nb[1]; ++ay) {
      const PppmAxisTerm ty = term(1, ay);
      for (int az = 0; az <= 2 * p.nb[2]; ++az) {
        const PppmAxisTerm tz = term(2, az);
        const double dot1 = tx.projected + ty.projected + tz.projected;
        const double dot2 = tx.q * tx.q + ty.q * ty.q + tz.q * tz.q;
        sum +=
            (dot1 / dot2) * tx.screen * ty.screen * tz.screen * tx.weight * ty.weight * tz.weight;
      }
    }
  }
  return numerator * sum / denominator;
}

// G at FFT mesh index (i, j, k), each in [0, n_d), its terms evaluated here.
KOKKOS_INLINE_FUNCTION double pppm_greens_ik(const PppmGreensIk& p, int i, int j, int k) {
  const int per[3] = {pppm_signed_index(i, p.n[0]), pppm_signed_index(j, p.n[1]),
                      pppm_signed_index(k, p.n[2])};
  const double sin_sq[3] = {pppm_axis_sin_sq(p, 0, per[0]), pppm_axis_sin_sq(p, 1, per[1]),
                            pppm_axis_sin_sq(p, 2, per[2])};
  return pppm_greens_of(p, per, sin_sq,
                        [&](int d, int a) { return pppm_axis_term(p, d, per[d], a - p.nb[d]); });
}

// ---------------------------------------------------------------------------
// Energy and virial (LAMMPS PPPM::compute and poisson_ik), from the forward
// FFT rho_hat = re + i im of the assigned density rho (charge per volume).

// 1 / (nx ny nz), the normalisation of the unnormalised FFT.
KOKKOS_INLINE_FUNCTION double pppm_scaleinv(const int n[3]) {
  return 1.0 / (n[0] * n[1] * n[2]);
}

// One wave vector's share of the energy sum: s2 G |rho_hat|^2, s2 = scaleinv^2.
KOKKOS_INLINE_FUNCTION double pppm_energy_term(double greens, double re, double im, double s2) {
  return s2 * greens * (re * re + im * im);
}

// Virial weights of wave vector k (xx, yy, zz, xy, xz, yz): delta_ab + vterm
// k_a k_b with vterm = -2 (1 / k^2 + 1 / (4 g^2)); all zero at k = 0. Virial
// sum_a = sum_k pppm_energy_term(k) vg_a(k).
KOKKOS_INLINE_FUNCTION void pppm_virial_coeff(double kx, double ky, double kz, double g_ewald,
                                              double vg[6]) {
  const double sqk = kx * kx + ky * ky + kz * kz;
  if (sqk == 0.0) {
    for (int a = 0; a < 6; ++a) vg[a] = 0.0;
    return;
  }
  const double vterm = -2.0 * (1.0 / sqk + 0.25 / (g_ewald * g_ewald));
  vg[0] = 1.0 + vterm * kx * kx;
  vg[1] = 1.0 + vterm * ky * ky;
  vg[2] = 1.0 + vterm * kz * kz;
  vg[3] = vterm * kx * ky;
  vg[4] = vterm * kx * kz;
  vg[5] = vterm * ky * kz;
}

// Self energy per unit q^2 (without qqrd2e): -g / sqrt(pi).
KOKKOS_INLINE_FUNCTION double pppm_self_per_q2(double g_ewald) {
  return -g_ewald / pppm_sqrt_pi;
}

// Energy of the neutralising background of a net charge qsum (without
// qqrd2e): -pi qsum^2 / (2 g^2 V).
KOKKOS_INLINE_FUNCTION double pppm_neutralization_energy(double qsum, double g_ewald,
                                                         double volume) {
  return -(0.5 * cb::math::pi) * qsum * qsum / (g_ewald * g_ewald * volume);
}

// Total long-range energy from sum = sum_k pppm_energy_term over all k, in
// LAMMPS's order: qscale [V sum / 2 - (g qsqsum / sqrt(pi) + pi qsum^2 /
// (2 g^2 V))], qscale = qqrd2e (times LAMMPS's scale, 1).
inline double pppm_energy(double sum, double volume, double g_ewald, double qsqsum, double qsum,
                          double qscale) {
  const double half_pi = 0.5 * cb::math::pi;
  double e = sum * (0.5 * volume);
  e -= g_ewald * qsqsum / pppm_sqrt_pi + half_pi * qsum * qsum / (g_ewald * g_ewald * volume);
  return e * qscale;
}

// The virial component from its k sum: qscale V sum_a / 2.
inline double pppm_virial(double sum_a, double volume, double qscale) {
  return 0.5 * qscale * volume * sum_a;
}

}  // namespace cb::kernels::md
