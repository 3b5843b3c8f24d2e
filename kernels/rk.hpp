// Strong-stability-preserving Runge-Kutta schemes in Shu-Osher form
// (Gottlieb, Shu & Tadmor 2001, SIAM Rev. 43:89, eqs. 4.1 and 4.2):
//   u^(s) = a0 u^n + a1 u^(s-1) + b dt L(u^(s-1)).
#pragma once

#include <Kokkos_Core.hpp>

namespace cb::kernels {

struct SspStage {
  double a0;  // weight of the state at the start of the step
  double a1;  // weight of the previous stage
  double b;   // weight of dt * L(previous stage)
};

enum class TimeIntegrator : int { ssp_rk2, ssp_rk3 };

struct SspScheme {
  int stages;
  SspStage stage[3];
};

// SSP-RK2 (Heun) and SSP-RK3 (Shu & Osher 1988).
inline SspScheme ssp_scheme(TimeIntegrator integrator) {
  if (integrator == TimeIntegrator::ssp_rk2) {
    return {2, {{1.0, 0.0, 1.0}, {0.5, 0.5, 0.5}, {0.0, 0.0, 0.0}}};
  }
  return {3, {{1.0, 0.0, 1.0}, {0.75, 0.25, 0.25}, {1.0 / 3.0, 2.0 / 3.0, 2.0 / 3.0}}};
}

template <class T>
KOKKOS_INLINE_FUNCTION T ssp_update(const SspStage& s, T u0, T u_prev, T rhs, T dt) {
  return T(s.a0) * u0 + T(s.a1) * u_prev + T(s.b) * dt * rhs;
}

}  // namespace cb::kernels
