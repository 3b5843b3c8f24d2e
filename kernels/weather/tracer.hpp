// Advection of the moist tracers of the weather solver (densities rho q of water vapour, cloud
// and rain, q the mixing ratio per unit mass of dry air) with the dycore's scheme, in a form
// consistent with the mass flux, and Skamarock's (2006) positive-definite flux renormalisation
// (Mon. Wea. Rev. 134:2241, section 3): per cell, the outgoing fluxes of a stage are scaled
// down so that they cannot take out more than the cell holds; each face flux takes the factor
// of the cell it leaves, so the scheme stays conservative.
#pragma once

#include "kernels/weather/flux.hpp"

namespace cb::kernels::weather {

// Tracer flux through a face from the mixing ratios q of the four cells about it and the
// face's total mass flux F_rho (Euler plus hyperviscous, kernels/weather/flux.hpp face_flux):
// F_q = F_rho q_face - hv rho_face d3(q), q_face the fourth-order interface value and d3 the
// third difference (the dycore's interpolation and hyperviscosity, applied to q). A uniform q
// gives F_q = q F_rho, so the mixing ratio stays uniform; at a wall F_rho = 0 and the
// hyperviscous term is dropped, so no water crosses it. With water dynamics the hyperviscosity
// acts, like the dycore's, on the perturbation q - q_bar about the background's mixing ratios
// q_bar of the four cells, so that a resting background keeps its water; passive water passes
// q_bar = 0 (q - 0 is q bit for bit).
KOKKOS_INLINE_FUNCTION real tracer_face_flux(const Kokkos::Array<real, 4>& q,
                                             const Kokkos::Array<real, 4>& q_bar, real mass_flux,
                                             real rho_face, real hv, bool wall) {
  if (wall) return real(0);
  return mass_flux * interpolate4(q[0], q[1], q[2], q[3]) -
         hv * rho_face *
             third_difference(q[0] - q_bar[0], q[1] - q_bar[1], q[2] - q_bar[2], q[3] - q_bar[3]);
}

// Renormalisation factor of a cell holding tracer mass `density` (rho q at the start of the
// stage, >= 0) against its faces' fluxes along the sweep, for the update
// density - dt / h (F_high - F_low): the outflow dt / h (max(F_high, 0) - min(F_low, 0)),
// if larger than what the cell can give, is scaled to it (Skamarock 2006, eq. 8). The cell
// gives its mass less 16 ulps and less the smallest normal number: the rounding of the update
// is relative for normal numbers but absolute (half a subnormal step per operation) below
// them, so without the second margin a cell holding a few subnormals of rain could be left
// at -4.9e-324, and the microphysics' powers of it are NaN. A cell holding less than the
// smallest normal number gives nothing.
KOKKOS_INLINE_FUNCTION real outflow_factor(real density, real flux_low, real flux_high, real dt,
                                           real h) {
  const real outflow = dt / h * (math::max(flux_high, real(0)) - math::min(flux_low, real(0)));
  const real available = density * (1 - 16 * Kokkos::Experimental::epsilon<real>::value) -
                         Kokkos::Experimental::norm_min<real>::value;
  if (outflow <= available) return real(1);
  return available > 0 ? available / outflow : real(0);
}

// A face flux scaled by the factor of its upwind cell: `factor_low` of the cell below (or
// left of) the face when the flux is positive, `factor_high` of the cell above when negative.
KOKKOS_INLINE_FUNCTION real limited_flux(real flux, real factor_low, real factor_high) {
  return flux > 0 ? flux * factor_low : flux * factor_high;
}

}  // namespace cb::kernels::weather
