// The face-flux kernel of the CFD solver: reconstruction, positivity fallback,
// optional low-Mach correction, Riemann flux and viscous flux at the low face
// of a padded cell along Axis, from the primitive variables of the cells
// (a View laid out rho, u, v, w, p; computed once per cell and stage).
#pragma once

#include "kernels/cfd/least_squares.hpp"
#include "solvers/cfd/solver.hpp"

namespace cb::cfd {

// What the flux kernel needs, by value.
struct FluxParams {
  real gamma;
  kernels::Limiter limiter;
  bool low_mach;
  bool low_mach_normal_only;  // [cfd] low_mach_jumps = "normal"
  bool viscous;
  kernels::cfd::Viscosity viscosity;
  real inv_h[3];
  int active[3];
  bool bodies;           // [[geometry]]: slopes only through open faces
  NodeView aperture[3];  // the low faces' apertures of the padded cells (bodies only)
  NodeView volume;       // the cells' fluid fractions (bodies only)
  bool wall_fits;        // viscous with bodies: fitted gradients beside the walls
  WallGradients walls;
};

// Face ranges of the flux kernels, in padded indices: the faces along an axis
// are those of the owned cells and one more layer above.
struct FaceRanges {
  Kokkos::Array<int, 3> owned_end;  // one past the last owned cell per axis
  Kokkos::Array<int, 3> count_end;  // faces below this index count as fallbacks
};

FluxParams make_flux_params(const Params& params);
FaceRanges make_face_ranges(const Decomposition& decomposition, const Int3& ghost);

namespace detail {

using kernels::cfd::Conserved;
using kernels::cfd::Primitive;

// Whether the face below cell (k, j, i) along Axis lies beside a wall and
// both its cells' fits were made (solvers/cfd/cut_gradients.hpp).
template <int Axis>
KOKKOS_FORCEINLINE_FUNCTION bool beside_wall(const WallGradients& g, int k, int j, int i) {
  constexpr int di = Axis == 0, dj = Axis == 1, dk = Axis == 2;
  return (g.band(k, j, i) == near_wall || g.band(k - dk, j - dj, i - di) == near_wall) &&
         g.gradient(k, j, i, gradient_valid) > 0.0 &&
         g.gradient(k - dk, j - dj, i - di, gradient_valid) > 0.0;
}

// Viscous flux at a face beside a wall: the gradient of u, v, w and T from
// the fits of cells m (low) and c (high) about their fluid centroids, joined
// by face_gradient (kernels/cfd/least_squares.hpp), |dx| at least h / 2.
template <int Axis>
KOKKOS_INLINE_FUNCTION Conserved viscous_flux_beside_wall(const WallGradients& g, int k, int j,
                                                          int i, const Primitive& wm,
                                                          const Primitive& wc,
                                                          const FluxParams& p) {
  constexpr int di = Axis == 0, dj = Axis == 1, dk = Axis == 2;
  const int km = k - dk, jm = j - dj, im = i - di;
  real dx[3], length2 = 0;
  for (int d = 0; d < 3; ++d) {
    dx[d] =
        (d == Axis ? g.h[d] : real(0)) + real(g.centroid(k, j, i, d) - g.centroid(km, jm, im, d));
    length2 += dx[d] * dx[d];
  }
  const real inv_length2 = real(1) / math::max(length2, real(0.25) * g.h[Axis] * g.h[Axis]);
  const real tm = kernels::cfd::temperature(wm), tc = kernels::cfd::temperature(wc);
  const real fm[4] = {wm.vel[0], wm.vel[1], wm.vel[2], tm},
             fc[4] = {wc.vel[0], wc.vel[1], wc.vel[2], tc};
  real vel[3], grad[4][3];
  for (int q = 0; q < 4; ++q) {
    real gm[3], gc[3];
    for (int d = 0; d < 3; ++d) {
      gm[d] = real(g.gradient(km, jm, im, 3 * q + d));
      gc[d] = real(g.gradient(k, j, i, 3 * q + d));
    }
    kernels::cfd::face_gradient(gm, gc, fm[q], fc[q], dx, inv_length2, grad[q]);
  }
  for (int a = 0; a < 3; ++a) vel[a] = real(0.5) * (wm.vel[a] + wc.vel[a]);
  const real mu = kernels::cfd::dynamic_viscosity(p.viscosity, real(0.5) * (tm + tc));
  const real kappa = kernels::cfd::heat_conductivity(p.viscosity, mu, p.gamma);
  return kernels::cfd::viscous_flux(vel, grad, grad[3][Axis], mu, kappa, Axis);
}

// Viscous flux at the face between cells m (low) and c (high) along Axis:
// normal derivatives from the two cells, tangential ones as the mean of the two
// cells' central differences (second order, Hirsch 2007 §12.2 style); beside
// a wall, from the cells' fits.
template <int Axis>
KOKKOS_FORCEINLINE_FUNCTION Conserved viscous_face_flux(const Field& prim, int k, int j, int i,
                                                        const Primitive& wm, const Primitive& wc,
                                                        const FluxParams& p) {
  constexpr int di = Axis == 0, dj = Axis == 1, dk = Axis == 2;
  if (p.wall_fits && beside_wall<Axis>(p.walls, k, j, i))
    return viscous_flux_beside_wall<Axis>(p.walls, k, j, i, wm, wc, p);
  real vel[3], grad[3][3] = {{0, 0, 0}, {0, 0, 0}, {0, 0, 0}};
  for (int a = 0; a < 3; ++a) {
    vel[a] = real(0.5) * (wm.vel[a] + wc.vel[a]);
    grad[a][Axis] = (wc.vel[a] - wm.vel[a]) * p.inv_h[Axis];
  }
  const real tm = kernels::cfd::temperature(wm), tc = kernels::cfd::temperature(wc);
  for (int b = 0; b < 3; ++b) {
    if (b == Axis || !p.active[b]) continue;
    const int bi = b == 0, bj = b == 1, bk = b == 2;
    for (int a = 0; a < 3; ++a) {
      const real mp = prim(1 + a, k - dk + bk, j - dj + bj, i - di + bi);
      const real mn = prim(1 + a, k - dk - bk, j - dj - bj, i - di - bi);
      const real cp = prim(1 + a, k + bk, j + bj, i + bi);
      const real cn = prim(1 + a, k - bk, j - bj, i - bi);
      grad[a][b] = ((mp - mn) + (cp - cn)) * real(0.25) * p.inv_h[b];
    }
  }
  const real mu = kernels::cfd::dynamic_viscosity(p.viscosity, real(0.5) * (tm + tc));
  const real kappa = kernels::cfd::heat_conductivity(p.viscosity, mu, p.gamma);
  return kernels::cfd::viscous_flux(vel, grad, (tc - tm) * p.inv_h[Axis], mu, kappa, Axis);
}

// Adds the viscous flux at the low face of (k, j, i) along Axis to f.
template <int Axis>
KOKKOS_FORCEINLINE_FUNCTION void add_viscous_flux(Conserved& f, const Field& prim, int k, int j,
                                                  int i, const FluxParams& p) {
  constexpr int di = Axis == 0, dj = Axis == 1, dk = Axis == 2;
  const Primitive wm = kernels::cfd::load_primitive(prim, k - dk, j - dj, i - di);
  const Primitive wc = kernels::cfd::load_primitive(prim, k, j, i);
  const Conserved fv = viscous_face_flux<Axis>(prim, k, j, i, wm, wc, p);
  for (int d = 0; d < 3; ++d) f.mom[d] -= fv.mom[d];
  f.energy -= fv.energy;
}

// Which states at the low face of cell c = (k, j, i) along Axis have open
// MUSCL stencils: the left one is reconstructed from cells c-2, c-1, c, the
// right one from c-1, c, c+1, each only where its cells are joined by faces
// open to the fluid (aperture > 0), so no slope reaches into a body or across
// it (kernels/cfd/reconstruction.hpp, reconstruct_muscl_near_wall). Cut
// cells' values count as at the cell centres.
struct OpenSides {
  bool left, right;
};

// Whether a cell of the MUSCL stencil of the low face of (k, j, i) along Axis
// (cells c-2 .. c+1) is cut: its value stands at its fluid's centroid, not at
// the centre the reconstruction assumes.
template <int Axis>
KOKKOS_FORCEINLINE_FUNCTION bool cut_in_stencil(const FluxParams& p, int k, int j, int i) {
  constexpr int di = Axis == 0, dj = Axis == 1, dk = Axis == 2;
  bool cut = false;
  for (int m = -2; m <= 1; ++m) cut = cut || p.volume(k + m * dk, j + m * dj, i + m * di) < 1.0;
  return cut;
}

template <int Axis>
KOKKOS_FORCEINLINE_FUNCTION OpenSides open_sides(const FluxParams& p, int k, int j, int i) {
  constexpr int di = Axis == 0, dj = Axis == 1, dk = Axis == 2;
  const NodeView& a = p.aperture[Axis];
  const bool below = a(k - dk, j - dj, i - di) > 0.0;
  const bool face = a(k, j, i) > 0.0;
  const bool above = a(k + dk, j + dj, i + di) > 0.0;
  return {below && face, face && above};
}

}  // namespace detail

// Numerical flux through the low face of padded cell (k, j, i) along Axis with
// reconstruction R and Riemann solver S, from the primitive variables `prim`.
// Sets `fallback` when a reconstructed state had rho <= 0 or p <= 0 and the
// face fell back to the first-order (cell) states.
template <int Axis, kernels::cfd::Reconstruction R, kernels::cfd::RiemannSolver S>
KOKKOS_FORCEINLINE_FUNCTION kernels::cfd::Conserved face_flux(const Field& prim, int k, int j,
                                                              int i, const FluxParams& p,
                                                              bool& fallback) {
  using namespace kernels::cfd;
  constexpr int di = Axis == 0, dj = Axis == 1, dk = Axis == 2;
  constexpr int first = R == Reconstruction::weno5 ? 0 : R == Reconstruction::muscl ? 1 : 2;
  constexpr int last = 5 - first;
  const Primitive wm = load_primitive(prim, k - dk, j - dj, i - di);  // cell below the face
  const Primitive wc = load_primitive(prim, k, j, i);
  Primitive wl = wm, wr = wc;
  const detail::OpenSides open =
      p.bodies ? detail::open_sides<Axis>(p, k, j, i) : detail::OpenSides{true, true};
  const bool closed_side = R != Reconstruction::constant && !(open.left && open.right);
  if (R != Reconstruction::constant) {
    real left[variables], right[variables];
    for (int v = 0; v < variables; ++v) {
      real q[6] = {0, 0, 0, 0, 0, 0};
      for (int m = first; m <= last; ++m) {
        q[m] = prim(v, k + (m - 3) * dk, j + (m - 3) * dj, i + (m - 3) * di);
      }
      const FaceValues face = closed_side
                                  ? reconstruct_muscl_near_wall(q, p.limiter, open.left, open.right)
                                  : reconstruct(R, p.limiter, q);
      left[v] = face.left;
      right[v] = face.right;
    }
    wl = {left[0], {left[1], left[2], left[3]}, left[4]};
    wr = {right[0], {right[1], right[2], right[3]}, right[4]};
    fallback = !is_physical(wl) || !is_physical(wr);
    if (fallback) wl = wm, wr = wc;
  }
  // The velocity jump of a first-order side, or of a stencil with a cut cell
  // (valued at its centroid), is O(h du/dx) even in a linear field; at low
  // Mach the upwind flux makes it a pressure rho c du / 2 and a shear stress
  // of the same order at the wall (docs/solvers/cfd.md §7.1).
  const bool near_body = closed_side || (p.bodies && detail::cut_in_stencil<Axis>(p, k, j, i));
  if (p.low_mach || near_body) {
    low_mach_correction(wl, wr, p.gamma, Axis, p.low_mach_normal_only);
  }
  Conserved f = riemann_flux<S>(wl, wr, p.gamma, Axis);
  if (p.viscous) detail::add_viscous_flux<Axis>(f, prim, k, j, i, p);
  return f;
}

// Flux through the low face of padded cell (k, j, i) along Axis of the
// conservative finite-difference WENO5 scheme ([cfd] finite_difference): the
// cells hold point values, the split fluxes of the six points c-3 .. c+2 are
// reconstructed component by component, with the local Lax-Friedrichs speed
// alpha = max(|u_n| + c) over those points (Jiang & Shu 1996 §2.3).
template <int Axis>
KOKKOS_FORCEINLINE_FUNCTION kernels::cfd::Conserved finite_difference_flux(const Field& prim, int k,
                                                                           int j, int i,
                                                                           const FluxParams& p) {
  using namespace kernels::cfd;
  constexpr int di = Axis == 0, dj = Axis == 1, dk = Axis == 2;
  real u[variables][6], f[variables][6], alpha = 0;
  for (int m = 0; m < 6; ++m) {
    const Primitive w = load_primitive(prim, k + (m - 3) * dk, j + (m - 3) * dj, i + (m - 3) * di);
    alpha = math::max(alpha, math::fabs(w.vel[Axis]) + sound_speed(w, p.gamma));
    const Conserved um = to_conserved(w, p.gamma), fm = physical_flux(w, p.gamma, Axis);
    const real values[2][variables] = {{um.rho, um.mom[0], um.mom[1], um.mom[2], um.energy},
                                       {fm.rho, fm.mom[0], fm.mom[1], fm.mom[2], fm.energy}};
    for (int v = 0; v < variables; ++v) u[v][m] = values[0][v], f[v][m] = values[1][v];
  }
  real face[variables];
  for (int v = 0; v < variables; ++v) face[v] = weno5_split_flux(u[v], f[v], alpha);
  Conserved flux{face[0], {face[1], face[2], face[3]}, face[4]};
  if (p.viscous) detail::add_viscous_flux<Axis>(flux, prim, k, j, i, p);
  return flux;
}

}  // namespace cb::cfd
