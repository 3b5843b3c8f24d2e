// The wall term of a cut cell (docs/solvers/cfd.md §7.1): the pressure on the
// body's surface in it and, on a no-slip wall, the viscous stress, an
// isothermal wall's heat and a moving wall's work, from the cell's state and
// that of its neighbour further from the wall (kernels/cfd/embedded.hpp).
#pragma once

#include "kernels/cfd/embedded.hpp"
#include "kernels/cfd/viscous.hpp"
#include "solvers/cfd/cut_cells.hpp"
#include "solvers/cfd/params.hpp"

namespace cb::cfd {

// What the wall term of a cut cell needs, by value.
struct WallModel {
  real gamma;
  bool viscous;  // no-slip walls, else slip
  kernels::cfd::Viscosity viscosity;
  real min_distance;  // floor of a cut cell's wall distance (explicit stability)
  real min_gap;       // the second sample at least this much further from the wall
  NodeView phi, volume, distance, aperture_x, aperture_y, aperture_z;
  AreaView area;                                                    // A n_b and |A| per cell
  Kokkos::View<const kernels::cfd::BodyWall*, MemSpace> walls;      // per body
  Kokkos::View<const int***, Kokkos::LayoutRight, MemSpace> owner;  // the body of each cell
  bool moving;                                                      // any wall
  AreaView wall_velocity;  // per cut cell along its wall; covered: the rigid motion
};

WallModel make_wall_model(const Params& params, const CutCells& cut,
                          const Kokkos::View<kernels::cfd::BodyWall*, MemSpace>& walls,
                          const Kokkos::View<int***, Kokkos::LayoutRight, MemSpace>& owner,
                          const AreaView& wall_velocity);

// The samples of the profile along the wall's normal n in cut cell (k, j, i):
// the cell's own value at d1, the mean distance of its fluid from the wall (at
// least min_distance), and the value of its neighbour at `offset`, one step
// along the axis nearest n, at that neighbour's distance d2 (a cut cell's mean
// distance, else phi at its centre), where the neighbour is fluid, joined
// through an open face and d2 - d1 >= min_gap. Else the one sample (offset 0).
KOKKOS_INLINE_FUNCTION kernels::cfd::WallStencil wall_stencil(const WallModel& m, const real n[3],
                                                              int k, int j, int i, int offset[3]) {
  using namespace kernels::cfd;
  const real d1 = math::max(real(m.distance(k, j, i)), m.min_distance);
  int axis = 0;
  for (int a = 1; a < 3; ++a)
    if (math::fabs(n[a]) > math::fabs(n[axis])) axis = a;
  const int step = n[axis] > real(0) ? 1 : -1, up = step > 0 ? 1 : 0;
  const double open = axis == 0   ? m.aperture_x(k, j, i + up)
                      : axis == 1 ? m.aperture_y(k, j + up, i)
                                  : m.aperture_z(k + up, j, i);
  for (int a = 0; a < 3; ++a) offset[a] = a == axis ? step : 0;
  const int k2 = k + offset[2], j2 = j + offset[1], i2 = i + offset[0];
  double d2 = m.distance(k2, j2, i2);
  if (!(d2 > 0.0)) {
    constexpr int R = cut_refinement;
    d2 = m.phi(R * k2 + R / 2, R * j2 + R / 2, R * i2 + R / 2);
  }
  if (!(open > 0.0) || !(m.volume(k2, j2, i2) > 0.0) || real(d2) - d1 < m.min_gap) {
    for (int a = 0; a < 3; ++a) offset[a] = 0;
    return one_point_wall_stencil(d1);
  }
  return two_point_wall_stencil(d1, real(d2));
}

// The momentum per unit time the wall in cut cell (k, j, i) gives its fluid,
// p_w A n_b, less tau_w . n_b A on a no-slip wall (from the velocity relative
// to the wall's), the heat q_w A of an isothermal wall (out[3]) and the work
// of a moving one, -u_w . tau_w . n_b A (out[4]; u_w along the wall, so p_w
// does none).
KOKKOS_INLINE_FUNCTION void cell_wall_exchange(const WallModel& m, const Field& prim, int k, int j,
                                               int i, real out[5]) {
  using namespace kernels::cfd;
  const AreaView& area = m.area;
  const double a = area(k, j, i, 3);
  const real n[3] = {real(area(k, j, i, 0) / a), real(area(k, j, i, 1) / a),
                     real(area(k, j, i, 2) / a)};
  const Primitive w = load_primitive(prim, k, j, i);
  const real pw = wall_pressure(w, n, m.gamma);
  real stress[3] = {0, 0, 0}, heat = 0, work = 0;
  if (m.viscous) {
    int o[3];
    const WallStencil s = wall_stencil(m, n, k, j, i, o);
    const Primitive far = load_primitive(prim, k + o[2], j + o[1], i + o[0]);
    const real t = temperature(w);
    const real mu = dynamic_viscosity(m.viscosity, t);
    real wall_u[3] = {0, 0, 0}, g[3];
    for (int c = 0; c < 3 && m.moving; ++c) wall_u[c] = real(m.wall_velocity(k, j, i, c));
    for (int c = 0; c < 3; ++c)
      g[c] = s.near * (w.vel[c] - wall_u[c]) - s.far * (far.vel[c] - wall_u[c]);
    wall_shear_stress(g, n, mu, stress);
    for (int c = 0; c < 3; ++c) work -= wall_u[c] * stress[c];
    const real wall_t = real(m.walls(m.owner(k, j, i)).temperature);
    if (wall_t > real(0))
      heat = heat_conductivity(m.viscosity, mu, m.gamma) *
             (s.near * (wall_t - t) - s.far * (wall_t - temperature(far)));
  }
  for (int d = 0; d < 3; ++d) out[d] = pw * real(area(k, j, i, d)) - stress[d] * real(a);
  out[3] = heat * real(a);
  out[4] = work * real(a);
}

}  // namespace cb::cfd
