// PPPM parameters from a requested force accuracy, as LAMMPS's kspace_style
// pppm chooses them for ik differentiation without staggering (PPPM::init,
// set_grid_global, estimate_ik_error, adjust_gewald, final_accuracy; read in
// the 2023 sources, reproducing Debian's lmp 29 Sep 2021 to every printed
// digit, validation/reference/pppm_lmp.csv). The rms force error estimates: real
// space Kolafa & Perram (1992), k space Deserno & Holm (1998), JCP 109:7678,
// with their coefficients a_pm (p. 7698; after Hockney & Eastwood 1988):
//   dF_real  = 2 q2 exp(-g^2 rc^2) / sqrt(N rc Lx Ly Lz)
//   dF_k,d   = q2 (h g)^p sqrt(g L sqrt(2 pi) sum_m a_pm (h g)^{2m} / N) / L^2
//   dF_k     = sqrt((dF_k,x^2 + dF_k,y^2 + dF_k,z^2) / 3)
// with q2 = qqrd2e sum_i q_i^2, h = L / n the mesh spacing along an axis of
// length L (Lz s along z, s the slab volume factor), p the order.
// The choice:
//   1. accuracy = accuracy_relative * two_charge_force (or the absolute one)
//   2. g = accuracy sqrt(N rc Lx Ly Lz) / (2 q2); g = sqrt(-ln g) / rc, or
//      (1.35 - 0.15 ln accuracy) / rc when g >= 1 (unless g is given)
//   3. per axis n = int(L g) + 1, raised one at a time until the error of the
//      previous spacing is within the accuracy (LAMMPS's loop, which ends one
//      point above the first passing n) (unless the mesh is given)
//   4. each n raised to the next number with no prime factors but 2, 3, 5
//   5. g moved by Newton iterations (forward-difference derivative, step
//      1e-6) to where dF_real = dF_k, until |dF_real - dF_k| < 1e-5 (unless
//      g is given)
//   6. estimated accuracy sqrt(dF_k^2 + dF_real^2 + dF_table^2), dF_table the
//      empirical error of LAMMPS's Coulomb tables (pair_modify table b,
//      default 12 bits; 0 without tables) times q2 / sqrt(N rc V).
// LAMMPS may also lower the order when the stencil reaches past the
// neighbouring rank's sub-domain; that is the solver's business. The error
// estimate of ad differentiation and staggered meshes (LAMMPS compute_qopt, a
// sum over the whole mesh) is not on this path and not provided. Host-only.
#pragma once

#include <cmath>
#include <cstdint>
#include <stdexcept>
#include <string>

namespace cb::kernels::md {

struct PppmSettings {
  double accuracy_relative = 1.0e-4;  // kspace_style pppm <accuracy>
  double accuracy_absolute = -1.0;    // kspace_modify force (used when >= 0)
  double two_charge_force =
      1.0;  // qqr2e qelectron^2 / angstrom^2: real 332.06371, metal 14.399645, lj 1
  std::int64_t natoms = 0;
  double q2 = 0.0;                  // qqrd2e sum_i q_i^2
  double prd[3] = {0.0, 0.0, 0.0};  // box lengths
  double cutoff = 0.0;              // real-space Coulomb cutoff
  int order = 5;                    // kspace_modify order, 2..7
  double slab_volfactor = 1.0;      // kspace_modify slab (1: no slab)
  double g_ewald = 0.0;             // kspace_modify gewald (0: chosen)
  int mesh[3] = {0, 0, 0};          // kspace_modify mesh (all 0: chosen)
  int coul_table_bits = 12;         // pair_modify table (0: no tables)
};

struct PppmParameters {
  double g_ewald = 0.0;
  int mesh[3] = {0, 0, 0};
  int order = 5;
  double h[3] = {0.0, 0.0, 0.0};  // mesh spacings (z over Lz s)
  double accuracy = 0.0;          // the requested absolute accuracy
  double df_kspace = 0.0, df_rspace = 0.0, df_table = 0.0;
  double estimated_accuracy = 0.0;           // "estimated absolute RMS force accuracy"
  double estimated_relative_accuracy = 0.0;  // "estimated relative force accuracy"
};

// True when n has no prime factors but 2, 3 and 5 (LAMMPS factorable).
inline bool pppm_factorable(int n) {
  constexpr int factors[3] = {2, 3, 5};
  while (n > 1) {
    int i = 0;
    while (i < 3 && n % factors[i] != 0) ++i;
    if (i == 3) return false;
    n /= factors[i];
  }
  return true;
}

// Deserno & Holm (1998), p. 7698: a_pm, m = 0 .. p - 1, of the k-space error
// of order p (the coefficients LAMMPS uses).
inline double pppm_error_coeff(int order, int m) {
  static constexpr double a[8][7] = {
      {},
      {2.0 / 3.0},
      {1.0 / 50.0, 5.0 / 294.0},
      {1.0 / 588.0, 7.0 / 1440.0, 21.0 / 3872.0},
      {1.0 / 4320.0, 3.0 / 1936.0, 7601.0 / 2271360.0, 143.0 / 28800.0},
      {1.0 / 23232.0, 7601.0 / 13628160.0, 143.0 / 69120.0, 517231.0 / 106536960.0,
       106640677.0 / 11737571328.0},
      {691.0 / 68140800.0, 13.0 / 57600.0, 47021.0 / 35512320.0, 9694607.0 / 2095994880.0,
       733191589.0 / 59609088000.0, 326190917.0 / 11700633600.0},
      {1.0 / 345600.0, 3617.0 / 35512320.0, 745739.0 / 838397952.0, 56399353.0 / 12773376000.0,
       25091609.0 / 1560084480.0, 1755948832039.0 / 36229939200000.0,
       4887769399.0 / 37838389248.0}};
  return a[order][m];
}

// dF_k along one axis of length prd with spacing h (LAMMPS estimate_ik_error).
inline double pppm_ik_error(double h, double prd, std::int64_t natoms, double q2, double g_ewald,
                            int order) {
  if (natoms == 0) return 0.0;
  const double hg = h * g_ewald;
  double sum = 0.0;
  for (int m = 0; m < order; ++m) sum += pppm_error_coeff(order, m) * std::pow(hg, 2.0 * m);
  constexpr double two_pi = 6.28318530717958647692528676655900577;
  const double sqrt_two_pi = std::sqrt(two_pi);
  return q2 * std::pow(hg, static_cast<double>(order)) *
         std::sqrt(g_ewald * prd * sqrt_two_pi * sum / natoms) / (prd * prd);
}

namespace detail {

// The state the estimates read: the settings, g, the mesh spacings.
struct PppmEstimate {
  const PppmSettings& s;
  double prd_slab[3];
  double accuracy;
  double g;
  double h[3];

  double df_kspace() const {
    double sum = 0.0;
    for (int d = 0; d < 3; ++d) {
      const double e = pppm_ik_error(h[d], prd_slab[d], s.natoms, s.q2, g, s.order);
      sum += e * e;
    }
    return std::sqrt(sum) / std::sqrt(3.0);
  }
  // dF_real - dF_k, the function whose root adjust_gewald seeks.
  double balance() const {
    const double volume_term = s.natoms * s.cutoff * s.prd[0] * s.prd[1] * s.prd[2];
    const double df_rspace =
        2.0 * s.q2 * std::exp(-g * g * s.cutoff * s.cutoff) / std::sqrt(volume_term);
    return df_rspace - df_kspace();
  }
};

inline double pppm_initial_g(const PppmSettings& s, double accuracy) {
  if (accuracy <= 0.0) throw std::invalid_argument("PPPM: the accuracy must be > 0");
  if (s.q2 == 0.0)
    throw std::invalid_argument("PPPM: a system without charges needs a given g_ewald");
  double g =
      accuracy * std::sqrt(s.natoms * s.cutoff * s.prd[0] * s.prd[1] * s.prd[2]) / (2.0 * s.q2);
  if (g >= 1.0) return (1.35 - 0.15 * std::log(accuracy)) / s.cutoff;
  return std::sqrt(-std::log(g)) / s.cutoff;
}

// Step 3: n along one axis of length prd.
inline int pppm_axis_points(PppmEstimate& e, int d) {
  const PppmSettings& s = e.s;
  const double prd = e.prd_slab[d];
  double h = 1.0 / e.g;
  int n = static_cast<int>(prd / h) + 1;
  double err = pppm_ik_error(h, prd, s.natoms, s.q2, e.g, s.order);
  while (err > e.accuracy) {
    err = pppm_ik_error(h, prd, s.natoms, s.q2, e.g, s.order);
    ++n;
    h = prd / n;
  }
  return n;
}

// Step 5: Newton iterations on g.
inline double pppm_adjust_g(PppmEstimate& e) {
  constexpr int max_iterations = 10000;  // LAMMPS LARGE
  constexpr double tolerance = 1.0e-5;   // LAMMPS SMALL, in force units
  constexpr double step = 1.0e-6;
  for (int i = 0; i < max_iterations; ++i) {
    const double f1 = e.balance();
    const double g0 = e.g;
    e.g += step;
    const double f2 = e.balance();
    e.g = g0;
    const double derivative = (f2 - f1) / step;
    e.g -= e.balance() / derivative;
    if (std::fabs(e.balance()) < tolerance) return e.g;
  }
  throw std::runtime_error("PPPM: could not compute g_ewald");
}

// Step 6: the Coulomb tables' empirical rms error per unit q2 / sqrt(N rc V)
// (LAMMPS KSpace::estimate_table_accuracy).
inline double pppm_table_error(int bits) {
  if (bits == 0) return 0.0;
  constexpr double by_bits[17] = {0,       0,       0,       0,       0,       0,
                                  6.99e-3, 1.78e-3, 4.72e-4, 1.17e-4, 2.95e-5, 7.41e-6,
                                  1.76e-6, 9.28e-7, 7.46e-7, 7.32e-7, 7.30e-7};
  if (bits <= 6) return by_bits[6];
  if (bits <= 16) return by_bits[bits];
  return by_bits[16];
}

}  // namespace detail

inline PppmParameters pppm_parameters(const PppmSettings& s) {
  if (s.order < 2 || s.order > 7)
    throw std::invalid_argument("PPPM order must be in [2, 7], got " + std::to_string(s.order));
  const bool given_g = s.g_ewald != 0.0;
  const bool given_mesh = s.mesh[0] != 0 || s.mesh[1] != 0 || s.mesh[2] != 0;
  if (given_mesh && (s.mesh[0] <= 0 || s.mesh[1] <= 0 || s.mesh[2] <= 0))
    throw std::invalid_argument("PPPM mesh sizes must be all zero or all positive");

  detail::PppmEstimate e{s, {s.prd[0], s.prd[1], s.prd[2] * s.slab_volfactor}, 0.0, 0.0, {}};
  e.accuracy =
      s.accuracy_absolute >= 0.0 ? s.accuracy_absolute : s.accuracy_relative * s.two_charge_force;
  e.g = given_g ? s.g_ewald : detail::pppm_initial_g(s, e.accuracy);

  PppmParameters p;
  p.order = s.order;
  for (int d = 0; d < 3; ++d) {
    int n = given_mesh ? s.mesh[d] : detail::pppm_axis_points(e, d);
    while (!pppm_factorable(n)) ++n;
    if (n >= 16384) throw std::invalid_argument("PPPM mesh is too large");  // LAMMPS OFFSET
    p.mesh[d] = n;
    e.h[d] = e.prd_slab[d] / n;
    p.h[d] = e.h[d];
  }
  if (!given_g) detail::pppm_adjust_g(e);

  p.g_ewald = e.g;
  p.accuracy = e.accuracy;
  const std::int64_t natoms = s.natoms == 0 ? 1 : s.natoms;
  const double q2_over_sqrt = s.q2 / std::sqrt(natoms * s.cutoff * s.prd[0] * s.prd[1] * s.prd[2]);
  p.df_kspace = e.df_kspace();
  p.df_rspace = 2.0 * q2_over_sqrt * std::exp(-e.g * e.g * s.cutoff * s.cutoff);
  p.df_table = detail::pppm_table_error(s.coul_table_bits) * q2_over_sqrt;
  p.estimated_accuracy =
      std::sqrt(p.df_kspace * p.df_kspace + p.df_rspace * p.df_rspace + p.df_table * p.df_table);
  p.estimated_relative_accuracy = p.estimated_accuracy / s.two_charge_force;
  return p;
}

}  // namespace cb::kernels::md
