// Point-wise fluxes of the linear advection-diffusion equation
//   dq/dt + div(a q) = kappa lap(q),
// for a finite-volume face between cells "minus" and "plus" along one axis.
#pragma once

#include "kernels/limiters.hpp"

namespace cb::kernels {

// Upwind MUSCL advective flux a * q_face through the face between q_m1 and
// q_p0, from the four cells q_m2, q_m1 | q_p0, q_p1 (van Leer 1979): the state
// is reconstructed linearly in the upwind cell and evaluated at the face.
template <class T>
KOKKOS_INLINE_FUNCTION T advective_flux_muscl(T q_m2, T q_m1, T q_p0, T q_p1, T a,
                                              Limiter limiter) {
  if (a >= T(0)) {
    const T slope = limited_slope(limiter, q_m1 - q_m2, q_p0 - q_m1);
    return a * (q_m1 + T(0.5) * slope);
  }
  const T slope = limited_slope(limiter, q_p0 - q_m1, q_p1 - q_p0);
  return a * (q_p0 - T(0.5) * slope);
}

// Central diffusive flux -kappa dq/dx through the face (second order).
template <class T>
KOKKOS_INLINE_FUNCTION T diffusive_flux_central(T q_m1, T q_p0, T kappa, T dx) {
  return -kappa * (q_p0 - q_m1) / dx;
}

}  // namespace cb::kernels
