// Cell tendencies of one directional Runge-Kutta stage of the weather solver
// (docs/solvers/weather.md §1-2; miniWeather compute_tendencies_x/z and
// semi_discrete_step): the finite-volume flux difference, the buoyancy of the
// perturbation density, the gravity_waves momentum forcing, and the stage
// update q_out = q_init + dt_stage R.
#pragma once

#include "kernels/weather/flux.hpp"
#include "kernels/weather/moist.hpp"

namespace cb::kernels::weather {

// Buoyancy -rho' g: the source of rho w once the hydrostatic balance
// dp_bar/dz = -rho_bar g has been subtracted.
KOKKOS_INLINE_FUNCTION real buoyancy(real rho_pert) {
  return -rho_pert * real(grav);
}

// Tendency of each variable of a cell along `axis` from the fluxes through its
// low and high faces: -(F_high - F_low) / h, plus the buoyancy on rho w in the
// vertical sweep (axis 2).
KOKKOS_INLINE_FUNCTION Vars sweep_tendency(const Vars& f_low, const Vars& f_high, real h,
                                           real rho_pert, int axis) {
  Vars tendency;
  for (int v = 0; v < 5; ++v) tendency[v] = -(f_high[v] - f_low[v]) / h;
  if (axis == 2) tendency[wmom] += buoyancy(rho_pert);
  return tendency;
}

// Momentum source of a prescribed vertical acceleration a acting on the
// background density: rho_bar a (the gravity_waves forcing).
KOKKOS_INLINE_FUNCTION real momentum_forcing(real acceleration, real rho_bar) {
  return acceleration * rho_bar;
}

// One low-storage RK stage: q_init + dt_stage * tendency.
KOKKOS_INLINE_FUNCTION real stage_update(real q_init, real dt_stage, real tendency) {
  return q_init + dt_stage * tendency;
}

}  // namespace cb::kernels::weather
