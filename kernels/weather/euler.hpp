// Point-wise pieces of the dry, compressible, non-hydrostatic Euler equations
// in the perturbation form of miniWeather (M. Norman, ORNL,
// github.com/mrnorman/miniWeather, documentation/miniWeather_documentation.pdf):
// state = (rho', rho u, rho w, (rho theta)', rho v) about a hydrostatic
// background rho_bar(z), theta_bar(z); pressure p = C0 (rho theta)^gamma.
// The tendencies (kernels/weather/flux.hpp, tendency.hpp) compute in `real`;
// the initial conditions and diagnostics of solvers/weather in double.
#pragma once

#include "core/kokkos_compat.hpp"
#include "core/pow_positive.hpp"
#include "core/types.hpp"

#include <type_traits>

namespace cb::kernels::weather {

// Variable indices; rho v exists in 3-D runs only (the 2-D layout is miniWeather's).
enum Var : int { dens = 0, umom = 1, wmom = 2, rhot = 3, vmom = 4 };

// Physical constants as miniWeather defines them (exact in double; kernels
// computing in `real` convert them).
constexpr double grav = 9.8;                              // m / s^2
constexpr double cp = 1004.0;                             // J / (kg K)
constexpr double cv = 717.0;                              // J / (kg K)
constexpr double rd = 287.0;                              // J / (kg K)
constexpr double p0 = 1.0e5;                              // Pa
constexpr double gamm = 1.40027894002789400278940027894;  // cp / cv
constexpr double C0 = 27.5629410929725921310572974482;    // rd^gamma p0^(-rd/cv)

// Equation of state p = C0 (rho theta)^gamma, in the precision of its argument. In double
// through math::pow_positive (core/pow_positive.hpp): the same function in every cell and
// on every backend, and one that loops of the face pressure pass vectorise.
template <class T>
KOKKOS_INLINE_FUNCTION T pressure(T rho_theta) {
  if constexpr (std::is_same_v<T, double>) {
    return C0 * math::pow_positive(rho_theta, gamm);
  } else {
    return T(C0) * math::pow(rho_theta, T(gamm));
  }
}

// Hydrostatic background of constant potential temperature theta0 = 300 K:
// Exner function 1 - g z / (cp theta0).
KOKKOS_INLINE_FUNCTION void background_const_theta(double z, double& rho, double& theta) {
  const double theta0 = 300.0;
  const double exner = 1.0 - grav * z / (cp * theta0);
  const double p = p0 * math::pow(exner, cp / rd);
  const double rho_theta = math::pow(p / C0, 1.0 / gamm);
  theta = theta0;
  rho = rho_theta / theta;
}

// Hydrostatic background of constant Brunt-Vaisala frequency n (theta0 = 300 K
// at the ground): theta = theta0 exp(n^2 z / g).
KOKKOS_INLINE_FUNCTION void background_const_bv(double z, double n, double& rho, double& theta) {
  const double theta0 = 300.0;
  theta = theta0 * math::exp(n * n / grav * z);
  const double exner = 1.0 - grav * grav / (cp * n * n) * (theta - theta0) / (theta * theta0);
  const double p = p0 * math::pow(exner, cp / rd);
  rho = math::pow(p / C0, 1.0 / gamm) / theta;
}

// cos^2 bump of amplitude amp inside the ellipsoid of radii (rx, ry, rz) about
// (x0, y0, z0); a zero radius removes that axis (2-D runs).
KOKKOS_INLINE_FUNCTION double ellipse_cosine(double x, double y, double z, double amp, double x0,
                                             double y0, double z0, double rx, double ry,
                                             double rz) {
  const double pi = math::pi;
  double d2 = ((x - x0) / rx) * ((x - x0) / rx) + ((z - z0) / rz) * ((z - z0) / rz);
  if (ry > 0) d2 += ((y - y0) / ry) * ((y - y0) / ry);
  const double dist = math::sqrt(d2) * pi / 2;
  if (dist > pi / 2) return 0.0;
  const double c = math::cos(dist);
  return amp * c * c;
}

}  // namespace cb::kernels::weather
