// Reconstruction of one primitive variable at the face between cells c-1 and
// c from the cell values q[0..5] = cells c-3 .. c+2: the left state (from the
// cell c-1 side) and the right state (from the cell c side).
#pragma once

#include "kernels/limiters.hpp"

namespace cb::kernels::cfd {

enum class Reconstruction : int { constant, muscl, weno5 };

// Ghost layers each reconstruction reads beyond the cells beside a face.
constexpr int stencil_halo(Reconstruction r) {
  return r == Reconstruction::weno5 ? 3 : r == Reconstruction::muscl ? 2 : 1;
}

struct FaceValues {
  real left, right;
};

KOKKOS_INLINE_FUNCTION FaceValues reconstruct_constant(const real q[6]) {
  return {q[2], q[3]};
}

// MUSCL: cell-centred limited slopes (van Leer 1979; Toro 2009 §13.4),
// q_{c-1} + slope_{c-1} / 2 and q_c - slope_c / 2.
KOKKOS_INLINE_FUNCTION FaceValues reconstruct_muscl(const real q[6], Limiter limiter) {
  const real slope_left = limited_slope(limiter, q[2] - q[1], q[3] - q[2]);
  const real slope_right = limited_slope(limiter, q[3] - q[2], q[4] - q[3]);
  return {q[2] + real(0.5) * slope_left, q[3] - real(0.5) * slope_right};
}

// MUSCL at a face next to a body, where the outer cell of a state's stencil
// may be across a wall (that side closed): a closed side is first order.
KOKKOS_INLINE_FUNCTION FaceValues reconstruct_muscl_near_wall(const real q[6], Limiter limiter,
                                                              bool open_left, bool open_right) {
  const FaceValues muscl = reconstruct_muscl(q, limiter);
  return {open_left ? muscl.left : q[2], open_right ? muscl.right : q[3]};
}

// Fifth-order WENO value at the right face of the middle cell of a, b, c, d, e
// with the smoothness indicators and linear weights 1/10, 6/10, 3/10 of Jiang &
// Shu (1996), J. Comput. Phys. 126:202, eqs. 2.10-2.17, epsilon = 1e-6.
KOKKOS_INLINE_FUNCTION real weno5_face(real a, real b, real c, real d, real e) {
  const real eps = real(1e-6);
  const real q0 = (real(2) * a - real(7) * b + real(11) * c) / real(6);
  const real q1 = (-b + real(5) * c + real(2) * d) / real(6);
  const real q2 = (real(2) * c + real(5) * d - e) / real(6);
  const real t0 = a - real(2) * b + c, s0 = a - real(4) * b + real(3) * c;
  const real t1 = b - real(2) * c + d, s1 = b - d;
  const real t2 = c - real(2) * d + e, s2 = real(3) * c - real(4) * d + e;
  const real beta0 = real(13) / real(12) * t0 * t0 + real(0.25) * s0 * s0;
  const real beta1 = real(13) / real(12) * t1 * t1 + real(0.25) * s1 * s1;
  const real beta2 = real(13) / real(12) * t2 * t2 + real(0.25) * s2 * s2;
  const real alpha0 = real(0.1) / ((eps + beta0) * (eps + beta0));
  const real alpha1 = real(0.6) / ((eps + beta1) * (eps + beta1));
  const real alpha2 = real(0.3) / ((eps + beta2) * (eps + beta2));
  return (alpha0 * q0 + alpha1 * q1 + alpha2 * q2) / (alpha0 + alpha1 + alpha2);
}

KOKKOS_INLINE_FUNCTION FaceValues reconstruct_weno5(const real q[6]) {
  return {weno5_face(q[0], q[1], q[2], q[3], q[4]), weno5_face(q[5], q[4], q[3], q[2], q[1])};
}

// Numerical flux at the face between points c-1 and c of the conservative
// finite-difference WENO5 scheme (Shu & Osher 1989; Jiang & Shu 1996 §2.3) for
// one component, from the point values u[0..5] and fluxes f[0..5] at c-3 .. c+2:
// Lax-Friedrichs splitting f± = (f ± alpha u) / 2, the f+ part reconstructed
// from the left, the f- part from the right, as if they were cell averages.
KOKKOS_INLINE_FUNCTION real weno5_split_flux(const real u[6], const real f[6], real alpha) {
  real plus[6], minus[6];
  for (int m = 0; m < 6; ++m) {
    plus[m] = real(0.5) * (f[m] + alpha * u[m]);
    minus[m] = real(0.5) * (f[m] - alpha * u[m]);
  }
  return reconstruct_weno5(plus).left + reconstruct_weno5(minus).right;
}

KOKKOS_INLINE_FUNCTION FaceValues reconstruct(Reconstruction r, Limiter limiter, const real q[6]) {
  switch (r) {
    case Reconstruction::muscl:
      return reconstruct_muscl(q, limiter);
    case Reconstruction::weno5:
      return reconstruct_weno5(q);
    case Reconstruction::constant:
      break;
  }
  return reconstruct_constant(q);
}

}  // namespace cb::kernels::cfd
