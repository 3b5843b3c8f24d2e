// SHAKE and RATTLE for one cluster of 2, 3 or 4 atoms around a central atom
// (LAMMPS fix shake / fix rattle clusters: atom 0 is the central atom).
//
// SHAKE (Ryckaert, Ciccotti & Berendsen, J. Comput. Phys. 23, 327 (1977)):
// the step moves atom a to its unconstrained prediction x'_a (LAMMPS fix shake:
// x'_a = x_a + dt v_a + dt^2 f_a / m_a at post_force; RATTLE's position stage
// takes dt^2 / 2). Constraint k joins atoms i_k and j_k at length d_k; its
// force on i_k is +G_k r_k and on j_k is -G_k r_k, along the OLD bond vector
// r_k = x_i - x_j, so the corrected positions are
//     x''_a = x'_a + w_a sum_k (delta_{a,i_k} - delta_{a,j_k}) g_k r_k,
// w_a = 1 / m_a, g_k = G_k dt^2 (the multipliers returned here; the forces are
// g_k / (dt^2 ftm2v) r_k, halved dt^2 for RATTLE). With s_k = x'_i - x'_j,
//     s''_k = s_k + sum_l C_kl g_l r_l,
//     C_kl = w_{i_k} (delta_{i_k,i_l} - delta_{i_k,j_l}) - w_{j_k} (delta_{j_k,i_l} -
//     delta_{j_k,j_l}),
// and the constraints |s''_k|^2 = d_k^2 read
//     sum_l A_kl g_l = d_k^2 - s_k^2 - |sum_l C_kl g_l r_l|^2,  A_kl = 2 C_kl s_k . r_l,
// solved by the fixed-point iteration g <- A^{-1} (d^2 - s^2 - q(g)) from g = 0
// (the matrix form LAMMPS's shake3, shake4 and shake3angle iterate). A
// 2-atom cluster has the exact quadratic
//     (w_0 + w_1)^2 r^2 g^2 + 2 (w_0 + w_1) (s . r) g + s^2 - d^2 = 0,
// of which the root of smaller magnitude is taken (as LAMMPS), computed in the
// cancellation-free form g = c / q, q = -(b + sign(b) sqrt(b^2 - 4ac)) / 2.
//
// RATTLE velocity stage (Andersen, J. Comput. Phys. 52, 24 (1983)): with the
// constrained positions x and velocities v at the end of the step, velocity
// multipliers mu_k along r_k = x_i - x_j make every relative velocity
// orthogonal to its bond: (v_i - v_j + sum_l C_kl mu_l r_l) . r_k = 0, a
// linear system sum_l C_kl (r_k . r_l) mu_l = -(v_i - v_j) . r_k solved
// directly; v'_a = v_a + w_a sum_k (delta_{a,i_k} - delta_{a,j_k}) mu_k r_k.
//
// Positions are unwrapped in one frame (the caller takes minimum images).
// Pure functions: no MPI, no allocation, no I/O.
#pragma once

#include "core/kokkos_compat.hpp"
#include "kernels/md/vec3.hpp"

#include <Kokkos_Core.hpp>

namespace cb::kernels::md {

constexpr int max_cluster_atoms = 4;
constexpr int max_cluster_constraints = 3;

// LAMMPS's shake_flag values: a 3-atom cluster with its angle frozen (the
// distance between the two outer atoms constrained too), and clusters of 2, 3
// or 4 atoms whose bonds all share the central atom 0.
enum class ClusterShape : int { angle3 = 1, pair = 2, star3 = 3, star4 = 4 };

// The distance constraints of a shape: constraint k joins cluster atoms
// pair[k][0] and pair[k][1]. Stars: (0,1), (0,2), (0,3); angle3: (0,1), (0,2), (1,2).
struct ClusterConstraints {
  int atoms = 0;
  int count = 0;
  int pair[max_cluster_constraints][2] = {{0, 0}, {0, 0}, {0, 0}};
};

KOKKOS_INLINE_FUNCTION ClusterConstraints cluster_constraints(ClusterShape shape) {
  ClusterConstraints c;
  const bool angle = shape == ClusterShape::angle3;
  c.atoms = angle ? 3 : static_cast<int>(shape);
  c.count = angle ? 3 : c.atoms - 1;
  for (int k = 0; k < c.count; ++k) {
    c.pair[k][0] = 0;
    c.pair[k][1] = k + 1;
  }
  if (angle) {
    c.pair[2][0] = 1;
    c.pair[2][1] = 2;
  }
  return c;
}

// How an iteration is judged converged: every constrained distance within
// tolerance * d of its target (Ryckaert et al.'s relative test), or every
// multiplier changed by at most tolerance since the last iteration (LAMMPS's
// test; g is a mass, amu in real units).
enum class ShakeTest : int { relative_length, multiplier_change };

struct ShakeControl {
  double tolerance = 1.0e-4;
  int max_iterations = 10;
  ShakeTest test = ShakeTest::relative_length;
};

// converged is false when the iteration ran out, diverged (|g| > 1e150 or not
// finite), the linearised matrix was singular, or (2 atoms) the quadratic has
// no real root; g is then the last iterate (the discriminant taken as 0).
struct ShakeResult {
  int iterations = 0;
  bool converged = false;
};

namespace detail {

KOKKOS_INLINE_FUNCTION double delta(int a, int b) {
  return a == b ? 1.0 : 0.0;
}

// Bond vectors x[i_k] - x[j_k].
KOKKOS_INLINE_FUNCTION void bond_vectors(const ClusterConstraints& c, const double x[][3],
                                         double r[max_cluster_constraints][3]) {
  for (int k = 0; k < c.count; ++k)
    for (int d = 0; d < 3; ++d) r[k][d] = x[c.pair[k][0]][d] - x[c.pair[k][1]][d];
}

// C_kl of the header: how multiplier l moves the vector of constraint k.
KOKKOS_INLINE_FUNCTION void coupling(const ClusterConstraints& c, const double inv_mass[],
                                     double C[max_cluster_constraints][max_cluster_constraints]) {
  for (int k = 0; k < c.count; ++k)
    for (int l = 0; l < c.count; ++l) {
      const int ik = c.pair[k][0], jk = c.pair[k][1], il = c.pair[l][0], jl = c.pair[l][1];
      C[k][l] = inv_mass[ik] * (delta(ik, il) - delta(ik, jl)) -
                inv_mass[jk] * (delta(jk, il) - delta(jk, jl));
    }
}

// inv = a^{-1} for an n x n matrix (n <= 3), Gauss-Jordan with partial
// pivoting; false when a pivot is zero or not finite.
KOKKOS_INLINE_FUNCTION bool invert(int n,
                                   double a[max_cluster_constraints][max_cluster_constraints],
                                   double inv[max_cluster_constraints][max_cluster_constraints]) {
  for (int r = 0; r < n; ++r)
    for (int col = 0; col < n; ++col) inv[r][col] = delta(r, col);
  for (int p = 0; p < n; ++p) {
    int best = p;
    for (int r = p + 1; r < n; ++r)
      if (cb::math::fabs(a[r][p]) > cb::math::fabs(a[best][p])) best = r;
    if (!(a[best][p] != 0.0) || !cb::math::isfinite(a[best][p])) return false;
    for (int col = 0; col < n; ++col) {
      const double t = a[p][col], u = inv[p][col];
      a[p][col] = a[best][col];
      inv[p][col] = inv[best][col];
      a[best][col] = t;
      inv[best][col] = u;
    }
    const double scale = 1.0 / a[p][p];
    for (int col = 0; col < n; ++col) {
      a[p][col] *= scale;
      inv[p][col] *= scale;
    }
    for (int r = 0; r < n; ++r) {
      if (r == p) continue;
      const double factor = a[r][p];
      for (int col = 0; col < n; ++col) {
        a[r][col] -= factor * a[p][col];
        inv[r][col] -= factor * inv[p][col];
      }
    }
  }
  return true;
}

// The exact 2-atom multiplier (header).
KOKKOS_INLINE_FUNCTION ShakeResult shake_pair(const double r[3], const double s[3],
                                              const double inv_mass[], double length, double& g) {
  const double w = inv_mass[0] + inv_mass[1];
  const double a = w * w * dot(r, r);
  const double b = 2.0 * w * dot(s, r);
  const double c = dot(s, s) - length * length;
  double discriminant = b * b - 4.0 * a * c;
  ShakeResult result;
  result.iterations = 1;
  result.converged = a > 0.0 && discriminant >= 0.0;
  if (discriminant < 0.0) discriminant = 0.0;
  const double root = cb::math::sqrt(discriminant);
  const double q = -0.5 * (b + (b < 0.0 ? -root : root));
  g = q != 0.0 ? c / q : 0.0;
  if (!cb::math::isfinite(g)) {
    g = 0.0;
    result.converged = false;
  }
  return result;
}

}  // namespace detail

// SHAKE multipliers g[k] of one cluster (header): x_old the positions at the
// start of the step (the old bond vectors), x_pred the unconstrained
// predictions, length[k] the targets of cluster_constraints(shape).
KOKKOS_INLINE_FUNCTION ShakeResult shake_multipliers(ClusterShape shape, const double x_old[][3],
                                                     const double x_pred[][3],
                                                     const double inv_mass[], const double length[],
                                                     const ShakeControl& control, double g[]) {
  constexpr int M = max_cluster_constraints;
  const ClusterConstraints c = cluster_constraints(shape);
  double r[M][3], s[M][3];
  detail::bond_vectors(c, x_old, r);
  detail::bond_vectors(c, x_pred, s);
  for (int k = 0; k < M; ++k) g[k] = 0.0;
  if (c.count == 1) return detail::shake_pair(r[0], s[0], inv_mass, length[0], g[0]);

  double C[M][M], A[M][M], Ainv[M][M], rr[M][M];
  detail::coupling(c, inv_mass, C);
  for (int k = 0; k < c.count; ++k)
    for (int l = 0; l < c.count; ++l) {
      A[k][l] = 2.0 * C[k][l] * detail::dot(s[k], r[l]);
      rr[k][l] = detail::dot(r[k], r[l]);
    }
  ShakeResult result;
  if (!detail::invert(c.count, A, Ainv)) return result;

  while (result.iterations < control.max_iterations && !result.converged) {
    double rhs[M], g_new[M];
    for (int k = 0; k < c.count; ++k) {
      double quad = 0.0;
      for (int l = 0; l < c.count; ++l)
        for (int m = 0; m < c.count; ++m) quad += C[k][l] * C[k][m] * g[l] * g[m] * rr[l][m];
      rhs[k] = length[k] * length[k] - detail::dot(s[k], s[k]) - quad;
    }
    bool diverged = false;
    for (int k = 0; k < c.count; ++k) {
      g_new[k] = 0.0;
      for (int l = 0; l < c.count; ++l) g_new[k] += Ainv[k][l] * rhs[l];
      diverged = diverged || !cb::math::isfinite(g_new[k]) || cb::math::fabs(g_new[k]) > 1.0e150;
    }
    bool done = true;
    for (int k = 0; k < c.count; ++k) {
      if (control.test == ShakeTest::multiplier_change) {
        done = done && cb::math::fabs(g_new[k] - g[k]) <= control.tolerance;
        continue;
      }
      double moved[3];
      for (int d = 0; d < 3; ++d) {
        moved[d] = s[k][d];
        for (int l = 0; l < c.count; ++l) moved[d] += C[k][l] * g_new[l] * r[l][d];
      }
      const double error = cb::math::sqrt(detail::dot(moved, moved)) - length[k];
      done = done && cb::math::fabs(error) <= control.tolerance * length[k];
    }
    for (int k = 0; k < c.count; ++k) g[k] = g_new[k];
    ++result.iterations;
    if (diverged) return result;
    result.converged = done;
  }
  return result;
}

// RATTLE velocity multipliers mu[k] (header): x the constrained positions and
// v the velocities at the end of the step. False when the system is singular.
KOKKOS_INLINE_FUNCTION bool rattle_multipliers(ClusterShape shape, const double x[][3],
                                               const double v[][3], const double inv_mass[],
                                               double mu[]) {
  constexpr int M = max_cluster_constraints;
  const ClusterConstraints c = cluster_constraints(shape);
  double r[M][3], u[M][3], C[M][M], B[M][M], Binv[M][M];
  detail::bond_vectors(c, x, r);
  detail::bond_vectors(c, v, u);
  detail::coupling(c, inv_mass, C);
  for (int k = 0; k < c.count; ++k)
    for (int l = 0; l < c.count; ++l) B[k][l] = C[k][l] * detail::dot(r[k], r[l]);
  for (int k = 0; k < M; ++k) mu[k] = 0.0;
  if (!detail::invert(c.count, B, Binv)) return false;
  for (int k = 0; k < c.count; ++k)
    for (int l = 0; l < c.count; ++l) mu[k] -= Binv[k][l] * detail::dot(u[l], r[l]);
  return true;
}

// Pair forces of the multipliers: f_a = scale sum_k (delta_{a,i_k} -
// delta_{a,j_k}) g_k r_k with r_k from x (the old positions for SHAKE; scale
// = 1 / (dt^2 ftm2v), or 2 / (dt^2 ftm2v) for RATTLE's position stage and
// 2 / (dt ftm2v) for its velocity stage). Written, not added, for the
// cluster's atoms.
KOKKOS_INLINE_FUNCTION void constraint_forces(ClusterShape shape, const double x[][3],
                                              const double g[], double scale, double f[][3]) {
  const ClusterConstraints c = cluster_constraints(shape);
  double r[max_cluster_constraints][3];
  detail::bond_vectors(c, x, r);
  for (int a = 0; a < c.atoms; ++a)
    for (int d = 0; d < 3; ++d) f[a][d] = 0.0;
  for (int k = 0; k < c.count; ++k)
    for (int d = 0; d < 3; ++d) {
      f[c.pair[k][0]][d] += scale * g[k] * r[k][d];
      f[c.pair[k][1]][d] -= scale * g[k] * r[k][d];
    }
}

// Displacement (SHAKE) or velocity change (RATTLE) of each atom:
// w_a sum_k (delta_{a,i_k} - delta_{a,j_k}) g_k r_k, r_k from x.
KOKKOS_INLINE_FUNCTION void constraint_corrections(ClusterShape shape, const double x[][3],
                                                   const double inv_mass[], const double g[],
                                                   double correction[][3]) {
  const int atoms = cluster_constraints(shape).atoms;
  constraint_forces(shape, x, g, 1.0, correction);
  for (int a = 0; a < atoms; ++a)
    for (int d = 0; d < 3; ++d) correction[a][d] *= inv_mass[a];
}

// Virial of the constraint forces, sum_k scale g_k r_k (x) r_k in LAMMPS's
// order xx, yy, zz, xy, xz, yz (a pair force F_k r_k along r_k = x_i - x_j).
KOKKOS_INLINE_FUNCTION void constraint_virial(ClusterShape shape, const double x[][3],
                                              const double g[], double scale, double virial[6]) {
  const ClusterConstraints c = cluster_constraints(shape);
  double r[max_cluster_constraints][3];
  detail::bond_vectors(c, x, r);
  for (int n = 0; n < 6; ++n) virial[n] = 0.0;
  for (int k = 0; k < c.count; ++k) {
    const double f = scale * g[k];
    virial[0] += f * r[k][0] * r[k][0];
    virial[1] += f * r[k][1] * r[k][1];
    virial[2] += f * r[k][2] * r[k][2];
    virial[3] += f * r[k][0] * r[k][1];
    virial[4] += f * r[k][0] * r[k][2];
    virial[5] += f * r[k][1] * r[k][2];
  }
}

// The largest relative deviation |r_k - d_k| / d_k of a cluster's constrained
// distances r_k from their targets d_k (positions unwrapped in one frame): the
// diagnostic `constraint_dev` of docs/solvers/md.md.
KOKKOS_INLINE_FUNCTION double constraint_deviation(ClusterShape shape, const double x[][3],
                                                   const double target[]) {
  const ClusterConstraints c = cluster_constraints(shape);
  double worst = 0.0;
  for (int k = 0; k < c.count; ++k) {
    double r2 = 0.0;
    for (int d = 0; d < 3; ++d) {
      const double delta = x[c.pair[k][0]][d] - x[c.pair[k][1]][d];
      r2 += delta * delta;
    }
    const double deviation = cb::math::fabs(cb::math::sqrt(r2) - target[k]) / target[k];
    if (deviation > worst) worst = deviation;
  }
  return worst;
}

}  // namespace cb::kernels::md
