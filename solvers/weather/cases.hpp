// Initial conditions of the weather cases: background (hydrostatic) state and
// perturbation at a point, as device functions on a by-value description.
// miniWeather's cases (thermal, collision, gravity_waves, density_current,
// injection) perturb theta at constant density, as miniWeather does; the
// literature cases (straka, robert) perturb theta at constant pressure.
#pragma once

#include "kernels/weather/euler.hpp"
#include "kernels/weather/kessler.hpp"
#include "kernels/weather/supercell.hpp"

namespace cb::weather {

enum class Case : int {
  thermal,
  collision,
  gravity_waves,
  density_current,
  injection,
  straka,
  robert,
  rest,           // the constant-theta background alone (a resting atmosphere)
  bryan_fritsch,  // Bryan & Fritsch (2002) moist bubble (moist_background.hpp)
  supercell,      // DCMIP2016 supercell, Cartesian (kernels/weather/supercell.hpp)
  squall_line     // a 2-D squall line on the supercell's sounding (kernels/weather/supercell.hpp)
};

// Cases on the supercell's moist sounding (theta, relative humidity, moist background).
KOKKOS_INLINE_FUNCTION bool on_supercell_sounding(Case kind) {
  return kind == Case::supercell || kind == Case::squall_line;
}

struct CaseSetup {
  Case kind;
  int three_d;              // 1 when the y axis is in use
  double lo[3], length[3];  // domain
  // Initial water of moist runs (Params::moisture): relative humidity outside and inside the
  // perturbation, cloud mixing ratio inside.
  double relative_humidity, bubble_relative_humidity, bubble_cloud;
  int water_dynamics;  // 1: the water acts on the dynamics (Moisture::dynamics)
  int exact_thermo;    // 1: thermodynamics = "exact" (Moisture::exact)
  int bubble;          // 0: no perturbation, the background alone (Params::bubble)
};

// Point state: perturbations r (density), t (theta) and winds u, v, w, with
// the background density hr and potential temperature ht.
struct PointState {
  double r, u, v, w, t, hr, ht;
};

namespace detail {

// Straka et al. (1993), Int. J. Numer. Meth. Fluids 17:1: a -15 K temperature
// bubble, radii 4 km x 2 km, 3 km up in the middle of the domain (x = 0 in
// the default [-25.6, 25.6] km; y radius 4 km in 3-D), turned into a
// potential-temperature perturbation with the background Exner function.
KOKKOS_INLINE_FUNCTION double straka_theta(const CaseSetup& c, double x, double y, double z) {
  using namespace kernels::weather;
  const double ry = c.three_d ? 4000.0 : 0.0;
  const double dx = x - (c.lo[0] + 0.5 * c.length[0]);
  double d2 = (dx / 4000.0) * (dx / 4000.0) + ((z - 3000.0) / 2000.0) * ((z - 3000.0) / 2000.0);
  if (ry > 0)
    d2 += ((y - (c.lo[1] + 0.5 * c.length[1])) / ry) * ((y - (c.lo[1] + 0.5 * c.length[1])) / ry);
  const double l = math::sqrt(d2);
  if (l > 1.0) return 0.0;
  const double temperature = -15.0 * 0.5 * (math::cos(math::pi * l) + 1.0);
  const double exner = 1.0 - grav * z / (cp * 300.0);
  return temperature / exner;
}

// Robert (1993), J. Atmos. Sci. 50:1865: 0.5 K inside r = 250 m about
// (500 m, 260 m), decaying as a Gaussian of 100 m width outside.
KOKKOS_INLINE_FUNCTION double robert_theta(const CaseSetup& c, double x, double y, double z) {
  double r2 = (x - 500.0) * (x - 500.0) + (z - 260.0) * (z - 260.0);
  if (c.three_d) r2 += (y - (c.lo[1] + 0.5 * c.length[1])) * (y - (c.lo[1] + 0.5 * c.length[1]));
  const double r = math::sqrt(r2);
  if (r <= 250.0) return 0.5;
  return 0.5 * math::exp(-((r - 250.0) / 100.0) * ((r - 250.0) / 100.0));
}

}  // namespace detail

// The case's perturbation at a point on the background density hr and potential temperature
// ht there (the dry background of `background`, or the moist one of moist_background.hpp).
KOKKOS_INLINE_FUNCTION PointState perturb_case(const CaseSetup& c, double x, double y, double z,
                                               double hr, double ht) {
  using namespace kernels::weather;
  PointState s{0, 0, 0, 0, 0, hr, ht};
  const double xc = c.lo[0] + 0.5 * c.length[0];
  const double yc = c.lo[1] + 0.5 * c.length[1];
  const double ry = c.three_d ? 2000.0 : 0.0;
  if (c.kind == Case::gravity_waves) {
    s.u = 15.0;
    return s;
  }
  switch (c.kind) {
    case Case::thermal:
      s.t = ellipse_cosine(x, y, z, 3.0, xc, yc, 2000.0, 2000.0, ry, 2000.0);
      break;
    case Case::collision:
      s.t = ellipse_cosine(x, y, z, 20.0, xc, yc, 2000.0, 2000.0, ry, 2000.0) +
            ellipse_cosine(x, y, z, -20.0, xc, yc, 8000.0, 2000.0, ry, 2000.0);
      break;
    case Case::density_current:
      s.t = ellipse_cosine(x, y, z, -20.0, xc, yc, 5000.0, 4000.0, 2 * ry, 2000.0);
      break;
    case Case::straka:
    case Case::robert:
    case Case::bryan_fritsch: {
      // Pressure (so rho theta) unchanged: rho = rho_bar theta_bar / theta. Bryan & Fritsch's
      // dry bubble (their section 4a): theta' = 2 cos^2 K; the moist run replaces it with its
      // saturated bubble (moist_background.hpp).
      s.t = c.kind == Case::straka ? detail::straka_theta(c, x, y, z)
            : c.kind == Case::robert
                ? detail::robert_theta(c, x, y, z)
                : ellipse_cosine(x, y, z, 2.0, xc, yc, 2000.0, 2000.0, ry, 2000.0);
      s.r = s.hr * s.ht / (s.ht + s.t) - s.hr;
      break;
    }
    case Case::supercell:
    case Case::squall_line:
      // The reference's cos^2 bubble at the centre of the domain (constant density); the
      // squall line's is a line along y (no y radius).
      s.u = c.kind == Case::supercell ? supercell::wind(z) : squall_line::wind(z);
      s.t = ellipse_cosine(x, y, z, supercell::bubble_theta, xc, yc, supercell::bubble_z,
                           supercell::bubble_radius,
                           c.three_d && c.kind == Case::supercell ? supercell::bubble_radius : 0.0,
                           supercell::bubble_depth);
      break;
    default:
      break;
  }
  if (!c.bubble) s.t = s.r = 0.0;  // the winds of the background stay
  return s;
}

// Background at height z (the perturbation-free part of sample_case).
KOKKOS_INLINE_FUNCTION void background(const CaseSetup& c, double z, double& hr, double& ht) {
  if (c.kind == Case::gravity_waves) {
    kernels::weather::background_const_bv(z, 0.02, hr, ht);
  } else if (on_supercell_sounding(c.kind)) {
    // theta only: the case runs on the moist background (moist_background.hpp), which
    // computes the density; hr is the constant-theta one, unused.
    kernels::weather::background_const_theta(z, hr, ht);
    ht = kernels::weather::supercell::theta(z);
  } else {
    kernels::weather::background_const_theta(z, hr, ht);
  }
}

KOKKOS_INLINE_FUNCTION PointState sample_case(const CaseSetup& c, double x, double y, double z) {
  double hr = 0, ht = 0;
  background(c, z, hr, ht);
  return perturb_case(c, x, y, z, hr, ht);
}

// Mixing ratios (per unit mass of dry air) of water vapour, cloud and rain at a point.
struct PointWater {
  double qv, qc, qr;
};

// Initial water of a moist run at a sampled point: vapour at a relative humidity of the
// Kessler saturation mixing ratio (kernels/weather/kessler.hpp) of the background pressure and
// temperature, with the bubble's humidity and cloud where the case perturbs theta.
KOKKOS_INLINE_FUNCTION PointWater sample_water(const CaseSetup& c, const PointState& s) {
  using namespace kernels::weather;
  const double p = pressure(s.hr * s.ht);
  const double temperature = s.ht * math::pow(p / p0, rd / cp);
  const double qvs = kessler_saturation_mixing_ratio(380.0 / p, temperature);
  const bool inside = s.t != 0.0;
  return {(inside ? c.bubble_relative_humidity : c.relative_humidity) * qvs,
          inside ? c.bubble_cloud : 0.0, 0.0};
}

// Vertical-momentum forcing of gravity_waves (miniWeather): w' = 0.01 m/s^2
// cos^2 bump of radius 500 m at (xlen / 8, 1 km), times rho_bar.
KOKKOS_INLINE_FUNCTION double gravity_wave_forcing(const CaseSetup& c, double x, double y,
                                                   double z) {
  const double ry = c.three_d ? 500.0 : 0.0;
  return kernels::weather::ellipse_cosine(x, y, z, 0.01, c.lo[0] + c.length[0] / 8,
                                          c.lo[1] + 0.5 * c.length[1], 1000.0, 500.0, ry, 500.0);
}

}  // namespace cb::weather
