// Gravity-wave absorbing layer under the rigid top of the weather solver
// (docs/solvers/weather.md §15): the implicit Rayleigh damping of the vertical velocity alone
// of Klemp, Dudhia & Hassiotis (2008), Mon. Wea. Rev. 136:3987 (WRF's damp_opt = 3). Damping
// w only leaves the mean wind and the stratification alone, so the layer needs no reference
// state, and the implicit form is stable for any rate and time step.
#pragma once

#include "core/kokkos_compat.hpp"

namespace cb::kernels::weather {

// Damping rate (1/s) at height z: gamma sin^2(pi/2 (1 - (z_top - z)/depth)) in the layer
// z_top - depth < z <= z_top, zero below; it rises smoothly from 0 at the layer's base to
// gamma at the top.
KOKKOS_INLINE_FUNCTION double sponge_rate(double z, double z_top, double depth, double gamma) {
  const double distance = z_top - z;  // below the top
  if (distance >= depth) return 0.0;
  const double s = math::sin(0.5 * math::pi * (1.0 - distance / depth));
  return gamma * s * s;
}

// rho w after a step dt of d(rho w)/dt = -rate rho w, taken backward (implicit) in time.
template <class T>
KOKKOS_INLINE_FUNCTION T damped_vertical_momentum(T rho_w, double rate, double dt) {
  return T(rho_w / (1.0 + dt * rate));
}

}  // namespace cb::kernels::weather
