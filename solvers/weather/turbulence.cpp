// Launch site of the Smagorinsky eddy viscosity (kernels/weather/diffusion.hpp,
// docs/solvers/weather.md §12): K = (Cs Delta)^2 |S| per owned cell, |S| from centred
// differences of the cell velocities (their ghosts filled), clipped to the stability bound of
// the step.
#include "kernels/weather/diffusion.hpp"
#include "solvers/weather/solver.hpp"

#include <algorithm>

namespace cb::weather {
namespace {

using kernels::weather::Var;
using Velocity = Kokkos::Array<real, 3>;

// Velocity (x, y, z) of padded cell (k, j, i): momentum over total density; v = 0 in 2-D.
KOKKOS_FORCEINLINE_FUNCTION Velocity cell_velocity(const Field& s, const Column& r, int k, int j,
                                                   int i, bool three_d) {
  const real rho = s(Var::dens, k, j, i) + real(r(k));
  return {s(Var::umom, k, j, i) / rho, three_d ? s(Var::vmom, k, j, i) / rho : real(0),
          s(Var::wmom, k, j, i) / rho};
}

}  // namespace

void WeatherSolver::compute_eddy_viscosity(double dt) {
  const Field s = state_, eddy = eddy_;
  const Column r = hy_dens_cell_;
  const bool three_d = params_.three_d();
  const GridGeometry& g = params_.geometry;
  const Kokkos::Array<real, 3> h = {real(g.spacing(0)), real(g.spacing(1)), real(g.spacing(2))};
  const real cs = real(params_.turbulence.cs);
  const real delta =
      real(kernels::weather::filter_length(g.spacing(0), g.spacing(1), g.spacing(2), three_d));
  // K and K / Pr both within the bound
  const real k_max = real(kernels::weather::diffusion_k_limit(min_spacing(params_), dt) *
                          std::min(1.0, params_.turbulence.prandtl));
  Kokkos::parallel_for(
      "weather::eddy_viscosity", owned_cells(decomposition_.local_cells(), ghost_),
      KOKKOS_LAMBDA(int k, int j, int i) {
        kernels::weather::VelocityGradient grad{};
        for (int a = 0; a < 3; ++a) {
          const int di = a == 0, dj = a == 1, dk = a == 2;
          for (int b = 0; b < 3; ++b) grad[a][b] = 0;
          if (a == 1 && !three_d) continue;
          const Velocity lo = cell_velocity(s, r, k - dk, j - dj, i - di, three_d);
          const Velocity hi = cell_velocity(s, r, k + dk, j + dj, i + di, three_d);
          for (int b = 0; b < 3; ++b)
            grad[a][b] = kernels::weather::centred_difference(lo[b], hi[b], h[a]);
        }
        eddy(0, k, j, i) = kernels::weather::smagorinsky_viscosity(
            cs, delta, kernels::weather::deformation(grad), k_max);
      });
}

}  // namespace cb::weather
