// Exact solutions of dq/dt + u . grad q = kappa lap q on a periodic box, as
// cell averages, for the scalar cases. Device functions on a by-value struct.
#pragma once

#include "core/kokkos_compat.hpp"
#include "kernels/quadrature.hpp"

namespace cb::scalar {

struct ExactSolution {
  int gaussian;   // 0: sine, 1: gaussian
  int active[3];  // 1 on axes with more than one cell
  double lo[3], length[3], velocity[3];
  double kappa, mean, amplitude;
  double wavenumber[3];     // 2 pi waves_d / L_d (sine)
  double center[3], width;  // gaussian
};

// Sine: q = mean + A sin(k . (x - u t)) exp(-kappa |k|^2 t). Its average over a
// cell of sides h_d is the centre value times prod_d sinc(k_d h_d / 2).
KOKKOS_INLINE_FUNCTION double sine_cell_average(const ExactSolution& e, const double xc[3],
                                                const double h[3], double t) {
  double phase = 0.0, k2 = 0.0, filter = 1.0;
  for (int d = 0; d < 3; ++d) {
    const double k = e.wavenumber[d];
    phase += k * (xc[d] - e.lo[d] - e.velocity[d] * t);
    k2 += k * k;
    if (k != 0.0) filter *= math::sin(0.5 * k * h[d]) / (0.5 * k * h[d]);
  }
  return e.mean + e.amplitude * math::sin(phase) * math::exp(-e.kappa * k2 * t) * filter;
}

// Gaussian pulse of variance width^2 advected with u and spread by diffusion:
// variance width^2 + 2 kappa t per axis, peak scaled to conserve mass. The
// pulse is a product of 1-D profiles, so its cell average is the product of
// their 1-D cell averages, each by 3-point Gauss-Legendre quadrature (error
// O(h^6), far below the scheme's O(h^2)) over the nearest periodic images
// (-1, 0, +1 boxes).
KOKKOS_INLINE_FUNCTION double gaussian_axis_average(const ExactSolution& e, int d, double xc,
                                                    double h, double variance, double t) {
  double c = e.center[d] + e.velocity[d] * t - e.lo[d];
  c -= e.length[d] * math::floor(c / e.length[d]);
  double sum = 0.0;
  for (int q = 0; q < 3; ++q) {
    for (int image = -1; image <= 1; ++image) {
      const double r = xc + h * kernels::gauss3_node(q) - e.lo[d] - c - image * e.length[d];
      sum += kernels::gauss3_weight(q) * math::exp(-0.5 * r * r / variance);
    }
  }
  return sum;
}

KOKKOS_INLINE_FUNCTION double gaussian_cell_average(const ExactSolution& e, const double xc[3],
                                                    const double h[3], double t) {
  const double variance = e.width * e.width + 2.0 * e.kappa * t;
  double value = e.amplitude;
  for (int d = 0; d < 3; ++d) {
    if (!e.active[d]) continue;
    value *= math::sqrt(e.width * e.width / variance) *
             gaussian_axis_average(e, d, xc[d], h[d], variance, t);
  }
  return e.mean + value;
}

KOKKOS_INLINE_FUNCTION double exact_cell_average(const ExactSolution& e, const double xc[3],
                                                 const double h[3], double t) {
  return e.gaussian ? gaussian_cell_average(e, xc, h, t) : sine_cell_average(e, xc, h, t);
}

}  // namespace cb::scalar
