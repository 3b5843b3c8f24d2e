// Initial conditions of the CFD cases: the primitive state at a point, as a
// device function on a by-value description. Sources are named per case.
#pragma once

#include "kernels/cfd/state.hpp"

namespace cb::cfd {

enum class Case : int {
  sod,
  lax,
  toro123,
  blast,
  riemann2d,
  double_mach,
  isentropic_vortex,
  kelvin_helmholtz,
  taylor_green,
  cavity,
  uniform
};

struct CaseSetup {
  Case kind;
  int orientation;   // 1-D Riemann problems: the axis they lie along
  double interface;  // position of the initial discontinuity (1-D and riemann2d)
  double gamma;
  double mach;             // taylor_green and cavity reference Mach number
  double vortex_strength;  // isentropic_vortex epsilon
  double uniform[5];       // uniform: rho, u, v, w, p
  double pulse[5];         // uniform: acoustic pulse amplitude (of p), half-width, centre
};

using kernels::cfd::Primitive;

KOKKOS_INLINE_FUNCTION Primitive primitive(double rho, double u, double v, double w, double p) {
  return {real(rho), {real(u), real(v), real(w)}, real(p)};
}

// Left and right states of the 1-D Riemann problems (Toro 2009, Table 4.1:
// test 1 = Sod, test 2 = "123", test 3 = left half of the blast wave; Lax's
// problem from Lax 1954, CPAM 7:159, as in Harten 1983).
struct RiemannStates {
  double left[3], right[3];  // rho, u, p
};

KOKKOS_INLINE_FUNCTION RiemannStates riemann_states(Case kind) {
  switch (kind) {
    case Case::lax:
      return {{0.445, 0.698, 3.528}, {0.5, 0.0, 0.571}};
    case Case::toro123:
      return {{1.0, -2.0, 0.4}, {1.0, 2.0, 0.4}};
    case Case::blast:
      return {{1.0, 0.0, 1000.0}, {1.0, 0.0, 0.01}};
    default:
      return {{1.0, 0.0, 1.0}, {0.125, 0.0, 0.1}};
  }
}

// Woodward & Colella (1984), J. Comput. Phys. 54:115: a Mach 10 shock in air
// (gamma 1.4) at 60 degrees to the wall; post-shock rho 8, p 116.5, speed 8.25
// along the shock normal; pre-shock rho 1.4, p 1.
KOKKOS_INLINE_FUNCTION Primitive double_mach_post_shock() {
  return primitive(8.0, 8.25 * 0.86602540378443864676, -8.25 * 0.5, 0.0, 116.5);
}
KOKKOS_INLINE_FUNCTION Primitive double_mach_pre_shock() {
  return primitive(1.4, 0.0, 0.0, 0.0, 1.0);
}
// x of the shock at height y and time t: 1/6 + (y + 20 t) / sqrt(3).
KOKKOS_INLINE_FUNCTION double double_mach_shock_x(double y, double t) {
  return 1.0 / 6.0 + (y + 20.0 * t) / 1.73205080756887729353;
}

namespace detail {

// Lax & Liu (1998), SIAM J. Sci. Comput. 19:319, configuration 3 (four
// shocks), quadrants about (interface, interface).
KOKKOS_INLINE_FUNCTION Primitive riemann2d_state(double x, double y, double c) {
  const bool right = x > c, top = y > c;
  if (right && top) return primitive(1.5, 0.0, 0.0, 0.0, 1.5);
  if (!right && top) return primitive(0.5323, 1.206, 0.0, 0.0, 0.3);
  if (!right && !top) return primitive(0.138, 1.206, 1.206, 0.0, 0.029);
  return primitive(0.5323, 0.0, 1.206, 0.0, 0.3);
}

// Isentropic vortex of Shu (1998), LNM 1697 §4.1 (Yee, Sandham & Djomehri
// 1999): free stream rho = p = 1, velocity (1, 1), strength epsilon, centred
// at the origin.
KOKKOS_INLINE_FUNCTION Primitive isentropic_vortex(double x, double y, double gamma, double eps) {
  const double r2 = x * x + y * y;
  const double swirl = eps / (2.0 * math::pi) * math::exp(0.5 * (1.0 - r2));
  const double t =
      1.0 - (gamma - 1.0) * eps * eps / (8.0 * gamma * math::pi * math::pi) * math::exp(1.0 - r2);
  const double rho = math::pow(t, 1.0 / (gamma - 1.0));
  return primitive(rho, 1.0 - swirl * y, 1.0 + swirl * x, 0.0, rho * t);
}

// McNally, Lyra & Passy (2012), ApJS 201:18, eqs. 1-4: smoothed shear layers
// at y = 1/4 and 3/4 (rho 1 / 2, u 0.5 / -0.5, L = 0.025), v = 0.01 sin 4 pi x,
// p = 2.5 (their gamma 5/3).
KOKKOS_INLINE_FUNCTION Primitive kelvin_helmholtz(double x, double y) {
  const double rho1 = 1.0, rho2 = 2.0, u1 = 0.5, u2 = -0.5, length = 0.025;
  const double rho_m = 0.5 * (rho1 - rho2), u_m = 0.5 * (u1 - u2);
  double rho, u;
  if (y < 0.25) {
    const double e = math::exp((y - 0.25) / length);
    rho = rho1 - rho_m * e, u = u1 - u_m * e;
  } else if (y < 0.5) {
    const double e = math::exp((0.25 - y) / length);
    rho = rho2 + rho_m * e, u = u2 + u_m * e;
  } else if (y < 0.75) {
    const double e = math::exp((y - 0.75) / length);
    rho = rho2 + rho_m * e, u = u2 + u_m * e;
  } else {
    const double e = math::exp((0.75 - y) / length);
    rho = rho1 - rho_m * e, u = u1 - u_m * e;
  }
  return primitive(rho, u, 0.01 * math::sin(4.0 * math::pi * x), 0.0, 2.5);
}

// Taylor-Green vortex of the HiOCFD workshop case C3.5 on [-pi, pi]^3
// (rho0 = V0 = L = 1, p0 = 1 / (gamma Mach^2), uniform temperature T0 = p0).
KOKKOS_INLINE_FUNCTION Primitive taylor_green(double x, double y, double z, double gamma,
                                              double mach) {
  const double p0 = 1.0 / (gamma * mach * mach);
  const double p = p0 + (math::cos(2 * x) + math::cos(2 * y)) * (math::cos(2 * z) + 2) / 16.0;
  return primitive(p / p0, math::sin(x) * math::cos(y) * math::cos(z),
                   -math::cos(x) * math::sin(y) * math::cos(z), 0.0, p);
}

// The uniform state, plus an optional acoustic pulse p' = A p exp(-ln 2 r^2 / b^2) at the
// state's entropy (rho = rho0 (p / p0)^(1 / gamma)), velocity unchanged: the Gaussian pulse of
// Tam & Webb (1993), J. Comput. Phys. 107:262, isentropic to all orders (their linear
// rho' = p' / c^2 would leave an entropy mode of order A^2 behind), here a test of the
// far-field boundaries.
KOKKOS_INLINE_FUNCTION Primitive uniform_with_pulse(const CaseSetup& c, double x, double y,
                                                    double z) {
  const double* u = c.uniform;
  if (c.pulse[0] == 0.0) return primitive(u[0], u[1], u[2], u[3], u[4]);
  const double dx = x - c.pulse[2], dy = y - c.pulse[3], dz = z - c.pulse[4];
  const double r2 = (dx * dx + dy * dy + dz * dz) / (c.pulse[1] * c.pulse[1]);
  const double dp = c.pulse[0] * u[4] * math::exp(-math::log(2.0) * r2);
  return primitive(u[0] * math::pow(1.0 + dp / u[4], 1.0 / c.gamma), u[1], u[2], u[3], u[4] + dp);
}

}  // namespace detail

KOKKOS_INLINE_FUNCTION Primitive initial_state(const CaseSetup& c, double x, double y, double z) {
  const double position[3] = {x, y, z};
  switch (c.kind) {
    case Case::riemann2d:
      return detail::riemann2d_state(x, y, c.interface);
    case Case::double_mach:
      return x < double_mach_shock_x(y, 0.0) ? double_mach_post_shock() : double_mach_pre_shock();
    case Case::isentropic_vortex:
      return detail::isentropic_vortex(x, y, c.gamma, c.vortex_strength);
    case Case::kelvin_helmholtz:
      return detail::kelvin_helmholtz(x, y);
    case Case::taylor_green:
      return detail::taylor_green(x, y, z, c.gamma, c.mach);
    case Case::cavity:
      return primitive(1.0, 0.0, 0.0, 0.0, 1.0 / (c.gamma * c.mach * c.mach));
    case Case::uniform:
      return detail::uniform_with_pulse(c, x, y, z);
    default:
      break;
  }
  const RiemannStates s = riemann_states(c.kind);
  const double* side = position[c.orientation] < c.interface ? s.left : s.right;
  Primitive w = primitive(side[0], 0.0, 0.0, 0.0, side[2]);
  w.vel[c.orientation] = real(side[1]);
  return w;
}

}  // namespace cb::cfd
