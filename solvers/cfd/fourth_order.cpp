// The fourth-order flux path of the CFD solver ([cfd] fourth_order = true,
// WENO5 only), after McCorquodale & Colella (2011) §2 and Buchmueller & Helzel
// (2014) §3 (kernels/cfd/fourth_order.hpp). Kernels per RK stage:
//   cfd::average_primitives   cell averages of rho, u, v, w, p from those of U:
//                             <W> = W(<U> - h^2/24 U'') + h^2/24 W''
//   per used axis:
//   cfd::face_states          WENO5 face averages of <W>, left and right
//   cfd::face_point_fluxes    face-centre point states (minus the transverse
//                             h^2/24 terms) and the Riemann flux there
//   cfd::face_average_fluxes  face-average flux (plus the transverse h^2/24
//                             terms of the point fluxes) and the viscous flux
// A face whose point states are not physical uses its face averages, or the
// cells' averages if those are not physical either; it and its transverse
// neighbours then skip the flux correction, and it counts in fallback_faces.
// Each flux depends only on the cells around it, the same on any rank count.
#include "kernels/cfd/fourth_order.hpp"
#include "core/axis_dispatch.hpp"
#include "solvers/cfd/fluxes.hpp"

namespace cb::cfd {
namespace {

using kernels::cfd::Conserved;
using kernels::cfd::Primitive;
using kernels::cfd::RiemannSolver;

constexpr int fallback_flag = kernels::cfd::variables;  // slot of the flag in point fluxes

KOKKOS_FORCEINLINE_FUNCTION Index3 unit_offset(int axis) {
  return {axis == 0 ? 1 : 0, axis == 1 ? 1 : 0, axis == 2 ? 1 : 0};
}

// Sum over the used axes other than `skip` of h^2/24 q'' of variable v of f.
KOKKOS_FORCEINLINE_FUNCTION real curvature_sum(const Field& f, int v, int k, int j, int i,
                                               const FluxParams& p, int skip) {
  const real centre = f(v, k, j, i);
  real sum = 0;
  for (int b = 0; b < 3; ++b) {
    if (b == skip || !p.active[b]) continue;
    const Index3 o = unit_offset(b);
    sum += kernels::cfd::curvature_term(f(v, k - o.z, j - o.y, i - o.x), centre,
                                        f(v, k + o.z, j + o.y, i + o.x));
  }
  return sum;
}

KOKKOS_FORCEINLINE_FUNCTION Primitive as_primitive(const real q[5]) {
  return {q[0], {q[1], q[2], q[3]}, q[4]};
}

template <int Axis>
void launch_face_states(const Field& average, const Field& faces, const CellPolicy& range) {
  Kokkos::parallel_for(
      "cfd::face_states", range, KOKKOS_LAMBDA(int k, int j, int i) {
        constexpr int di = Axis == 0, dj = Axis == 1, dk = Axis == 2;
        for (int v = 0; v < kernels::cfd::variables; ++v) {
          real q[6];
          for (int m = 0; m < 6; ++m)
            q[m] = average(v, k + (m - 3) * dk, j + (m - 3) * dj, i + (m - 3) * di);
          const kernels::cfd::FaceValues face = kernels::cfd::reconstruct_weno5(q);
          faces(v, k, j, i) = face.left;
          faces(kernels::cfd::variables + v, k, j, i) = face.right;
        }
      });
}

template <int Axis, RiemannSolver S>
void launch_point_fluxes(const Field& faces, const Field& average, const Field& point_flux,
                         const FluxParams& p, const CellPolicy& range) {
  Kokkos::parallel_for(
      "cfd::face_point_fluxes", range, KOKKOS_LAMBDA(int k, int j, int i) {
        using namespace kernels::cfd;
        constexpr int di = Axis == 0, dj = Axis == 1, dk = Axis == 2;
        real left[variables], right[variables], left_point[variables], right_point[variables];
        for (int v = 0; v < variables; ++v) {
          left[v] = faces(v, k, j, i);
          right[v] = faces(variables + v, k, j, i);
          left_point[v] = left[v] - curvature_sum(faces, v, k, j, i, p, Axis);
          right_point[v] = right[v] - curvature_sum(faces, variables + v, k, j, i, p, Axis);
        }
        Primitive wl = as_primitive(left_point), wr = as_primitive(right_point);
        const bool fallback = !is_physical(wl) || !is_physical(wr);
        if (fallback) {
          wl = as_primitive(left), wr = as_primitive(right);
          if (!is_physical(wl) || !is_physical(wr)) {
            wl = load_primitive(average, k - dk, j - dj, i - di);
            wr = load_primitive(average, k, j, i);
          }
        }
        if (p.low_mach) low_mach_correction(wl, wr, p.gamma, Axis, p.low_mach_normal_only);
        store_conserved(point_flux, k, j, i, riemann_flux<S>(wl, wr, p.gamma, Axis));
        point_flux(fallback_flag, k, j, i) = fallback ? real(1) : real(0);
      });
}

// No face in the transverse stencil fell back: the correction is smooth there.
KOKKOS_FORCEINLINE_FUNCTION bool smooth_around(const Field& point_flux, int k, int j, int i,
                                               const FluxParams& p, int axis) {
  bool smooth = point_flux(fallback_flag, k, j, i) == real(0);
  for (int b = 0; b < 3; ++b) {
    if (b == axis || !p.active[b]) continue;
    const Index3 o = unit_offset(b);
    smooth = smooth && point_flux(fallback_flag, k - o.z, j - o.y, i - o.x) == real(0) &&
             point_flux(fallback_flag, k + o.z, j + o.y, i + o.x) == real(0);
  }
  return smooth;
}

template <int Axis>
void launch_average_fluxes(const Field& point_flux, const Field& prim, const Field& flux,
                           const Counter& fallback_faces, const FluxParams& p, const FaceRanges& r,
                           const CellPolicy& range) {
  Kokkos::parallel_for(
      "cfd::face_average_fluxes", range, KOKKOS_LAMBDA(int k, int j, int i) {
        using namespace kernels::cfd;
        const bool smooth = smooth_around(point_flux, k, j, i, p, Axis);
        real f[variables];
        for (int v = 0; v < variables; ++v) {
          f[v] = point_flux(v, k, j, i) +
                 (smooth ? curvature_sum(point_flux, v, k, j, i, p, Axis) : real(0));
        }
        Conserved average{f[0], {f[1], f[2], f[3]}, f[4]};
        if (p.viscous) detail::add_viscous_flux<Axis>(average, prim, k, j, i, p);
        store_conserved(flux, k, j, i, average);
        const int face = Axis == 0 ? i : Axis == 1 ? j : k;
        if (point_flux(fallback_flag, k, j, i) != real(0) && face < r.count_end[Axis]) {
          Kokkos::atomic_add(&fallback_faces(), 1LL);
        }
      });
}

// Faces normal to `axis` of the owned cells (and the one above), with the
// transverse ranges widened by `widen` cells on each side.
CellPolicy face_range(int axis, int widen, const FluxParams& p, const FaceRanges& r,
                      const Int3& ghost) {
  int lo[3], hi[3];
  for (int b = 0; b < 3; ++b) {
    const int w = b == axis || !p.active[b] ? 0 : widen;
    lo[b] = ghost[b] - w;
    hi[b] = r.owned_end[b] + (b == axis ? 1 : w);
  }
  return CellPolicy({lo[2], lo[1], lo[0]}, {hi[2], hi[1], hi[0]});
}

struct FourthOrderViews {
  Field prim, average, faces, point_flux, flux;
  Counter fallback_faces;
};

template <int Axis>
void axis_fluxes(const FourthOrderViews& v, RiemannSolver s, const FluxParams& p,
                 const FaceRanges& r, const Int3& ghost) {
  launch_face_states<Axis>(v.average, v.faces, face_range(Axis, 2, p, r, ghost));
  const CellPolicy points = face_range(Axis, 1, p, r, ghost);
  switch (s) {
    case RiemannSolver::hllc:
      launch_point_fluxes<Axis, RiemannSolver::hllc>(v.faces, v.average, v.point_flux, p, points);
      break;
    case RiemannSolver::hll:
      launch_point_fluxes<Axis, RiemannSolver::hll>(v.faces, v.average, v.point_flux, p, points);
      break;
    case RiemannSolver::rusanov:
      launch_point_fluxes<Axis, RiemannSolver::rusanov>(v.faces, v.average, v.point_flux, p,
                                                        points);
      break;
  }
  launch_average_fluxes<Axis>(v.point_flux, v.prim, v.flux, v.fallback_faces, p, r,
                              face_range(Axis, 0, p, r, ghost));
}

}  // namespace

// Cell averages of the primitive variables over every padded cell that has
// neighbours on each used axis (the point value of U at the centre first).
// Where a point state or the result is not physical, W(<U>) (second order).
void CfdSolver::compute_average_primitives() {
  const Field s = state_, w = primitive_, average = average_primitive_;
  const FluxParams p = make_flux_params(params_);
  int lo[3], hi[3];
  for (int a = 0; a < 3; ++a) {
    lo[a] = p.active[a] ? 1 : 0;
    hi[a] = int(s.extent(3 - a)) - lo[a];
  }
  Kokkos::parallel_for(
      "cfd::average_primitives", CellPolicy({lo[2], lo[1], lo[0]}, {hi[2], hi[1], hi[0]}),
      KOKKOS_LAMBDA(int k, int j, int i) {
        using namespace kernels::cfd;
        real u[variables];
        for (int v = 0; v < variables; ++v)
          u[v] = s(v, k, j, i) - curvature_sum(s, v, k, j, i, p, -1);
        const Primitive point = to_primitive({u[0], {u[1], u[2], u[3]}, u[4]}, p.gamma);
        Primitive result = load_primitive(w, k, j, i);
        if (is_physical(point)) {
          real q[variables] = {point.rho, point.vel[0], point.vel[1], point.vel[2], point.p};
          for (int v = 0; v < variables; ++v) q[v] += curvature_sum(w, v, k, j, i, p, -1);
          if (is_physical(as_primitive(q))) result = as_primitive(q);
        }
        store_primitive(average, k, j, i, result);
      });
}

void CfdSolver::compute_fourth_order_fluxes() {
  compute_average_primitives();
  const FluxParams p = make_flux_params(params_);
  const FaceRanges r = make_face_ranges(decomposition_, ghost_);
  for (int axis = 0; axis < 3; ++axis) {
    if (!p.active[axis]) continue;
    const FourthOrderViews v{primitive_,  average_primitive_, face_state_,
                             point_flux_, flux_[axis],        fallback_faces_};
    with_axis(axis,
              [&](auto a) { axis_fluxes<decltype(a)::value>(v, params_.riemann, p, r, ghost_); });
  }
}

}  // namespace cb::cfd
