// Turbulent diffusion of the weather solver (docs/solvers/weather.md §12): the eddy viscosity
// of the Smagorinsky (1963, Mon. Wea. Rev. 91:99) - Lilly (1967, Proc. IBM Sci. Comp. Symp.
// Environ. Sci., 195) closure, K = (Cs Delta)^2 |S|, and the flux-form diffusion
// -rho K d(q - q_bar)/dn of the moist tracers' mixing ratios through a face. The momentum and
// theta' diffusion share kernels/weather/flux.hpp diffusive_flux, with K in FluxParams.
#pragma once

#include "kernels/weather/euler.hpp"

namespace cb::kernels::weather {

// Velocity gradient of a cell, grad[a][b] = d u_b / d x_a (x, y, z).
using VelocityGradient = Kokkos::Array<Kokkos::Array<real, 3>, 3>;

// Centred difference (hi - lo) / (2 h) of a cell's neighbours along an axis.
KOKKOS_INLINE_FUNCTION real centred_difference(real lo, real hi, real h) {
  return (hi - lo) / (2 * h);
}

// Magnitude of the deformation, |S| = sqrt(2 S_ab S_ab) with S_ab = (d_a u_b + d_b u_a) / 2
// (Smagorinsky 1963; Lilly 1967). A uniform flow or solid-body translation gives 0; a shear
// u = s z gives |s|.
KOKKOS_INLINE_FUNCTION real deformation(const VelocityGradient& grad) {
  real sum = 0;
  for (int a = 0; a < 3; ++a) {
    for (int b = 0; b < 3; ++b) {
      const real s = (grad[a][b] + grad[b][a]) / 2;
      sum += s * s;
    }
  }
  return math::sqrt(2 * sum);
}

// Filter length Delta = (dx dy dz)^(1/3) in 3-D, (dx dz)^(1/2) in 2-D (Deardorff 1970's mean
// spacing).
KOKKOS_INLINE_FUNCTION double filter_length(double dx, double dy, double dz, bool three_d) {
  return three_d ? math::pow(dx * dy * dz, 1.0 / 3) : math::sqrt(dx * dz);
}

// Largest eddy viscosity an explicit step of length dt takes on spacing h_min: the bound
// K dt / h_min^2 <= 1/4 of the solver's constant diffusion (solvers/weather/params.cpp).
KOKKOS_INLINE_FUNCTION double diffusion_k_limit(double h_min, double dt) {
  return 0.25 * h_min * h_min / dt;
}

// Smagorinsky eddy viscosity (Cs Delta)^2 |S|, clipped to k_max (the stability bound).
KOKKOS_INLINE_FUNCTION real smagorinsky_viscosity(real cs, real delta, real strain, real k_max) {
  const real k = cs * delta * cs * delta * strain;
  return k < k_max ? k : k_max;
}

// Eddy viscosity at a face from the cells beside it: their mean.
KOKKOS_INLINE_FUNCTION real face_viscosity(real k_lo, real k_hi) {
  return (k_lo + k_hi) / 2;
}

// Diffusive flux of a tracer mixing ratio q through a face between cells lo and hi at spacing
// h, face density rho and diffusivity k: -rho k ((q_hi - q_bar_hi) - (q_lo - q_bar_lo)) / h,
// the perturbation about the background's mixing ratio q_bar (0 without water dynamics), as
// theta' is diffused about theta_bar.
KOKKOS_INLINE_FUNCTION real tracer_diffusive_flux(real q_lo, real q_hi, real q_bar_lo,
                                                  real q_bar_hi, real rho, real k, real h) {
  return -rho * k * ((q_hi - q_bar_hi) - (q_lo - q_bar_lo)) / h;
}

}  // namespace cb::kernels::weather
