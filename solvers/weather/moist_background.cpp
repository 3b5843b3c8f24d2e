// The moist hydrostatic background and the initial state of moist-dynamics runs
// (docs/solvers/weather.md §10; solvers/weather/moist_background.hpp). So that a resting moist
// atmosphere stays at rest to round-off: the initial water of a cell is the background's
// centre value plus the quadrature of the perturbation (zero where the case does not perturb),
// the tracers' hyperviscosity acts on q - q_bar (kernels/weather/tracer.hpp), and the background
// pressure at a vertical face takes the vapour factor of the same fourth-
// order interpolation of the cells' mixing ratios that the fluxes use, with the wall ghosts'
// rule (water densities copied from the nearest interior cell) below the ground and above the
// top.
#include "solvers/weather/moist_background.hpp"

#include "kernels/quadrature.hpp"
#include "solvers/weather/tendencies.hpp"

#include <vector>

namespace cb::weather {

using kernels::gauss3_node, kernels::gauss3_weight;
using kernels::weather::Var;

namespace {

ColumnPoint advance(ColumnPoint y, double h, ColumnPoint k) {
  return {y.exner + h * k.exner, y.theta + h * k.theta};
}

Kokkos::View<double*, MemSpace> device_copy(const char* name, const std::vector<double>& host) {
  Kokkos::View<double*, MemSpace> v(std::string(name), host.size());
  Kokkos::deep_copy(v, Kokkos::View<const double*, Kokkos::HostSpace>(host.data(), host.size()));
  return v;
}

}  // namespace

ExnerTable make_exner_table(const CaseSetup& c, double z_lo, double z_hi, double dz) {
  const int below = int(std::ceil(-z_lo / dz)), above = int(std::ceil(z_hi / dz));
  const int n = below + above + 1;
  const bool integrates_theta = c.kind == Case::bryan_fritsch;
  std::vector<ColumnPoint> y(n), slope(n);
  // p = p0 at the ground, as the dry backgrounds; Bryan-Fritsch: saturated, theta_e = 320 K.
  y[below] = {1.0, integrates_theta
                       ? bryan_fritsch::saturated_theta(1.0, bryan_fritsch::theta_e, c.exact_thermo)
                       : 0.0};
  // Classical RK4 of dy/dz = f(z, y) from the ground, upwards (d = +1) then downwards.
  for (const int d : {1, -1}) {
    const double h = d * dz;
    for (int m = below; d > 0 ? m < n - 1 : m > 0; m += d) {
      const double z = (m - below) * dz;
      const ColumnPoint k1 = background_column_slope(c, z, y[m]);
      const ColumnPoint k2 = background_column_slope(c, z + h / 2, advance(y[m], h / 2, k1));
      const ColumnPoint k3 = background_column_slope(c, z + h / 2, advance(y[m], h / 2, k2));
      const ColumnPoint k4 = background_column_slope(c, z + h, advance(y[m], h, k3));
      y[m + d] = {y[m].exner + h / 6 * (k1.exner + 2 * k2.exner + 2 * k3.exner + k4.exner),
                  y[m].theta + h / 6 * (k1.theta + 2 * k2.theta + 2 * k3.theta + k4.theta)};
    }
  }
  for (int m = 0; m < n; ++m) slope[m] = background_column_slope(c, (m - below) * dz, y[m]);
  auto component = [&](const std::vector<ColumnPoint>& v, double ColumnPoint::*member) {
    std::vector<double> out(n);
    for (int m = 0; m < n; ++m) out[m] = v[m].*member;
    return out;
  };
  ExnerTable t{device_copy("weather::exner_table", component(y, &ColumnPoint::exner)),
               device_copy("weather::exner_slope", component(slope, &ColumnPoint::exner)),
               {},
               {},
               -below * dz,
               dz};
  if (integrates_theta) {
    t.theta = device_copy("weather::theta_table", component(y, &ColumnPoint::theta));
    t.theta_slope = device_copy("weather::theta_slope", component(slope, &ColumnPoint::theta));
  }
  return t;
}

// Cell-centre values (r, rho theta, the water densities) and face values (r, rho theta), then
// the face pressures from the interpolated centre mixing ratios.
void WeatherSolver::initialize_moist_background() {
  const LocalGrid grid = local_grid();
  const CaseSetup c = setup_;
  const double hz = params_.geometry.spacing(2);
  exner_table_ = make_exner_table(c, -4 * hz, params_.geometry.hi[2] + 4 * hz, hz / 16);
  const ExnerTable t = exner_table_;
  const Column r_cell = hy_dens_cell_, rt_cell = hy_dens_theta_cell_;
  const Column r_int = hy_dens_int_, rt_int = hy_dens_theta_int_, p_int = hy_pressure_int_;
  const WaterColumns water = hy_water_cell_;
  const int nk = int(r_cell.extent(0));
  Kokkos::parallel_for(
      "weather::moist_background", Kokkos::RangePolicy<ExecSpace>(0, nk + 1), KOKKOS_LAMBDA(int k) {
        if (k < nk) {
          const MoistPoint b = moist_background(c, t, grid.center(2, k));
          r_cell(k) = b.rho;
          rt_cell(k) = b.rho * b.theta;
          water(0, k) = b.rho * b.qv;
          water(1, k) = b.rho * b.qc;
          water(2, k) = 0.0;
        }
        const MoistPoint f = moist_background(c, t, (k + grid.shift[2]) * grid.h[2]);
        r_int(k) = f.rho;
        rt_int(k) = f.rho * f.theta;
        p_int(k) =
            kernels::weather::pressure(f.rho * f.theta * kernels::weather::vapour_factor(f.qv));
      });
  // Padded rows of the wall ghosts' interior cells (none: out of range).
  const int g = ghost_[2], n = decomposition_.local_cells()[2];
  const int wall_low = decomposition_.at_physical_boundary(2, 0) ? g : -1;
  const int wall_high = decomposition_.at_physical_boundary(2, 1) ? g + n - 1 : nk;
  // The mixing ratios rho q / (rho' + rho_bar) the state has at rest, in `real`, then the
  // face pressures from their interpolation.
  const WaterColumns ratio = hy_water_ratio_;
  Kokkos::parallel_for(
      "weather::moist_background_ratio", Kokkos::RangePolicy<ExecSpace>(0, nk),
      KOKKOS_LAMBDA(int k) {
        const int kw = k < wall_low ? wall_low : k > wall_high ? wall_high : k;
        for (int m = 0; m < moist_tracers; ++m)
          ratio(m, k) = real(water(m, kw)) / (real(0) + real(r_cell(k)));
      });
  Kokkos::parallel_for(
      "weather::moist_face_pressure", Kokkos::RangePolicy<ExecSpace>(g, g + n + 1),
      KOKKOS_LAMBDA(int k) {
        const real qv = kernels::weather::interpolate4(real(ratio(0, k - 2)), real(ratio(0, k - 1)),
                                                       real(ratio(0, k)), real(ratio(0, k + 1)));
        p_int(k) =
            kernels::weather::pressure(rt_int(k) * double(kernels::weather::vapour_factor(qv)));
      });
}

// Cell averages by 3-point Gauss-Legendre quadrature per axis in use, on the moist background;
// the water densities as the background's centre values plus the quadrature of perturbation.
void WeatherSolver::initialize_moist_state() {
  const LocalGrid grid = local_grid();
  const CaseSetup c = setup_;
  const ExnerTable t = exner_table_;
  const WaterColumns background_water = hy_water_cell_;
  const Field s = state_;
  const int ny_points = params_.three_d() ? 3 : 1;
  const int nvars = params_.dynamic_variables();
  Kokkos::parallel_for(
      "weather::initial_moist_state", owned_cells(decomposition_.local_cells(), ghost_),
      KOKKOS_LAMBDA(int k, int j, int i) {
        double sum[5] = {0, 0, 0, 0, 0}, water[moist_tracers] = {0, 0, 0};
        for (int kk = 0; kk < 3; ++kk) {
          const double z = grid.center(2, k) + gauss3_node(kk) * grid.h[2];
          const MoistPoint b = moist_background(c, t, z);
          for (int jj = 0; jj < ny_points; ++jj) {
            for (int ii = 0; ii < 3; ++ii) {
              const double x = grid.center(0, i) + gauss3_node(ii) * grid.h[0];
              const double y = ny_points > 1 ? grid.center(1, j) + gauss3_node(jj) * grid.h[1]
                                             : grid.center(1, j);
              const double w = ny_points > 1
                                   ? gauss3_weight(ii) * gauss3_weight(jj) * gauss3_weight(kk)
                                   : gauss3_weight(ii) * gauss3_weight(kk);
              PointState p = perturb_case(c, x, y, z, b.rho, b.theta);
              PointWater q = moist_point_water(c, t, p, z, b);
              if (c.kind == Case::bryan_fritsch && c.bubble)
                bryan_fritsch_bubble(t, x, z, b, c.exact_thermo, p, q);
              sum[Var::dens] += p.r * w;
              sum[Var::umom] += (p.r + p.hr) * p.u * w;
              sum[Var::wmom] += (p.r + p.hr) * p.w * w;
              sum[Var::rhot] += ((p.r + p.hr) * (p.t + p.ht) - p.hr * p.ht) * w;
              sum[Var::vmom] += (p.r + p.hr) * p.v * w;
              water[0] += ((p.r + p.hr) * q.qv - p.hr * b.qv) * w;
              water[1] += ((p.r + p.hr) * q.qc - p.hr * b.qc) * w;
              water[2] += (p.r + p.hr) * q.qr * w;
            }
          }
        }
        for (int v = 0; v < nvars; ++v) s(v, k, j, i) = sum[v];
        for (int m = 0; m < moist_tracers; ++m)
          s(nvars + m, k, j, i) = background_water(m, k) + water[m];
      });
  Kokkos::deep_copy(state_tmp_, state_);
}

}  // namespace cb::weather
