// Point-wise profiles of the DCMIP2016 supercell initial state (docs/solvers/weather.md §13).
#pragma once

#include "kernels/weather/euler.hpp"

namespace cb::kernels::weather {

// The DCMIP2016 supercell (Klemp, Skamarock & Park 2015, JAMES 7:1155; Zarzycki et al. 2019,
// GMD 12:879) on a Cartesian domain, as the DCMIP2016 reference code
// (ClimateGlobalChange/DCMIP2016 interface/supercell_test.f90) defines its equatorial column:
// theta(z), relative humidity(z) (no cap on qv: the reference has none), the wind shear u(z)
// and a 3 K cos^2 theta bubble at constant density and vapour mixing ratio. g and cp are the
// model's (9.8, 1004; the reference has 9.80616, 1004.5).
namespace supercell {
constexpr double theta0 = 300.0, theta_tr = 343.0, z_tr = 12000.0, t_tr = 213.0;
constexpr double us = 30.0, uc = 15.0, zs = 5000.0, dzu = 1000.0;
constexpr double bubble_theta = 3.0, bubble_radius = 10000.0, bubble_z = 1500.0,
                 bubble_depth = 1500.0;

// theta0 + (theta_tr - theta0) (z / z_tr)^1.25 below the tropopause, theta_tr
// exp(g (z - z_tr) / (cp T_tr)) above.
KOKKOS_INLINE_FUNCTION double theta(double z) {
  if (z <= z_tr) return theta0 + (theta_tr - theta0) * math::pow(math::max(z, 0.0) / z_tr, 1.25);
  return theta_tr * math::exp(grav / (cp * t_tr) * (z - z_tr));
}

// 1 - 0.75 (z / z_tr)^1.25 below the tropopause, 0.25 above.
KOKKOS_INLINE_FUNCTION double relative_humidity(double z) {
  if (z <= z_tr) return 1.0 - 0.75 * math::pow(math::max(z, 0.0) / z_tr, 1.25);
  return 0.25;
}

// us z / zs - uc below zs - dzu, us - uc above zs + dzu, the quadratic
// (-4/5 + 3 z / zs - 5/4 (z / zs)^2) us - uc between (continuous with its slope).
KOKKOS_INLINE_FUNCTION double wind(double z) {
  if (z <= zs - dzu) return us * z / zs - uc;
  if (z <= zs + dzu) return (-0.8 + 3.0 * z / zs - 1.25 * (z / zs) * (z / zs)) * us - uc;
  return us - uc;
}
}  // namespace supercell

// A 2-D squall line on the same thermodynamic sounding (Weisman & Klemp 1982, Mon. Wea. Rev.
// 110:504, whose theta and relative humidity profiles the supercell's are), with their cap on
// the vapour mixing ratio, q_v <= 14 g/kg (WRF's em_quarter_ss and em_squall2d cases keep it
// too), and the unidirectional low-level shear of Rotunno, Klemp & Weisman (1988, J. Atmos.
// Sci. 45:463) and Weisman, Klemp & Rotunno (1988, J. Atmos. Sci. 45:1990): Delta u over the
// lowest 2.5 km, constant above, here 12 m/s, less 6 m/s so the line moves slowly in the
// grid. The same 3 K cos^2 thermal as the supercell's, a line along y in 3-D.
namespace squall_line {
constexpr double qv_cap = 0.014, shear = 12.0, shear_depth = 2500.0, u_shift = 6.0;

KOKKOS_INLINE_FUNCTION double wind(double z) {
  return shear * math::min(math::max(z, 0.0) / shear_depth, 1.0) - u_shift;
}
}  // namespace squall_line

}  // namespace cb::kernels::weather
