// SETTLE for one rigid 3-site water (Miyamoto & Kollman, J. Comput. Chem. 13,
// 952 (1992)): the analytical solution of SHAKE's position stage for a
// triangle O (atom 0), H1, H2 (atoms 1, 2) with |OH1| = |OH2| = d_OH,
// |H1H2| = d_HH and equal hydrogen masses (the ClusterShape::angle3 cluster
// of kernels/md/shake.hpp with equal bond lengths).
//
// Given the old positions a0, b0, c0 (constraints met or not) and the
// unconstrained predictions a1, b1, c1, the constrained positions a3, b3, c3
// keep the predicted centre of mass and are the canonical triangle
//     a' = (0, ra, 0),  b' = (-rc, -rb, 0),  c' = (rc, -rb, 0),
//     rc = d_HH / 2,  h = sqrt(d_OH^2 - rc^2),  ra = 2 m_H h / M,  rb = h - ra
// (M&K's Fig. 1: the centre of mass at the origin), turned by psi about Y',
// phi about X' and theta about Z' in M&K's primed frame (their Appendix)
//     Z' = n = (b0 - a0) x (c0 - a0) / |...|  (normal to the old triangle),
//     X' = a1 x Z' / |...|,  Y' = Z' x X'     (a1 relative to the new centre).
// The constraint forces act along the old bonds, in the old plane, so every
// Z' coordinate keeps its predicted value (M&K: the z' equations for phi, psi):
//     z_a1 = ra sin(phi),  z_b1 - z_c1 = 2 rc sin(psi) cos(phi),
// and, pair forces having no torque about the old positions, the Z'
// component of sum_a m_a x0_a x (x3_a - x1_a) vanishes (M&K's alpha, beta,
// gamma equation for theta, written here with the masses kept): with x2 the triangle after psi and
// phi,
//     P cos(theta) + Q sin(theta) = Gamma,
//     P = sum_a m_a (x0_a y2_a - y0_a x2_a),  Q = sum_a m_a (x0_a x2_a + y0_a y2_a),
//     Gamma = sum_a m_a (x0_a y1_a - y0_a x1_a),
// whose root nearest theta = 0 is
//     sin(theta) = (Q Gamma - P s) / (P^2 + Q^2),  cos(theta) = (P Gamma + Q s) / (P^2 + Q^2),
//     s = sqrt(P^2 + Q^2 - Gamma^2)    (M&K's sin(theta) with the root near 0).
//
// settle_multipliers turns the displacement into SHAKE's multipliers g_k
// along the old bond vectors r_0 = a0 - b0, r_1 = a0 - c0, r_2 = b0 - c0 (the
// order of cluster_constraints(angle3)), m_a (x3_a - x1_a) = sum_k (delta_{a,i_k}
// - delta_{a,j_k}) g_k r_k: from the oxygen's displacement D_0 = g_0 r_0 +
// g_1 r_1 and the first hydrogen's D_1 = -g_0 r_0 + g_2 r_2, with
// n = r_0 x r_1 (and r_2 x r_0 = -n),
//     g_0 = (D_0 x r_1) . n / n^2,  g_1 = (r_0 x D_0) . n / n^2,  g_2 = -(D_1 x r_0) . n / n^2,
// so SETTLE's constraint forces, corrections and virial are shake.hpp's.
//
// Positions are unwrapped in one frame (the caller takes minimum images).
// Pure functions: no MPI, no allocation, no I/O.
#pragma once

#include "kernels/md/shake.hpp"

namespace cb::kernels::md {

namespace detail {

// u / |u|; false when u is zero or not finite.
KOKKOS_INLINE_FUNCTION bool normalize3(double u[3]) {
  const double n = cb::math::sqrt(dot(u, u));
  if (!(n > 0.0) || !cb::math::isfinite(n)) return false;
  for (int d = 0; d < 3; ++d) u[d] /= n;
  return true;
}

}  // namespace detail

// SETTLE's constrained positions x_new of the water (O, H1, H2) from the old
// positions x_old and the predictions x_pred (header). mass[1] must equal
// mass[2]. False (x_new undefined) when the old triangle is degenerate or the
// prediction is too far from the constraints for a rigid triangle to reach
// (|sin phi| or |sin psi| above 1, or no real theta).
KOKKOS_INLINE_FUNCTION bool settle_positions(const double x_old[][3], const double x_pred[][3],
                                             const double mass[], double d_OH, double d_HH,
                                             double x_new[][3]) {
  using detail::dot;
  const double total = mass[0] + mass[1] + mass[2];
  const double rc = 0.5 * d_HH;
  const double h = cb::math::sqrt(d_OH * d_OH - rc * rc);
  const double ra = 2.0 * mass[1] * h / total, rb = h - ra;

  // Old and predicted positions relative to their centres of mass.
  double com_old[3], com_new[3], x0[3][3], x1[3][3];
  for (int d = 0; d < 3; ++d) {
    com_old[d] = (mass[0] * x_old[0][d] + mass[1] * x_old[1][d] + mass[2] * x_old[2][d]) / total;
    com_new[d] = (mass[0] * x_pred[0][d] + mass[1] * x_pred[1][d] + mass[2] * x_pred[2][d]) / total;
  }
  for (int a = 0; a < 3; ++a)
    for (int d = 0; d < 3; ++d) {
      x0[a][d] = x_old[a][d] - com_old[d];
      x1[a][d] = x_pred[a][d] - com_new[d];
    }

  // The frame X', Y', Z'.
  double ab[3], ac[3], ex[3], ey[3], ez[3];
  for (int d = 0; d < 3; ++d) {
    ab[d] = x0[1][d] - x0[0][d];
    ac[d] = x0[2][d] - x0[0][d];
  }
  detail::cross(ab, ac, ez);
  if (!detail::normalize3(ez)) return false;
  detail::cross(x1[0], ez, ex);
  if (!detail::normalize3(ex)) return false;
  detail::cross(ez, ex, ey);

  // Coordinates in that frame (old ones in-plane only).
  double p0[3][2], p1[3][3];
  for (int a = 0; a < 3; ++a) {
    p0[a][0] = dot(x0[a], ex);
    p0[a][1] = dot(x0[a], ey);
    p1[a][0] = dot(x1[a], ex);
    p1[a][1] = dot(x1[a], ey);
    p1[a][2] = dot(x1[a], ez);
  }

  // phi and psi from the Z' coordinates.
  const double sin_phi = p1[0][2] / ra;
  if (!(cb::math::fabs(sin_phi) <= 1.0)) return false;
  const double cos_phi = cb::math::sqrt(1.0 - sin_phi * sin_phi);
  const double sin_psi = (p1[1][2] - p1[2][2]) / (2.0 * rc * cos_phi);
  if (!(cb::math::fabs(sin_psi) <= 1.0)) return false;
  const double cos_psi = cb::math::sqrt(1.0 - sin_psi * sin_psi);

  // The triangle after psi and phi.
  double p2[3][3] = {{0.0, ra * cos_phi, ra * sin_phi},
                     {-rc * cos_psi, -rb * cos_phi - rc * sin_psi * sin_phi,
                      -rb * sin_phi + rc * sin_psi * cos_phi},
                     {rc * cos_psi, -rb * cos_phi + rc * sin_psi * sin_phi,
                      -rb * sin_phi - rc * sin_psi * cos_phi}};

  // theta from the torque about Z'.
  double P = 0.0, Q = 0.0, Gamma = 0.0;
  for (int a = 0; a < 3; ++a) {
    P += mass[a] * (p0[a][0] * p2[a][1] - p0[a][1] * p2[a][0]);
    Q += mass[a] * (p0[a][0] * p2[a][0] + p0[a][1] * p2[a][1]);
    Gamma += mass[a] * (p0[a][0] * p1[a][1] - p0[a][1] * p1[a][0]);
  }
  const double r2 = P * P + Q * Q;
  const double s2 = r2 - Gamma * Gamma;
  if (!(r2 > 0.0) || !(s2 >= 0.0)) return false;
  const double s = cb::math::sqrt(s2);
  const double sin_theta = (Q * Gamma - P * s) / r2, cos_theta = (P * Gamma + Q * s) / r2;

  for (int a = 0; a < 3; ++a) {
    const double x = p2[a][0] * cos_theta - p2[a][1] * sin_theta;
    const double y = p2[a][0] * sin_theta + p2[a][1] * cos_theta;
    for (int d = 0; d < 3; ++d) x_new[a][d] = com_new[d] + x * ex[d] + y * ey[d] + p2[a][2] * ez[d];
  }
  for (int a = 0; a < 3; ++a)
    for (int d = 0; d < 3; ++d)
      if (!cb::math::isfinite(x_new[a][d])) return false;
  return true;
}

// SHAKE's multipliers g[k] of an angle3 cluster (O, H1, H2), exactly, by
// SETTLE (header): inv_mass[1] == inv_mass[2] and length[0] == length[1]
// (d_OH), length[2] = d_HH. converged is false, g zero, where
// settle_positions fails; iterations is 1.
KOKKOS_INLINE_FUNCTION ShakeResult settle_multipliers(const double x_old[][3],
                                                      const double x_pred[][3],
                                                      const double inv_mass[],
                                                      const double length[], double g[]) {
  using detail::dot;
  const double mass[3] = {1.0 / inv_mass[0], 1.0 / inv_mass[1], 1.0 / inv_mass[2]};
  double x_new[3][3];
  ShakeResult result;
  result.iterations = 1;
  for (int k = 0; k < max_cluster_constraints; ++k) g[k] = 0.0;
  if (!settle_positions(x_old, x_pred, mass, length[0], length[2], x_new)) return result;
  double r0[3], r1[3], D0[3], D1[3], n[3], t[3];
  for (int d = 0; d < 3; ++d) {
    r0[d] = x_old[0][d] - x_old[1][d];
    r1[d] = x_old[0][d] - x_old[2][d];
    D0[d] = mass[0] * (x_new[0][d] - x_pred[0][d]);
    D1[d] = mass[1] * (x_new[1][d] - x_pred[1][d]);
  }
  detail::cross(r0, r1, n);
  const double n2 = dot(n, n);
  if (!(n2 > 0.0)) return result;
  detail::cross(D0, r1, t);
  g[0] = dot(t, n) / n2;
  detail::cross(r0, D0, t);
  g[1] = dot(t, n) / n2;
  detail::cross(D1, r0, t);
  g[2] = -dot(t, n) / n2;
  result.converged = true;
  return result;
}

}  // namespace cb::kernels::md
