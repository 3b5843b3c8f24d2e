// Ghost cells at physical boundaries, filled on the device after the halo exchange. Walls
// mirror the interior cell at the same distance from the face: slip walls reverse the normal
// momentum (reflecting); no-slip walls set the ghost velocity to 2 u_wall - u, so that the face
// velocity is u_wall, with the temperature mirrored (adiabatic) or 2 T_wall - T (isothermal).
// Outflow copies the nearest interior cell (zero gradient); inflow and far field impose a fixed
// state (the free stream): the Riemann solver at the boundary face then takes the incoming waves
// from it and lets the outgoing ones leave. Subsonic channels: a velocity inlet imposes density
// and velocity (uniform or parabolic across the channel) with the interior's pressure, a
// pressure outlet the pressure with the interior's density and velocity (docs/solvers/cfd.md §3).
#include "solvers/cfd/solver.hpp"

namespace cb::cfd {
namespace {

using kernels::cfd::Conserved;
using kernels::cfd::Primitive;

KOKKOS_INLINE_FUNCTION Conserved reflect(Conserved u, int axis) {
  u.mom[axis] = -u.mom[axis];
  return u;
}

KOKKOS_INLINE_FUNCTION Conserved no_slip_ghost(const FaceBoundary& b, const Conserved& mirror,
                                               real gamma) {
  Primitive w = kernels::cfd::to_primitive(mirror, gamma);
  for (int d = 0; d < 3; ++d) w.vel[d] = real(2) * b.wall_velocity[d] - w.vel[d];
  if (b.wall_temperature > real(0)) {
    real t = real(2) * b.wall_temperature - kernels::cfd::temperature(w);
    if (!(t > real(0))) t = b.wall_temperature;  // keep the ghost physical
    w.rho = w.p / t;
  }
  return kernels::cfd::to_conserved(w, gamma);
}

// The inlet state at the ghost centre `x` with the pressure `p`: the velocity times the parabola
// 4 s (1 - s) per shaped axis, 1 at the channel's middle and 0 at its walls (s clamped to
// [0, 1] in the corner ghosts).
KOKKOS_INLINE_FUNCTION Conserved inlet_state(const FaceBoundary& b, const double x[3], real p,
                                             real gamma) {
  Primitive w = b.outer_state;
  w.p = p;
  if (b.parabolic) {
    real shape = 1;
    for (int d = 0; d < 3; ++d) {
      if (!(b.profile_width[d] > real(0))) continue;
      real s = (real(x[d]) - b.profile_lo[d]) / b.profile_width[d];
      s = s < real(0) ? real(0) : (s > real(1) ? real(1) : s);
      shape *= real(4) * s * (real(1) - s);
    }
    for (int d = 0; d < 3; ++d) w.vel[d] *= shape;
  }
  return kernels::cfd::to_conserved(w, gamma);
}

// Ghost state from the interior cell mirrored about the face and the nearest
// interior cell; `x` locates the ghost cell centre and `time` the stage.
KOKKOS_INLINE_FUNCTION Conserved ghost_state(const FaceBoundary& b, int axis,
                                             const Conserved& mirror, const Conserved& nearest,
                                             const double x[3], double time, real gamma) {
  switch (b.kind) {
    case BoundaryKind::slip_wall:
      return reflect(mirror, axis);
    case BoundaryKind::no_slip_wall:
      return no_slip_ghost(b, mirror, gamma);
    case BoundaryKind::velocity_inlet:
      return inlet_state(b, x, kernels::cfd::to_primitive(nearest, gamma).p, gamma);
    case BoundaryKind::pressure_outlet: {
      Primitive w = kernels::cfd::to_primitive(nearest, gamma);
      w.p = b.outer_state.p;
      return kernels::cfd::to_conserved(w, gamma);
    }
    case BoundaryKind::inflow:
    case BoundaryKind::far_field:
      return kernels::cfd::to_conserved(b.outer_state, gamma);
    case BoundaryKind::double_mach_bottom:
      if (x[0] < 1.0 / 6.0) return kernels::cfd::to_conserved(double_mach_post_shock(), gamma);
      return reflect(mirror, axis);
    case BoundaryKind::double_mach_top:
      return kernels::cfd::to_conserved(x[0] < double_mach_shock_x(x[1], time)
                                            ? double_mach_post_shock()
                                            : double_mach_pre_shock(),
                                        gamma);
    default:
      break;
  }
  return nearest;
}

}  // namespace

void CfdSolver::apply_boundaries(const Field& state, int axis, double time) {
  const bool low = decomposition_.at_physical_boundary(axis, 0);
  const bool high = decomposition_.at_physical_boundary(axis, 1);
  if (!low && !high) return;
  const Field s = state;
  const LocalGrid grid = local_grid();
  const FaceBoundary face_low = params_.boundaries.face[axis][0];
  const FaceBoundary face_high = params_.boundaries.face[axis][1];
  const real gamma = real(params_.gamma);
  const int g = ghost_[axis], n = decomposition_.local_cells()[axis];
  // All padded cells of the two other axes; along `axis` the 2g ghost layers.
  Kokkos::Array<int, 3> extent{int(s.extent(3)), int(s.extent(2)), int(s.extent(1))};
  extent[axis] = 2 * g;
  Kokkos::parallel_for(
      "cfd::boundary_ghosts", CellPolicy({0, 0, 0}, {extent[2], extent[1], extent[0]}),
      KOKKOS_LAMBDA(int kk, int jj, int ii) {
        const int index[3] = {ii, jj, kk};
        const int layer = index[axis];  // 0 .. g-1 low ghosts, g .. 2g-1 high ghosts
        const bool is_low = layer < g;
        if ((is_low && !low) || (!is_low && !high)) return;
        const int depth = is_low ? g - 1 - layer : layer - g;  // 0 next to the face
        int ghost[3] = {ii, jj, kk}, mirror[3] = {ii, jj, kk}, nearest[3] = {ii, jj, kk};
        ghost[axis] = is_low ? g - 1 - depth : g + n + depth;
        mirror[axis] = is_low ? g + depth : g + n - 1 - depth;
        nearest[axis] = is_low ? g : g + n - 1;
        const Conserved m = kernels::cfd::load_conserved(s, mirror[2], mirror[1], mirror[0]);
        const Conserved c = kernels::cfd::load_conserved(s, nearest[2], nearest[1], nearest[0]);
        double x[3];
        grid.center(ghost[2], ghost[1], ghost[0], x);
        const Conserved u = ghost_state(is_low ? face_low : face_high, axis, m, c, x, time, gamma);
        kernels::cfd::store_conserved(s, ghost[2], ghost[1], ghost[0], u);
      });
}

}  // namespace cb::cfd
