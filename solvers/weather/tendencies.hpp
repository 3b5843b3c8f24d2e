// Gathering of the weather state around a face or cell into the by-value
// stencils of the point-wise kernels (kernels/weather/flux.hpp, tendency.hpp).
// Axis (0 = x, 1 = y, 2 = z) and NVars (4 in 2-D, 5 in 3-D) are template
// arguments so that offsets and loops fold away; absent variables are 0.
#pragma once

#include "kernels/weather/tendency.hpp"
#include "kernels/weather/tracer.hpp"
#include "solvers/weather/solver.hpp"

namespace cb::weather {

// The NVars variables of padded cell (k, j, i).
template <int NVars>
KOKKOS_FORCEINLINE_FUNCTION kernels::weather::Vars gather_cell(const Field& s, int k, int j,
                                                               int i) {
  kernels::weather::Vars q{};
  for (int v = 0; v < NVars; ++v) q[v] = s(v, k, j, i);
  return q;
}

// The four cells about the low face of padded cell (k, j, i) along Axis.
template <int Axis, int NVars>
KOKKOS_FORCEINLINE_FUNCTION kernels::weather::Stencil gather_stencil(const Field& s, int k, int j,
                                                                     int i) {
  constexpr int di = Axis == 0, dj = Axis == 1, dk = Axis == 2;
  kernels::weather::Stencil q;
  for (int c = 0; c < 4; ++c) {
    q[c] = gather_cell<NVars>(s, k + (c - 2) * dk, j + (c - 2) * dj, i + (c - 2) * di);
  }
  return q;
}

// Mixing ratio rho q / (rho' + rho_bar) of tracer variable t in the four cells about the low
// face of padded cell (k, j, i) along Axis.
template <int Axis>
KOKKOS_FORCEINLINE_FUNCTION Kokkos::Array<real, 4> gather_mixing_ratio(const Field& s,
                                                                       const Column& r, int t,
                                                                       int k, int j, int i) {
  constexpr int di = Axis == 0, dj = Axis == 1, dk = Axis == 2;
  Kokkos::Array<real, 4> q;
  for (int c = 0; c < 4; ++c) {
    const int kc = k + (c - 2) * dk, jc = j + (c - 2) * dj, ic = i + (c - 2) * di;
    q[c] = s(t, kc, jc, ic) / (s(kernels::weather::Var::dens, kc, jc, ic) + real(r(kc)));
  }
  return q;
}

// Background mixing ratio of tracer t (water-dynamics runs; moist_background.cpp) in the four
// cells about the low face of padded row k along Axis: the row's own horizontally.
template <int Axis>
KOKKOS_FORCEINLINE_FUNCTION Kokkos::Array<real, 4> gather_background_ratio(
    const WaterColumns& ratio, int t, int k) {
  Kokkos::Array<real, 4> q;
  for (int c = 0; c < 4; ++c) q[c] = real(ratio(t, Axis == 2 ? k + c - 2 : k));
  return q;
}

// Background at the low face of padded row k along Axis: interface values
// vertically, the column's cell value horizontally (it depends on z only).
template <int Axis>
KOKKOS_FORCEINLINE_FUNCTION kernels::weather::FaceBackground face_background(
    const Column& r, const Column& rt, const Column& r_int, const Column& rt_int,
    const Column& p_int, int k) {
  if (Axis == 2) return {real(r_int(k)), real(rt_int(k)), real(p_int(k))};
  return {real(r(k)), real(rt(k)), real(0)};
}

KOKKOS_FORCEINLINE_FUNCTION kernels::weather::CellBackground cell_background(const Column& r,
                                                                             const Column& rt,
                                                                             int k) {
  return {real(r(k)), real(rt(k))};
}

}  // namespace cb::weather
