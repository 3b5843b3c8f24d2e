// Launch sites of the directional flux and tendency kernels.
#include "solvers/weather/tendencies.hpp"

namespace cb::weather {
namespace {

using kernels::weather::Var;
using Policy3 = Kokkos::MDRangePolicy<ExecSpace, Kokkos::Rank<3>>;

// The faces along `axis` of the owned cells: one more than cells along it.
Policy3 owned_faces(const Int3& n, const Int3& g, int axis) {
  Int3 end{g[0] + n[0], g[1] + n[1], g[2] + n[2]};
  end[axis] += 1;
  return Policy3({g[2], g[1], g[0]}, {end[2], end[1], end[0]});
}

}  // namespace

void WeatherSolver::compute_fluxes(const Field& state, int axis, double dt) {
  FluxKernel p{};
  p.axis = axis;
  p.nvars = params_.variables();
  p.h = params_.geometry.spacing(axis);
  p.hv = kernels::weather::hyperviscosity(params_.hv_beta, p.h, dt);
  p.viscosity = params_.viscosity;
  p.diffusivity = params_.diffusivity;
  p.grid = local_grid();
  const Field s = state, flux = flux_;
  const Column r = hy_dens_cell_, rt = hy_dens_theta_cell_;
  const Column r_int = hy_dens_int_, rt_int = hy_dens_theta_int_, p_int = hy_pressure_int_;
  Kokkos::parallel_for(
      "weather::fluxes", owned_faces(decomposition_.local_cells(), ghost_, axis),
      KOKKOS_LAMBDA(int k, int j, int i) {
        double f[5];
        face_flux(s, r, rt, r_int, rt_int, p_int, k, j, i, p, f);
        for (int v = 0; v < p.nvars; ++v) flux(v, k, j, i) = f[v];
      });
}

// out = init + dt * (-(F_high - F_low) / h + sources): gravity in the vertical
// step, and the gravity_waves case's momentum forcing in every step.
void WeatherSolver::apply_tendencies(const Field& init, const Field& forcing, const Field& out,
                                     int axis, double dt) {
  const Field s0 = init, s = forcing, s1 = out, flux = flux_;
  const Column hy_r = hy_dens_cell_;
  const int di = axis == 0, dj = axis == 1, dk = axis == 2;
  const double h = params_.geometry.spacing(axis);
  const int nvars = params_.variables();
  const bool forced = setup_.kind == Case::gravity_waves;
  const CaseSetup c = setup_;
  const LocalGrid grid = local_grid();
  Kokkos::parallel_for(
      "weather::apply_tendencies", owned_cells(decomposition_.local_cells(), ghost_),
      KOKKOS_LAMBDA(int k, int j, int i) {
        const double rho = s(Var::dens, k, j, i);
        for (int v = 0; v < nvars; ++v) {
          double tend = -(flux(v, k + dk, j + dj, i + di) - flux(v, k, j, i)) / h;
          if (v == Var::wmom) {
            if (dk) tend = tend - rho * kernels::weather::grav;
            if (forced) {
              tend += gravity_wave_forcing(c, grid.center(0, i), grid.center(1, j),
                                           grid.center(2, k)) * hy_r(k);
            }
          }
          s1(v, k, j, i) = s0(v, k, j, i) + dt * tend;
        }
      });
}

}  // namespace cb::weather
