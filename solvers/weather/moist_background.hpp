// Moist hydrostatic background of the weather solver (docs/solvers/weather.md §10): the case's
// potential temperature theta_bar(z), vapour at the relative humidity of the case file
// (Moisture::relative_humidity) of the Kessler saturation mixing ratio, and the Exner function
// integrated from pi = 1 at the ground through dpi/dz = -g / (cp theta_rho)
// (kernels/weather/moist.hpp); the Bryan-Fritsch case integrates its theta with it. The
// integration runs once on the host (classical RK4, 16 steps per cell height, the global
// column, so every rank tabulates the same numbers); points take pi (and theta) from the table
// by cubic Hermite interpolation of the tabulated values and slopes.
#pragma once

#include "kernels/weather/exact_thermo.hpp"
#include "kernels/weather/kessler.hpp"
#include "kernels/weather/moist.hpp"
#include "solvers/weather/cases.hpp"

namespace cb::weather {

// pi and dpi/dz at z = z0 + n dz, n = 0 .. extent - 1; theta and dtheta/dz where the case's
// theta follows from the integration (Bryan-Fritsch), else empty.
struct ExnerTable {
  Kokkos::View<double*, MemSpace> exner, slope, theta, theta_slope;
  double z0, dz;
};

// A point of the background column: Exner function and potential temperature, or their
// slopes d/dz.
struct ColumnPoint {
  double exner, theta;
};

// Background at a point: dry density, potential temperature, vapour and cloud.
struct MoistPoint {
  double rho, theta, qv, qc;
};

// Saturation mixing ratio at Exner function pi and potential temperature theta, T = theta pi:
// Kessler's (380 / p) exp(17.27 (T - 273) / (T - 36)) (kernels/weather/kessler.hpp), or with
// `exact` thermodynamics Bolton's (kernels/weather/exact_thermo.hpp).
KOKKOS_INLINE_FUNCTION double saturation_vapour(double exner, double theta, bool exact = false) {
  using namespace kernels::weather;
  const double p = p0 * math::pow(exner, cp / rd);
  if (exact) return exact::saturation_mixing_ratio(theta * exner, p);
  return kessler_saturation_mixing_ratio(380.0 / p, theta * exner);
}

// Bryan & Fritsch (2002), Mon. Wea. Rev. 130:2917, section 4: a saturated, neutral atmosphere
// of equivalent potential temperature 320 K and total water 0.020. Neutral for the model's
// thermodynamics (constant L and cp, the Kessler saturation; their own advice for models with
// approximate equations): theta_e = theta exp(L qvs / (cp T)) is 320 K at the ground, and
// above it theta follows the model's own saturated adiabat (adiabat_theta_slope), along which
// a lifted saturated parcel keeps the background's theta. (A constant theta_e of this form is
// not neutral for the model: its saturation adjustment conserves it only to first order, and
// from the same ground state the model's adiabat is 0.6 K warmer at 3 km, 1.5 K at 6 km.)
// With exact thermodynamics (`exact` below): Emanuel's reversible theta_e is 320 K at the
// ground and theta follows the saturated adiabat of those thermodynamics
// (exact_adiabat_theta_slope).
namespace bryan_fritsch {
constexpr double theta_e = 320.0, q_total = 0.020, latent_heat = 2.5e6;

// theta_e = theta exp(L qv / (cp T)), T = theta pi.
KOKKOS_INLINE_FUNCTION double theta_e_of(double theta, double exner, double qv) {
  return theta * math::exp(latent_heat * qv / (kernels::weather::cp * theta * exner));
}

// theta_e of air at pi and theta holding vapour qv of total water qt: theta_e_of, or with
// `exact` thermodynamics the reversible theta_e of Emanuel (1994), eq. 4.5.11.
KOKKOS_INLINE_FUNCTION double theta_e_at(double exner, double theta, double qv, double qt,
                                         bool exact) {
  using namespace kernels::weather;
  if (!exact) return theta_e_of(theta, exner, qv);
  return exact::equivalent_potential_temperature(theta * exner, p0 * math::pow(exner, cp / rd), qv,
                                                 qt);
}

// theta_e of saturated air of the case's total water.
KOKKOS_INLINE_FUNCTION double equivalent_theta(double exner, double theta, bool exact = false) {
  return theta_e_at(exner, theta, saturation_vapour(exner, theta, exact), q_total, exact);
}

// The saturated theta of equivalent potential temperature `target` at Exner function pi, by
// bisection (theta_e grows with theta) to 1e-12 K.
KOKKOS_INLINE_FUNCTION double saturated_theta(double exner, double target, bool exact = false) {
  double lo = 150.0 / exner, hi = 400.0 / exner;
  for (int it = 0; it < 60; ++it) {
    const double mid = 0.5 * (lo + hi);
    (equivalent_theta(exner, mid, exact) < target ? lo : hi) = mid;
  }
  return 0.5 * (lo + hi);
}

// theta_e of air of dry density rho, rho theta, vapour qv and total water qt, pi from the moist
// equation of state (kernels/weather/moist.hpp).
KOKKOS_INLINE_FUNCTION double cell_equivalent_theta(double rho, double rho_theta, double qv,
                                                    double qt, bool exact) {
  using namespace kernels::weather;
  const double exner = math::pow(pressure(rho_theta * vapour_factor(qv)) / p0, rd / cp);
  return theta_e_at(exner, rho_theta / rho, qv, qt, exact);
}

// dtheta/dz along the model's saturated adiabat. The saturation adjustment heats by
// dtheta = -L / (cp pi) dqvs (kernels/weather/kessler.hpp) and qvs = qvs(pi, theta) with
// dln qvs = -(cp / Rd) dpi / pi + a dT, a = 17.27 * 237 / (T - 36)^2, dT = pi dtheta + theta dpi:
// dtheta/dz (1 + L qvs a / cp) = (L qvs / (cp pi)) ((cp / Rd) / pi - a theta) dpi/dz.
KOKKOS_INLINE_FUNCTION double adiabat_theta_slope(double exner, double theta, double exner_slope) {
  using kernels::weather::cp, kernels::weather::rd;
  const double t36 = theta * exner - 36.0, a = 17.27 * 237.0 / (t36 * t36);
  const double lq = latent_heat * saturation_vapour(exner, theta);
  return lq / (cp * exner) * (cp / rd / exner - a * theta) * exner_slope / (1.0 + lq * a / cp);
}

// dtheta/dz along the saturated adiabat of exact thermodynamics: dT/dp of
// kernels/weather/exact_thermo.hpp with dp = (cp / Rd) p dpi / pi, and dtheta = (dT - theta dpi) /
// pi.
KOKKOS_INLINE_FUNCTION double exact_adiabat_theta_slope(double exner, double theta,
                                                        double exner_slope) {
  using kernels::weather::cp, kernels::weather::rd, kernels::weather::p0;
  const double p = p0 * math::pow(exner, cp / rd);
  const double dp = cp / rd * p * exner_slope / exner;
  const double dt =
      kernels::weather::exact::saturated_adiabat_slope(theta * exner, p, q_total) * dp;
  return (dt - theta * exner_slope) / exner;
}

// The saturated theta whose density potential temperature theta (1 + 1.608 qvs) / (1 + qt)
// is `target`, at Exner function pi, by bisection.
KOKKOS_INLINE_FUNCTION double theta_of_density_theta(double exner, double target,
                                                     bool exact = false) {
  double lo = 150.0 / exner, hi = 400.0 / exner;
  for (int it = 0; it < 60; ++it) {
    const double mid = 0.5 * (lo + hi);
    const double theta_rho = mid *
                             kernels::weather::vapour_factor(saturation_vapour(exner, mid, exact)) /
                             (1.0 + q_total);
    (theta_rho < target ? lo : hi) = mid;
  }
  return 0.5 * (lo + hi);
}
}  // namespace bryan_fritsch

// Vapour of the background at height z: the case's relative humidity of saturation (the
// supercell's profile, kernels/weather/supercell.hpp, or the case file's constant).
KOKKOS_INLINE_FUNCTION double background_vapour(const CaseSetup& c, double z, double exner,
                                                double theta) {
  const double saturation = saturation_vapour(exner, theta, c.exact_thermo);
  if (!on_supercell_sounding(c.kind)) return c.relative_humidity * saturation;
  const double qv = kernels::weather::supercell::relative_humidity(z) * saturation;
  if (c.kind == Case::squall_line) return math::min(qv, kernels::weather::squall_line::qv_cap);
  return qv;
}

// d/dz of the background column at height z: dpi/dz, and dtheta/dz where theta is integrated
// (Bryan-Fritsch; elsewhere theta is the case's theta_bar(z) and its slot stays 0).
KOKKOS_INLINE_FUNCTION ColumnPoint background_column_slope(const CaseSetup& c, double z,
                                                           ColumnPoint y) {
  if (c.kind == Case::bryan_fritsch) {
    using namespace bryan_fritsch;
    const double qv = saturation_vapour(y.exner, y.theta, c.exact_thermo);
    const double exner_slope = kernels::weather::moist_exner_slope(y.theta, qv, q_total);
    if (c.exact_thermo)
      return {exner_slope, exact_adiabat_theta_slope(y.exner, y.theta, exner_slope)};
    return {exner_slope, adiabat_theta_slope(y.exner, y.theta, exner_slope)};
  }
  double hr = 0, theta = 0;
  background(c, z, hr, theta);
  const double qv = background_vapour(c, z, y.exner, theta);
  return {kernels::weather::moist_exner_slope(theta, qv, qv), 0.0};
}

// Cubic Hermite interpolation at z (inside the table) of tabulated values and slopes.
KOKKOS_INLINE_FUNCTION double table_hermite(const Kokkos::View<double*, MemSpace>& value,
                                            const Kokkos::View<double*, MemSpace>& slope, double z0,
                                            double dz, double z) {
  const double s = (z - z0) / dz;
  int n = int(math::floor(s));
  n = n < 0 ? 0 : n > int(value.extent(0)) - 2 ? int(value.extent(0)) - 2 : n;
  const double u = s - n, u2 = u * u, u3 = u2 * u;
  return (2 * u3 - 3 * u2 + 1) * value(n) + (u3 - 2 * u2 + u) * dz * slope(n) +
         (-2 * u3 + 3 * u2) * value(n + 1) + (u3 - u2) * dz * slope(n + 1);
}

KOKKOS_INLINE_FUNCTION double table_exner(const ExnerTable& t, double z) {
  return table_hermite(t.exner, t.slope, t.z0, t.dz, z);
}

KOKKOS_INLINE_FUNCTION double table_theta(const ExnerTable& t, double z) {
  return table_hermite(t.theta, t.theta_slope, t.z0, t.dz, z);
}

KOKKOS_INLINE_FUNCTION MoistPoint moist_background(const CaseSetup& c, const ExnerTable& t,
                                                   double z) {
  double hr = 0;
  MoistPoint b{0, 0, 0, 0};
  const double exner = table_exner(t, z);
  if (c.kind == Case::bryan_fritsch) {
    b.theta = table_theta(t, z);
    b.qv = saturation_vapour(exner, b.theta, c.exact_thermo);
    b.qc = bryan_fritsch::q_total - b.qv;
  } else {
    background(c, z, hr, b.theta);
    b.qv = background_vapour(c, z, exner, b.theta);
  }
  b.rho = kernels::weather::moist_dry_density(exner, b.theta, b.qv);
  return b;
}

// Initial water at a sampled point of a moist-dynamics run: the background's outside the
// case's perturbation (theta' != 0), inside it the bubble's relative humidity of the
// background pressure and temperature and its cloud.
KOKKOS_INLINE_FUNCTION PointWater moist_point_water(const CaseSetup& c, const ExnerTable& t,
                                                    const PointState& s, double z,
                                                    const MoistPoint& b) {
  // The supercell's bubble keeps the background's vapour mixing ratio (the reference's).
  if (s.t == 0.0 || on_supercell_sounding(c.kind)) return {b.qv, b.qc, 0.0};
  return {
      c.bubble_relative_humidity * saturation_vapour(table_exner(t, z), b.theta, c.exact_thermo),
      c.bubble_cloud, 0.0};
}

// The Bryan & Fritsch bubble at a point on the background b: the density potential
// temperature raised by 2 cos^2(pi L / 2) K, L = |((x - 10 km) / 2 km, (z - 2 km) / 2 km)| <= 1,
// at the background's pressure, saturated, the total water unchanged (their section 4b):
// theta and qv = qvs from theta_rho, rho_d from rho_d theta f_v = rho_bar theta_bar f_v_bar.
KOKKOS_INLINE_FUNCTION void bryan_fritsch_bubble(const ExnerTable& t, double x, double z,
                                                 const MoistPoint& b, bool exact, PointState& s,
                                                 PointWater& q) {
  using namespace bryan_fritsch;
  using kernels::weather::vapour_factor;
  const double l = math::sqrt((x - 10000.0) * (x - 10000.0) + (z - 2000.0) * (z - 2000.0)) / 2000.0;
  if (l > 1.0) return;
  const double exner = table_exner(t, z), c = math::cos(math::pi * l / 2);
  const double theta_rho = b.theta * vapour_factor(b.qv) / (1.0 + q_total) + 2.0 * c * c;
  const double theta = theta_of_density_theta(exner, theta_rho, exact);
  q.qv = saturation_vapour(exner, theta, exact);
  q.qc = q_total - q.qv;
  s.t = theta - b.theta;
  s.r = b.rho * b.theta * vapour_factor(b.qv) / (theta * vapour_factor(q.qv)) - b.rho;
}

// The table over [z_lo, z_hi] (z_lo <= 0 <= z_hi), built on the host.
ExnerTable make_exner_table(const CaseSetup& c, double z_lo, double z_hi, double dz);

}  // namespace cb::weather
