// The least-squares gradients beside the walls (solvers/cfd/cut_gradients.hpp).
#include "solvers/cfd/cut_gradients.hpp"

#include "kernels/cfd/least_squares.hpp"
#include "solvers/cfd/solver.hpp"

namespace cb::cfd {

BandView wall_bands(const CutCells& cut, const Int3& active) {
  const NodeView volume = cut.volume;
  const int nz = int(volume.extent(0)), ny = int(volume.extent(1)), nx = int(volume.extent(2));
  BandView band("cfd::wall_band", nz, ny, nx);
  const int rx = 2 * active[0], ry = 2 * active[1], rz = 2 * active[2];
  Kokkos::parallel_for(
      "cfd::wall_band", CellPolicy({0, 0, 0}, {nz, ny, nx}), KOKKOS_LAMBDA(int k, int j, int i) {
        if (!(volume(k, j, i) > 0.0)) return;
        int nearest = 3;  // steps (the largest along an axis) to the nearest cut or covered cell
        for (int c = -rz; c <= rz; ++c)
          for (int b = -ry; b <= ry; ++b)
            for (int a = -rx; a <= rx; ++a) {
              const int kk = k + c, jj = j + b, ii = i + a;
              if (kk < 0 || kk >= nz || jj < 0 || jj >= ny || ii < 0 || ii >= nx) continue;
              if (!(volume(kk, jj, ii) < 1.0)) continue;
              const int ax = a < 0 ? -a : a, by = b < 0 ? -b : b, cz = c < 0 ? -c : c;
              const int steps = ax > by ? (ax > cz ? ax : cz) : (by > cz ? by : cz);
              if (steps < nearest) nearest = steps;
            }
        band(k, j, i) = nearest <= 1 ? near_wall : nearest == 2 ? fitted : far_from_wall;
      });
  return band;
}

namespace {

// What a cell's fit reads, by value.
struct FitInputs {
  Field prim;
  NodeView volume;
  Apertures ap;
  AreaView area, centroid, wall_point, wall_velocity;
  BandView band;
  Kokkos::View<const kernels::cfd::BodyWall*, MemSpace> walls;
  Kokkos::View<const int***, Kokkos::LayoutRight, MemSpace> owner;
  LocalGrid grid;
  int active[3];
  bool moving;
};

// u, v, w and T of cell (k, j, i).
KOKKOS_INLINE_FUNCTION void fitted_values(const Field& prim, int k, int j, int i, real f[4]) {
  for (int q = 0; q < 3; ++q) f[q] = prim(1 + q, k, j, i);
  f[3] = prim(4, k, j, i) / prim(0, k, j, i);  // T = p / rho (gas constant 1)
}

// The fit of cell (k, j, i): its joined fluid neighbours in the 3^d block at
// their centroids; in a cut cell also the wall at its surface point, the
// wall's velocity (no-slip) for u, v, w and, isothermal, its temperature for T.
KOKKOS_INLINE_FUNCTION void fit_cell(const FitInputs& in, const AreaView& out, int k, int j,
                                     int i) {
  using namespace kernels::cfd;
  out(k, j, i, gradient_valid) = 0.0;
  if (in.band(k, j, i) == far_from_wall) return;
  real f0[4], r[4][3] = {{0, 0, 0}, {0, 0, 0}, {0, 0, 0}, {0, 0, 0}};
  fitted_values(in.prim, k, j, i, f0);
  Symmetric3 m{0, 0, 0, 0, 0, 0};
  const Field prim = in.prim;
  add_joined_neighbours<4>(
      in.volume, in.ap, in.centroid, in.grid, in.active, k, j, i,
      [=](int kk, int jj, int ii, real f[4]) { fitted_values(prim, kk, jj, ii, f); }, f0, m, r);
  Symmetric3 mt = m;  // the temperature's (the wall counts only where isothermal)
  if (in.area(k, j, i, 3) > 0.0) {
    double x[3];
    in.grid.center(k, j, i, x);
    real dx[3], wall[4] = {0, 0, 0, real(in.walls(in.owner(k, j, i)).temperature)};
    for (int d = 0; d < 3; ++d) {
      dx[d] = real(in.wall_point(k, j, i, d) - x[d] - in.centroid(k, j, i, d));
      if (in.moving) wall[d] = real(in.wall_velocity(k, j, i, d));
    }
    add_sample(m, dx);
    const int fitted_wall = wall[3] > real(0) ? 4 : 3;
    if (fitted_wall == 4) add_sample(mt, dx);
    for (int q = 0; q < fitted_wall; ++q)
      for (int d = 0; d < 3; ++d) r[q][d] += dx[d] * (wall[q] - f0[q]);
  }
  Symmetric3 inverse, inverse_t;
  if (!invert_normal_matrix(m, in.active, inverse) ||
      !invert_normal_matrix(mt, in.active, inverse_t))
    return;
  for (int q = 0; q < 4; ++q) {
    real g[3];
    apply(q < 3 ? inverse : inverse_t, r[q], g);
    for (int d = 0; d < 3; ++d) out(k, j, i, 3 * q + d) = g[d];
  }
  out(k, j, i, gradient_valid) = 1.0;
}

}  // namespace

// The fits of the cells on either side of the faces the flux kernel computes:
// the owned cells and one layer beyond on each used axis.
void CfdSolver::compute_wall_gradients() {
  FitInputs in{primitive_,
               cut_.volume,
               apertures_of(cut_),
               cut_.boundary,
               cut_.centroid,
               wall_point_,
               wall_velocity_,
               wall_band_,
               walls_,
               body_of_,
               local_grid(),
               {active(0), active(1), active(2)},
               params_.bodies.moving()};
  const AreaView out = wall_gradient_;
  const Int3& n = decomposition_.local_cells();
  int lo[3], hi[3];
  for (int a = 0; a < 3; ++a) {
    lo[a] = ghost_[a] - in.active[a];
    hi[a] = ghost_[a] + n[a] + in.active[a];
  }
  Kokkos::parallel_for(
      "cfd::wall_gradients", CellPolicy({lo[2], lo[1], lo[0]}, {hi[2], hi[1], hi[0]}),
      KOKKOS_LAMBDA(int k, int j, int i) { fit_cell(in, out, k, j, i); });
}

WallGradients CfdSolver::wall_gradients() const {
  WallGradients g{wall_band_, wall_gradient_, cut_.centroid, {0, 0, 0}};
  for (int a = 0; a < 3; ++a) g.h[a] = active(a) ? real(params_.geometry.spacing(a)) : real(0);
  return g;
}

}  // namespace cb::cfd
