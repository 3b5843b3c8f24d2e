// Moist hydrostatic background of the weather solver (docs/solvers/weather.md §10): the case's
// potential temperature theta_bar(z), vapour at the relative humidity of the case file
// (Moisture::relative_humidity) of the Kessler saturation mixing ratio, and the Exner function
// integrated from pi = 1 at the ground through dpi/dz = -g / (cp theta_rho)
// (kernels/weather/moist.hpp). The integration runs once on the host (classical RK4, 16 steps
// per cell height, the global column, so every rank tabulates the same numbers); points take
// pi from the table by cubic Hermite interpolation of the tabulated values and slopes.
#pragma once

#include "kernels/weather/kessler.hpp"
#include "kernels/weather/moist.hpp"
#include "solvers/weather/cases.hpp"

namespace cb::weather {

// pi and dpi/dz at z = z0 + n dz, n = 0 .. extent - 1.
struct ExnerTable {
  Kokkos::View<double*, MemSpace> exner, slope;
  double z0, dz;
};

// Background at a point: dry density, potential temperature, vapour and cloud.
struct MoistPoint {
  double rho, theta, qv, qc;
};

// Kessler saturation mixing ratio (380 / p) exp(17.27 (T - 273) / (T - 36)) at Exner function
// pi and potential temperature theta, T = theta pi (kernels/weather/kessler.hpp).
KOKKOS_INLINE_FUNCTION double saturation_vapour(double exner, double theta) {
  using namespace kernels::weather;
  const double p = p0 * math::pow(exner, cp / rd);
  return kessler_saturation_mixing_ratio(380.0 / p, theta * exner);
}

// Vapour of the background: the case's relative humidity of saturation.
KOKKOS_INLINE_FUNCTION double background_vapour(const CaseSetup& c, double exner, double theta) {
  return c.relative_humidity * saturation_vapour(exner, theta);
}

// dpi/dz of the background at height z and Exner function pi.
KOKKOS_INLINE_FUNCTION double background_exner_slope(const CaseSetup& c, double z, double exner) {
  double hr = 0, theta = 0;
  background(c, z, hr, theta);
  const double qv = background_vapour(c, exner, theta);
  return kernels::weather::moist_exner_slope(theta, qv, qv);
}

// Cubic Hermite interpolation of the table at z (inside it).
KOKKOS_INLINE_FUNCTION double table_exner(const ExnerTable& t, double z) {
  const double s = (z - t.z0) / t.dz;
  int n = int(math::floor(s));
  n = n < 0 ? 0 : n > int(t.exner.extent(0)) - 2 ? int(t.exner.extent(0)) - 2 : n;
  const double u = s - n, u2 = u * u, u3 = u2 * u;
  return (2 * u3 - 3 * u2 + 1) * t.exner(n) + (u3 - 2 * u2 + u) * t.dz * t.slope(n) +
         (-2 * u3 + 3 * u2) * t.exner(n + 1) + (u3 - u2) * t.dz * t.slope(n + 1);
}

KOKKOS_INLINE_FUNCTION MoistPoint moist_background(const CaseSetup& c, const ExnerTable& t,
                                                   double z) {
  double hr = 0;
  MoistPoint b{0, 0, 0, 0};
  background(c, z, hr, b.theta);
  const double exner = table_exner(t, z);
  b.qv = background_vapour(c, exner, b.theta);
  b.rho = kernels::weather::moist_dry_density(exner, b.theta, b.qv);
  return b;
}

// Initial water at a sampled point of a moist-dynamics run: the background's outside the
// case's perturbation (theta' != 0), inside it the bubble's relative humidity of the
// background pressure and temperature and its cloud.
KOKKOS_INLINE_FUNCTION PointWater moist_point_water(const CaseSetup& c, const ExnerTable& t,
                                                    const PointState& s, double z,
                                                    const MoistPoint& b) {
  if (s.t == 0.0) return {b.qv, b.qc, 0.0};
  return {c.bubble_relative_humidity * saturation_vapour(table_exner(t, z), b.theta),
          c.bubble_cloud, 0.0};
}

// The table over [z_lo, z_hi] (z_lo <= 0 <= z_hi), built on the host.
ExnerTable make_exner_table(const CaseSetup& c, double z_lo, double z_hi, double dz);

}  // namespace cb::weather
