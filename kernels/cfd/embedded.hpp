// Cut-cell (embedded-boundary) kernels of the CFD solver (docs/solvers/cfd.md
// §7): the pressure on a wall, the normal derivative at a wall of a quantity
// that vanishes there and the viscous stress on a no-slip wall (flux
// redistribution: Colella, Graves, Keen & Modiano 2006, J. Comput. Phys.
// 211:347-366, §3.3; Pember et al. 1995, J. Comput. Phys. 120:278-304).
#pragma once

#include "kernels/cfd/state.hpp"

namespace cb::kernels::cfd {

// A body's wall: isothermal at `temperature` (> 0) or adiabatic, and its
// surface's rigid motion V + omega x (x - center). The body stays where it
// is, so only the motion along the wall counts (a belt, a spinning cylinder).
struct BodyWall {
  double temperature = 0.0;
  double velocity[3] = {0, 0, 0};
  double angular_velocity[3] = {0, 0, 0};
  double center[3] = {0, 0, 0};
};

KOKKOS_INLINE_FUNCTION void rigid_wall_velocity(const BodyWall& wall, const double x[3],
                                                double out[3]) {
  const double* w = wall.angular_velocity;
  const double r[3] = {x[0] - wall.center[0], x[1] - wall.center[1], x[2] - wall.center[2]};
  out[0] = wall.velocity[0] + w[1] * r[2] - w[2] * r[1];
  out[1] = wall.velocity[1] + w[2] * r[0] - w[0] * r[2];
  out[2] = wall.velocity[2] + w[0] * r[1] - w[1] * r[0];
}

// The pressure on a slip wall at rest whose unit normal n points into the
// fluid: the star pressure of the reflecting Riemann problem between w and
// its mirror image (normal velocity reversed). Fluid leaving the wall
// (u.n > 0): the exact two-rarefaction solution, p (1 - (gamma-1)/2 u_n/c)^
// (2 gamma/(gamma-1)) (Toro 2009, eq. 4.46), zero if the gas cavitates;
// fluid moving into the wall: the linearised (PVRS) estimate p - rho c u_n
// (Toro 2009, eq. 9.20). At rest on the wall, p itself.
KOKKOS_INLINE_FUNCTION real wall_pressure(const Primitive& w, const real n[3], real gamma) {
  const real un = w.vel[0] * n[0] + w.vel[1] * n[1] + w.vel[2] * n[2];
  const real c = sound_speed(w, gamma);
  if (un <= real(0)) return w.p - w.rho * c * un;
  const real base = real(1) - real(0.5) * (gamma - real(1)) * un / c;
  if (base <= real(0)) return real(0);
  return w.p * math::pow(base, real(2) * gamma / (gamma - real(1)));
}

// The normal derivative at a wall of a quantity f that vanishes there (the
// velocity relative to the wall, T - T_w), from samples f1 and f2 at
// distances d1 < d2 from it: f'(0) = near f1 - far f2. Two samples: the
// derivative of the parabola through (0, 0), (d1, f1) and (d2, f2), exact for
// a quadratic profile (as the two-point normal stencil of Schwartz, Barad,
// Colella & Ligocki 2006, J. Comput. Phys. 211:531, for a Dirichlet wall);
// one sample (far = 0): f1 / d1, exact for a linear profile.
struct WallStencil {
  real near, far;
};

KOKKOS_INLINE_FUNCTION WallStencil one_point_wall_stencil(real d1) {
  return {real(1) / d1, real(0)};
}

KOKKOS_INLINE_FUNCTION WallStencil two_point_wall_stencil(real d1, real d2) {
  const real gap = d2 - d1;
  return {d2 / (d1 * gap), d1 / (d2 * gap)};
}

// The viscous stress tau . n on a no-slip wall (unit normal n into the fluid)
// from the normal derivative g there of the velocity relative to the body's
// rigid motion (which has no stress). That relative velocity vanishes on the
// wall, so its tangential derivatives do too and grad u = g n^T; with the
// Stokes hypothesis (kernels/cfd/viscous.hpp)
// tau . n = mu (g + (g . n) n / 3). The wall gives the fluid -tau . n per unit area.
KOKKOS_INLINE_FUNCTION void wall_shear_stress(const real g[3], const real n[3], real mu,
                                              real out[3]) {
  const real normal = (g[0] * n[0] + g[1] * n[1] + g[2] * n[2]) / real(3);
  for (int d = 0; d < 3; ++d) out[d] = mu * (g[d] + normal * n[d]);
}

}  // namespace cb::kernels::cfd
