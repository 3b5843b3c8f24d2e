// Cut-cell (embedded-boundary) kernels of the CFD solver (docs/solvers/cfd.md
// §7): the pressure on a slip wall and the neighbourhood sums of flux
// redistribution (Colella, Graves, Keen & Modiano 2006, J. Comput. Phys.
// 211:347-366, §3.3; Pember et al. 1995, J. Comput. Phys. 120:278-304).
#pragma once

#include "kernels/cfd/state.hpp"

namespace cb::kernels::cfd {

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

}  // namespace cb::kernels::cfd
