// Ghost cells at physical boundaries. Walls (always at the bottom and top;
// laterally for the straka and robert cases): no normal momentum in the ghosts,
// the tangential momentum scaled with the background density, everything else
// copied from the nearest interior cell (miniWeather set_halo_values_z). The
// injection case feeds a jet through the left x boundary (set_halo_values_x).
#include "solvers/weather/solver.hpp"

namespace cb::weather {
namespace {

using kernels::weather::Var;

KOKKOS_INLINE_FUNCTION int normal_momentum(int axis) {
  return axis == 0 ? Var::umom : axis == 1 ? Var::vmom : Var::wmom;
}

}  // namespace

void WeatherSolver::apply_wall_ghosts(const Field& state, int axis) {
  const bool low = decomposition_.at_physical_boundary(axis, 0);
  const bool high = decomposition_.at_physical_boundary(axis, 1);
  if (!low && !high) return;
  const Field s = state;
  const Column hy_r = hy_dens_cell_;
  const int g = ghost_[axis], n = decomposition_.local_cells()[axis];
  const int nvars = params_.variables(), ndynamic = params_.dynamic_variables();
  const int normal = normal_momentum(axis);
  // All padded cells of the two other axes; along `axis` the 2g ghost layers.
  Kokkos::Array<int, 3> extent{int(s.extent(3)), int(s.extent(2)), int(s.extent(1))};
  extent[axis] = 2 * g;
  const Kokkos::MDRangePolicy<ExecSpace, Kokkos::Rank<3>> ghosts({0, 0, 0},
                                                                 {extent[2], extent[1], extent[0]});
  Kokkos::parallel_for(
      "weather::wall_ghosts", ghosts, KOKKOS_LAMBDA(int kk, int jj, int ii) {
        int index[3] = {ii, jj, kk};
        const int layer = index[axis];  // 0 .. 2g-1: low ghosts then high ghosts
        const bool is_low = layer < g;
        if ((is_low && !low) || (!is_low && !high)) return;
        const int ghost = is_low ? layer : n + g + (layer - g);
        const int interior = is_low ? g : n + g - 1;
        int gi[3] = {ii, jj, kk}, in[3] = {ii, jj, kk};
        gi[axis] = ghost;
        in[axis] = interior;
        for (int v = 0; v < nvars; ++v) {
          double value = s(v, in[2], in[1], in[0]);
          if (v >= ndynamic) {  // moist tracers: copied
          } else if (v == normal) {
            value = 0.0;
          } else if (axis == 2 && (v == Var::umom || v == Var::vmom)) {
            value = value / hy_r(in[2]) * hy_r(gi[2]);
          }
          s(v, gi[2], gi[1], gi[0]) = value;
        }
      });
}

// miniWeather's injection: in the left ghost cells of the band
// |z - 3 zlen/4| <= zlen/16, air enters at u = 50 m/s with theta = 298 K.
void WeatherSolver::apply_injection(const Field& state) {
  const Field s = state;
  const LocalGrid grid = local_grid();
  const Column hy_r = hy_dens_cell_, hy_rt = hy_dens_theta_cell_;
  const Int3 n = decomposition_.local_cells();
  const Int3 g = ghost_;
  const double zlen = params_.geometry.hi[2] - params_.geometry.lo[2];
  Kokkos::parallel_for(
      "weather::injection",
      Kokkos::MDRangePolicy<ExecSpace, Kokkos::Rank<3>>({g[2], 0, 0},
                                                        {g[2] + n[2], int(s.extent(2)), g[0]}),
      KOKKOS_LAMBDA(int k, int j, int i) {
        const double z = grid.center(2, k);
        if (math::fabs(z - 3 * zlen / 4) > zlen / 16) return;
        const double r = s(Var::dens, k, j, i) + hy_r(k);
        s(Var::umom, k, j, i) = r * 50.;
        s(Var::rhot, k, j, i) = r * 298. - hy_rt(k);
      });
}

}  // namespace cb::weather
