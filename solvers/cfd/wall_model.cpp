#include "solvers/cfd/wall_model.hpp"

#include <algorithm>

namespace cb::cfd {
namespace {

// A cut cell's own value enters its wall term only when its wall distance d1
// is at least this fraction of the smallest spacing h (a smaller cell takes
// its neighbours' values, wall_model.hpp), and a second sample only when it
// lies at least wall_gap_floor h further out. The redistribution takes away
// the 1 / kappa of a small cell's update but not the wall term, which decays
// the cell's velocity at the rate nu A near / V, near = 1/d1 + 1/(d2 - d1)
// <= 6/h (4/h with one sample), A <= sqrt(D) h^2 in D dimensions; the time
// step of full cells has nu dt <= 3 CFL h^2 / (8 D), so nu dt A near / V stays
// below 1.7 CFL (RK3 is stable to 2.5 on the negative real axis). An
// isothermal wall relaxes the temperature at the rate (gamma / Pr) nu A near
// / V, within the same bound: the time step takes nu max(4/3, gamma / Pr) for
// nu. A small cell's weights on its neighbours obey the same bounds.
constexpr double wall_distance_floor = 0.25;
constexpr double wall_gap_floor = 0.5;

}  // namespace

WallModel make_wall_model(const Params& params, const CutCells& cut, const LocalGrid& grid,
                          const Kokkos::View<kernels::cfd::BodyWall*, MemSpace>& walls,
                          const Kokkos::View<int***, Kokkos::LayoutRight, MemSpace>& owner,
                          const AreaView& wall_velocity) {
  WallModel m{};
  m.volume = cut.volume;
  m.distance = cut.wall_distance;
  m.sample_distance = cut.sample_distance;
  m.aperture_x = cut.aperture[0];
  m.aperture_y = cut.aperture[1];
  m.aperture_z = cut.aperture[2];
  m.area = cut.boundary;
  m.walls = walls;
  m.owner = owner;
  m.moving = params.bodies.moving();
  m.wall_velocity = wall_velocity;
  m.grid = grid;
  m.centroid = cut.centroid;
  m.gamma = real(params.gamma);
  m.viscous = params.viscous();
  m.viscosity = params.viscosity;
  double h = 1e300;
  for (int a = 0; a < 3; ++a)
    if (params.geometry.cells[a] > 1) h = std::min(h, params.geometry.spacing(a));
  m.min_distance = real(wall_distance_floor * h);
  m.min_gap = real(wall_gap_floor * h);
  return m;
}

}  // namespace cb::cfd
