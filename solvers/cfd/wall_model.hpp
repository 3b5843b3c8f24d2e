// The wall term of a cut cell (docs/solvers/cfd.md §7.1): the pressure on the
// body's surface in it and, on a no-slip wall, the viscous stress, an
// isothermal wall's heat and a moving wall's work, from the states of the
// cell and its neighbours further from the wall (kernels/cfd/embedded.hpp).
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
  real min_distance;  // smaller cells take their neighbours' values (explicit stability)
  real min_gap;       // the second sample at least this much further from the wall
  NodeView volume, distance, aperture_x, aperture_y, aperture_z;
  AreaView sample_distance;                                         // CutCells::sample_distance
  AreaView area;                                                    // A n_b and |A| per cell
  Kokkos::View<const kernels::cfd::BodyWall*, MemSpace> walls;      // per body
  Kokkos::View<const int***, Kokkos::LayoutRight, MemSpace> owner;  // the body of each cell
  bool moving;                                                      // any wall
  AreaView wall_velocity;  // per cut cell along its wall; covered: the rigid motion
  LocalGrid grid;
  AreaView centroid;  // a cut cell's fluid centroid less its centre
};

WallModel make_wall_model(const Params& params, const CutCells& cut, const LocalGrid& grid,
                          const Kokkos::View<kernels::cfd::BodyWall*, MemSpace>& walls,
                          const Kokkos::View<int***, Kokkos::LayoutRight, MemSpace>& owner,
                          const AreaView& wall_velocity);

namespace detail {

// The axis nearest the unit normal n and the step (+1 or -1) along it into
// the fluid: where a cut cell's wall samples lie.
KOKKOS_INLINE_FUNCTION void nearest_axis(const real n[3], int& axis, int& step) {
  axis = 0;
  for (int a = 1; a < 3; ++a)
    if (math::fabs(n[a]) > math::fabs(n[axis])) axis = a;
  step = n[axis] > real(0) ? 1 : -1;
}

// Whether cell (k, j, i) is joined to its neighbour one step (+1 or -1) along
// `axis` through an open face and that neighbour holds fluid.
KOKKOS_INLINE_FUNCTION bool joined_along(const WallModel& m, int axis, int step, int k, int j,
                                         int i) {
  const int up = step > 0 ? 1 : 0;
  const double open = axis == 0   ? m.aperture_x(k, j, i + up)
                      : axis == 1 ? m.aperture_y(k, j + up, i)
                                  : m.aperture_z(k + up, j, i);
  const int k2 = k + (axis == 2 ? step : 0), j2 = j + (axis == 1 ? step : 0),
            i2 = i + (axis == 0 ? step : 0);
  return open > 0.0 && m.volume(k2, j2, i2) > 0.0;
}

}  // namespace detail

// The samples of the profile along the wall's normal n that give its normal
// derivative in cut cell (k, j, i): the cells `inner` and `outer` steps along
// the axis nearest n (0: the cell itself), each at the distance of its value
// from the cell's own body (CutCells), joined through open faces to the fluid.
struct WallSamples {
  kernels::cfd::WallStencil weights;
  int axis, step, inner, outer;

  KOKKOS_INLINE_FUNCTION void offset(int steps, int o[3]) const {
    for (int a = 0; a < 3; ++a) o[a] = a == axis ? steps * step : 0;
  }
};

// A cell whose fluid's centroid lies d1 >= min_distance from its body takes its
// own value and its neighbour's at d2 when d2 - d1 >= min_gap (exact for a
// quadratic profile), else its own value alone (linear). A smaller cell would
// make the weights unbounded; it takes its neighbour at d2 >= min_distance and
// the next one at d3 >= d2 + min_gap (quadratic), or the neighbour alone
// (linear), and only when the neighbour is too close its own value at
// min_distance. The weights stay below 6 / h either way (wall_model.cpp).
KOKKOS_INLINE_FUNCTION WallSamples wall_samples(const WallModel& m, const real n[3], int k, int j,
                                                int i) {
  using namespace kernels::cfd;
  int axis, step;
  detail::nearest_axis(n, axis, step);
  const int sk = axis == 2 ? step : 0, sj = axis == 1 ? step : 0, si = axis == 0 ? step : 0;
  const real own = real(m.distance(k, j, i)), d1 = math::max(own, m.min_distance);
  WallSamples s{one_point_wall_stencil(d1), axis, step, 0, 0};
  if (!detail::joined_along(m, axis, step, k, j, i)) return s;
  const real d2 = real(m.sample_distance(k, j, i, 0));
  if (own >= m.min_distance) {
    if (d2 - d1 >= m.min_gap) s = {two_point_wall_stencil(d1, d2), axis, step, 0, 1};
    return s;
  }
  if (d2 < m.min_distance) return s;
  s = {one_point_wall_stencil(d2), axis, step, 1, 1};
  if (!detail::joined_along(m, axis, step, k + sk, j + sj, i + si)) return s;
  const real d3 = real(m.sample_distance(k, j, i, 1));
  if (d3 - d2 >= m.min_gap) s = {two_point_wall_stencil(d2, d3), axis, step, 1, 2};
  return s;
}

// The rigid velocity of body `wall` where cell (k, j, i)'s value stands: its
// fluid's centroid.
KOKKOS_INLINE_FUNCTION void rigid_velocity_at_value(const WallModel& m,
                                                    const kernels::cfd::BodyWall& wall, int k,
                                                    int j, int i, real out[3]) {
  double x[3], u[3];
  m.grid.center(k, j, i, x);
  for (int d = 0; d < 3; ++d) x[d] += m.centroid(k, j, i, d);
  kernels::cfd::rigid_wall_velocity(wall, x, u);
  for (int d = 0; d < 3; ++d) out[d] = real(u[d]);
}

// The momentum per unit time the wall in cut cell (k, j, i) gives its fluid,
// p_w A n_b, less tau_w . n_b A on a no-slip wall (from the velocity relative
// to the body's rigid motion at each sample, which vanishes on the wall with
// its tangential derivatives, while the rigid motion has no stress), the heat
// q_w A of an isothermal wall (out[3]) and the work of a moving one,
// -u_w . tau_w . n_b A (out[4]; u_w along the wall, so p_w does none), and
// the viscous part of the momentum, -tau_w . n_b A (out[5 .. 7]).
KOKKOS_INLINE_FUNCTION void cell_wall_exchange(const WallModel& m, const Field& prim, int k, int j,
                                               int i, real out[8]) {
  using namespace kernels::cfd;
  const AreaView& area = m.area;
  const double a = area(k, j, i, 3);
  const real n[3] = {real(area(k, j, i, 0) / a), real(area(k, j, i, 1) / a),
                     real(area(k, j, i, 2) / a)};
  const Primitive w = load_primitive(prim, k, j, i);
  const real pw = wall_pressure(w, n, m.gamma);
  real stress[3] = {0, 0, 0}, heat = 0, work = 0;
  if (m.viscous) {
    const WallSamples samples = wall_samples(m, n, k, j, i);
    const WallStencil s = samples.weights;
    int o[3];
    samples.offset(samples.inner, o);
    const Primitive near = load_primitive(prim, k + o[2], j + o[1], i + o[0]);
    samples.offset(samples.outer, o);
    const Primitive far = load_primitive(prim, k + o[2], j + o[1], i + o[0]);
    const real t = temperature(w);
    const real mu = dynamic_viscosity(m.viscosity, t);
    real wall_u[3] = {0, 0, 0}, rigid_near[3] = {0, 0, 0}, rigid_far[3] = {0, 0, 0}, g[3];
    if (m.moving) {
      const kernels::cfd::BodyWall& body = m.walls(m.owner(k, j, i));
      for (int c = 0; c < 3; ++c) wall_u[c] = real(m.wall_velocity(k, j, i, c));
      samples.offset(samples.inner, o);
      rigid_velocity_at_value(m, body, k + o[2], j + o[1], i + o[0], rigid_near);
      samples.offset(samples.outer, o);
      rigid_velocity_at_value(m, body, k + o[2], j + o[1], i + o[0], rigid_far);
    }
    for (int c = 0; c < 3; ++c)
      g[c] = s.near * (near.vel[c] - rigid_near[c]) - s.far * (far.vel[c] - rigid_far[c]);
    wall_shear_stress(g, n, mu, stress);
    for (int c = 0; c < 3; ++c) work -= wall_u[c] * stress[c];
    const real wall_t = real(m.walls(m.owner(k, j, i)).temperature);
    if (wall_t > real(0))
      heat = heat_conductivity(m.viscosity, mu, m.gamma) *
             (s.near * (wall_t - temperature(near)) - s.far * (wall_t - temperature(far)));
  }
  for (int d = 0; d < 3; ++d) out[d] = pw * real(area(k, j, i, d)) - stress[d] * real(a);
  for (int d = 0; d < 3; ++d) out[5 + d] = -stress[d] * real(a);
  out[3] = heat * real(a);
  out[4] = work * real(a);
}

}  // namespace cb::cfd
