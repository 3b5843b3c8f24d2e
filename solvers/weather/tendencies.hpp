// The directional flux and tendency kernels of the weather solver (miniWeather
// compute_tendencies_x/z, generalised to any axis and to 3-D).
#pragma once

#include "solvers/weather/solver.hpp"

namespace cb::weather {

struct FluxKernel {
  double hv;         // hyperviscosity coefficient of this stage
  double h;          // spacing along axis
  double viscosity;  // m^2/s (0: inviscid)
  double diffusivity;
  bool viscous;       // viscosity or diffusivity non-zero
  int wall_low;       // padded index of a wall face along the axis, or -1
  int wall_high;
};

// Flux vector through the low face of padded cell (k, j, i) along Axis
// (0 = x, 1 = y, 2 = z) for NVars = 4 (2-D) or 5 (3-D) variables; both are
// template arguments so that offsets, loops and branches fold away.
template <int Axis, int NVars>
KOKKOS_FORCEINLINE_FUNCTION void face_flux(const Field& s, const Column& hy_r, const Column& hy_rt,
                                           const Column& hy_r_int, const Column& hy_rt_int,
                                           const Column& hy_p_int, int k, int j, int i,
                                           const FluxKernel& p, double flux[5]) {
  using namespace kernels::weather;
  constexpr int di = Axis == 0, dj = Axis == 1, dk = Axis == 2;
  double vals[5] = {0, 0, 0, 0, 0}, d3[5] = {0, 0, 0, 0, 0};
  for (int v = 0; v < NVars; ++v) {
    const double s0 = s(v, k - 2 * dk, j - 2 * dj, i - 2 * di);
    const double s1 = s(v, k - dk, j - dj, i - di);
    const double s2 = s(v, k, j, i);
    const double s3 = s(v, k + dk, j + dj, i + di);
    vals[v] = interpolate4(s0, s1, s2, s3);
    d3[v] = third_difference(s0, s1, s2, s3);
  }
  // Background at the face: interface values vertically, the column's cell
  // value horizontally (it depends on z only).
  const double hr = dk ? hy_r_int(k) : hy_r(k);
  const double hrt = dk ? hy_rt_int(k) : hy_rt(k);
  const double r = vals[dens] + hr;
  double u = vals[umom] / r, v = NVars > 4 ? vals[vmom] / r : 0.0, w = vals[wmom] / r;
  const double t = (vals[rhot] + hrt) / r;
  const double pr = pressure(r * t) - (dk ? hy_p_int(k) : 0.0);
  const int face = Axis == 0 ? i : Axis == 1 ? j : k;
  const bool wall = face == p.wall_low || face == p.wall_high;
  if (wall) {  // no flow through a wall, and exact mass conservation
    (Axis == 0 ? u : Axis == 1 ? v : w) = 0;
    d3[dens] = 0;
  }
  const double un = Axis == 0 ? u : Axis == 1 ? v : w;
  flux[dens] = r * un - p.hv * d3[dens];
  flux[umom] = r * un * u + (Axis == 0 ? pr : 0.0) - p.hv * d3[umom];
  flux[wmom] = r * un * w + (Axis == 2 ? pr : 0.0) - p.hv * d3[wmom];
  flux[rhot] = r * un * t - p.hv * d3[rhot];
  flux[vmom] = r * un * v + (Axis == 1 ? pr : 0.0) - p.hv * d3[vmom];
  if (wall || !p.viscous) return;
  // Constant viscosity on the velocity and diffusivity on theta' (Straka et al.
  // 1993, eqs. 1-4, whose background theta is constant; diffusing theta'
  // leaves a stratified background in balance), as fluxes -rho nu du/dn from
  // the two cells beside the face.
  double cell_u[2][3], cell_t[2];
  for (int c = 0; c < 2; ++c) {
    const int kk = k - dk * (1 - c), jj = j - dj * (1 - c), ii = i - di * (1 - c);
    const double rc = s(dens, kk, jj, ii) + hy_r(kk);
    cell_u[c][0] = s(umom, kk, jj, ii) / rc;
    cell_u[c][1] = NVars > 4 ? s(vmom, kk, jj, ii) / rc : 0.0;
    cell_u[c][2] = s(wmom, kk, jj, ii) / rc;
    cell_t[c] = (s(rhot, kk, jj, ii) + hy_rt(kk)) / rc - hy_rt(kk) / hy_r(kk);  // theta'

  }
  const double nu = r * p.viscosity / p.h, kappa = r * p.diffusivity / p.h;
  flux[umom] -= nu * (cell_u[1][0] - cell_u[0][0]);
  flux[vmom] -= nu * (cell_u[1][1] - cell_u[0][1]);
  flux[wmom] -= nu * (cell_u[1][2] - cell_u[0][2]);
  flux[rhot] -= kappa * (cell_t[1] - cell_t[0]);
}

}  // namespace cb::weather
