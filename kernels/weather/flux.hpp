// Face fluxes of the weather equations along one sweep direction
// (docs/solvers/weather.md §1-2; miniWeather compute_flux_x/z, M. Norman, ORNL,
// documentation/miniWeather_documentation.pdf): fourth-order interface values
// from four cells, the Euler flux of that face state, fourth-order
// hyperviscosity, and the optional constant viscosity and diffusivity of
// Straka et al. (1993), Int. J. Numer. Meth. Fluids 17:1, eqs. 1-4.
// The face between cells c-1 and c is the low face of cell c; a sweep along
// axis a (0 = x, 1 = y, 2 = z) has the normal velocity vel[a].
#pragma once

#include "kernels/weather/euler.hpp"

namespace cb::kernels::weather {

// One value per variable, indexed by Var; rho v is 0 in 2-D runs.
using Vars = Kokkos::Array<real, 5>;
// The cells about a face along the sweep: c-2, c-1 | face | c, c+1.
using Stencil = Kokkos::Array<Vars, 4>;

// Background at a face: rho_bar and (rho theta)_bar there, and the pressure
// taken off the equation of state (p_bar in the vertical sweep, where only p'
// balances gravity; 0 in horizontal sweeps, where p_bar does not vary).
struct FaceBackground {
  real rho, rho_theta, pressure;
};

// Background of a cell: rho_bar and (rho theta)_bar.
struct CellBackground {
  real rho, rho_theta;
};

struct FluxParams {
  real hv;                  // hyperviscosity coefficient of the stage (see hyperviscosity)
  real h;                   // spacing along the sweep
  real viscosity;           // m^2/s on the velocity (0: none)
  real diffusivity;         // m^2/s on theta' (0: none)
  real tracer_diffusivity;  // m^2/s on the moist tracers (0: none; kernels/weather/diffusion.hpp)
};

// Face state: total density, velocity (x, y, z), total theta, pressure less
// the face background's.
struct FaceState {
  real rho;
  Kokkos::Array<real, 3> vel;
  real theta, p;
};

// Cell velocity (x, y, z) and potential-temperature perturbation theta' =
// rho theta / rho - theta_bar, the variables that diffuse.
struct CellVelocityTheta {
  Kokkos::Array<real, 3> vel;
  real theta_pert;
};

// Fourth-order interface value from four cell averages s0 | s1 [face] s2 | s3:
// (-s0 + 7 s1 + 7 s2 - s3) / 12, exact for cubics.
KOKKOS_INLINE_FUNCTION real interpolate4(real s0, real s1, real s2, real s3) {
  return -s0 / 12 + 7 * s1 / 12 + 7 * s2 / 12 - s3 / 12;
}

// The third difference across the face, -s0 + 3 s1 - 3 s2 + s3 (h^3 q''' for
// a cubic q), for fourth-order hyperviscosity.
KOKKOS_INLINE_FUNCTION real third_difference(real s0, real s1, real s2, real s3) {
  return -s0 + 3 * s1 - 3 * s2 + s3;
}

// Hyperviscosity coefficient of a directional RK stage of length dt_stage:
// hv = -beta dx / (16 dt_stage) (miniWeather; beta in [0, 1] sets the strength).
KOKKOS_INLINE_FUNCTION real hyperviscosity(real beta, real dx, real dt_stage) {
  return -beta * dx / (16 * dt_stage);
}

// Pressure at a face from its interpolated perturbations rho' and (rho theta)' and the face
// background: C0 (rho theta f_v)^gamma less the background pressure, with rho = rho' +
// rho_bar and theta = ((rho theta)' + (rho theta)_bar) / rho, f_v the vapour factor of the
// moist equation of state (kernels/weather/moist.hpp; exactly 1 in dry runs). The equation
// of state is computed in a pass of its own over the faces (solvers/weather/tendencies.cpp)
// whose loop the compiler can vectorise, power function included.
KOKKOS_FORCEINLINE_FUNCTION real face_pressure(real rho_pert, real rho_theta_pert,
                                               const FaceBackground& bg, real eos_factor = 1) {
  const real rho = rho_pert + bg.rho, theta = (rho_theta_pert + bg.rho_theta) / rho;
  return pressure(rho * theta * eos_factor) - bg.pressure;
}

// Face state from the interpolated perturbations q, the face background and the face's
// pressure p (face_pressure): rho = rho' + rho_bar, u = rho u / rho, theta = ((rho theta)' +
// (rho theta)_bar) / rho.
KOKKOS_INLINE_FUNCTION FaceState face_state(const Vars& q, const FaceBackground& bg, real p) {
  FaceState w;
  w.rho = q[dens] + bg.rho;
  w.vel[0] = q[umom] / w.rho;
  w.vel[1] = q[vmom] / w.rho;
  w.vel[2] = q[wmom] / w.rho;
  w.theta = (q[rhot] + bg.rho_theta) / w.rho;
  w.p = p;
  return w;
}

// Euler flux along `axis` of a face state (docs/solvers/weather.md §1):
// (rho u_n, rho u_n u + p e_x, rho u_n w + p e_z, rho u_n theta, rho u_n v + p e_y).
KOKKOS_INLINE_FUNCTION Vars euler_flux(const FaceState& w, int axis) {
  const real mass = w.rho * w.vel[axis];
  Vars f;
  f[dens] = mass;
  f[umom] = mass * w.vel[0] + (axis == 0 ? w.p : real(0));
  f[wmom] = mass * w.vel[2] + (axis == 2 ? w.p : real(0));
  f[rhot] = mass * w.theta;
  f[vmom] = mass * w.vel[1] + (axis == 1 ? w.p : real(0));
  return f;
}

// Hyperviscous flux -hv d3 of each variable, d3 its third difference across
// the face; with hv < 0 it damps the fourth derivative.
KOKKOS_INLINE_FUNCTION Vars hyperviscous_flux(const Vars& d3, real hv) {
  Vars f;
  for (int v = 0; v < 5; ++v) f[v] = -hv * d3[v];
  return f;
}

KOKKOS_INLINE_FUNCTION CellVelocityTheta cell_velocity_theta(const Vars& q,
                                                             const CellBackground& bg) {
  const real rho = q[dens] + bg.rho;
  CellVelocityTheta c;
  c.vel[0] = q[umom] / rho;
  c.vel[1] = q[vmom] / rho;
  c.vel[2] = q[wmom] / rho;
  c.theta_pert = (q[rhot] + bg.rho_theta) / rho - bg.rho_theta / bg.rho;
  return c;
}

// Diffusive flux through the face from the cells beside it, lo (c-1) and hi
// (c), and the face density rho: -rho nu (u_hi - u_lo) / h for each velocity
// component and -rho kappa (theta'_hi - theta'_lo) / h; none for mass. Straka
// et al. (1993) diffuse theta' on a constant-theta background, so a
// stratified background stays in balance.
KOKKOS_INLINE_FUNCTION Vars diffusive_flux(const CellVelocityTheta& lo, const CellVelocityTheta& hi,
                                           real rho, const FluxParams& p) {
  const real nu = rho * p.viscosity / p.h, kappa = rho * p.diffusivity / p.h;
  Vars f;
  f[dens] = 0;
  f[umom] = -nu * (hi.vel[0] - lo.vel[0]);
  f[wmom] = -nu * (hi.vel[2] - lo.vel[2]);
  f[rhot] = -kappa * (hi.theta_pert - lo.theta_pert);
  f[vmom] = -nu * (hi.vel[1] - lo.vel[1]);
  return f;
}

// The fourth-order interface value of every variable of a stencil.
KOKKOS_INLINE_FUNCTION Vars face_values(const Stencil& q) {
  Vars values;
  for (int v = 0; v < 5; ++v) values[v] = interpolate4(q[0][v], q[1][v], q[2][v], q[3][v]);
  return values;
}

// Euler flux of the interpolated state plus hyperviscous flux through a face along `axis`,
// from the stencil q of perturbation variables and the face's pressure (face_pressure). At a
// wall face (free slip) the normal velocity and the hyperviscous mass flux are zero, so no
// mass crosses it.
KOKKOS_FORCEINLINE_FUNCTION Vars inviscid_face_flux(const Stencil& q, const FaceBackground& face,
                                                    real pressure, int axis, bool wall, real hv) {
  Vars d3;
  for (int v = 0; v < 5; ++v) d3[v] = third_difference(q[0][v], q[1][v], q[2][v], q[3][v]);
  FaceState w = face_state(face_values(q), face, pressure);
  if (wall) {
    w.vel[axis] = 0;
    d3[dens] = 0;
  }
  const Vars euler = euler_flux(w, axis), hyper = hyperviscous_flux(d3, hv);
  Vars f;
  for (int v = 0; v < 5; ++v) f[v] = euler[v] + hyper[v];
  return f;
}

// Total flux through a face: inviscid_face_flux plus the diffusive flux when there is
// viscosity or diffusivity, none at a wall face (insulating).
KOKKOS_FORCEINLINE_FUNCTION Vars face_flux(const Stencil& q, const FaceBackground& face,
                                           real pressure, const CellBackground& lo,
                                           const CellBackground& hi, int axis, bool wall,
                                           const FluxParams& p) {
  Vars f = inviscid_face_flux(q, face, pressure, axis, wall, p.hv);
  if (wall || !(p.viscosity > 0 || p.diffusivity > 0)) return f;
  const real rho = interpolate4(q[0][dens], q[1][dens], q[2][dens], q[3][dens]) + face.rho;
  const Vars diffusive =
      diffusive_flux(cell_velocity_theta(q[1], lo), cell_velocity_theta(q[2], hi), rho, p);
  for (int v = 0; v < 5; ++v) {
    if (v != dens) f[v] += diffusive[v];  // (adding its 0 could turn a -0 mass flux into +0)
  }
  return f;
}

}  // namespace cb::kernels::weather
