// Point-wise pieces of the moist dynamics of the weather solver (docs/solvers/weather.md §10):
// water vapour in the equation of state and the weight of all water in the buoyancy. The
// state's density rho is that of the dry air and q the mixing ratios per unit mass of dry
// air, as in WRF (Klemp, Skamarock & Dudhia 2007, Mon. Wea. Rev. 135:2897, eqs. 1-4 and 11).
#pragma once

#include "kernels/weather/euler.hpp"

namespace cb::kernels::weather {

constexpr double rv = 461.5;            // J / (kg K), water vapour
constexpr double rv_over_rd = rv / rd;  // 1.608

// Factor on rho theta in the equation of state of moist air: with Dalton's law
// p = rho_d Rd T (1 + (Rv / Rd) qv), so p = C0 (rho_d theta_m)^gamma with the moist potential
// temperature theta_m = theta (1 + (Rv / Rd) qv) (Klemp et al. 2007, eq. 11). A dry run
// passes exactly 1, which leaves every product bit for bit as it was.
template <class T>
KOKKOS_INLINE_FUNCTION T vapour_factor(T qv) {
  return T(1) + T(rv_over_rd) * qv;
}

// The density perturbation whose weight is the buoyancy -(rho_t - rho_t_bar) g on rho w
// (kernels/weather/tendency.hpp buoyancy), rho_t = rho_d (1 + qv + qc + qr) the total density:
// the perturbation rho' of the dry density plus that of the water densities rho_water =
// rho_d (qv + qc + qr) about the background's (water loading), once the moist hydrostatic
// balance dp_bar/dz = -rho_t_bar g has been subtracted. The momentum stays that of the dry air;
// its inertia (2 % at most) is the water_inertia option (inertial_momentum_tendency).
KOKKOS_INLINE_FUNCTION real total_density_perturbation(real rho_pert, real rho_water,
                                                       real rho_water_bar) {
  return rho_pert + (rho_water - rho_water_bar);
}

// The momentum tendency of a cell with the inertia of its water (WRF's form: Klemp et al.
// 2007, eqs. 2-3): the state's momentum is the dry air's, rho_d Du/Dt = -(rho_d / rho_t) grad p
// - rho_d g z, so once the balance dp_bar/dz = -rho_t_bar g is taken off, the pressure part
// of the flux difference and the buoyancy -(rho_t - rho_t_bar) g are scaled by rho_d / rho_t
// and the advective rest is not. rho_t = rho_d + rho_water.
KOKKOS_INLINE_FUNCTION real inertial_momentum_tendency(real flux_tendency, real pressure_tendency,
                                                       real buoyancy, real rho_dry,
                                                       real rho_water) {
  return (flux_tendency - pressure_tendency) +
         (pressure_tendency + buoyancy) * (rho_dry / (rho_dry + rho_water));
}

// Moist hydrostatic balance in terms of the Exner function pi = (p / p0)^(Rd / cp):
// dpi/dz = -g / (cp theta_rho), theta_rho = theta (1 + (Rv / Rd) qv) / (1 + qv + qc + qr) the
// density potential temperature (Emanuel 1994, eq. 4.3.6; Bryan & Fritsch 2002, eq. 8).
KOKKOS_INLINE_FUNCTION double moist_exner_slope(double theta, double qv, double q_total) {
  return -grav * (1.0 + q_total) / (cp * theta * vapour_factor(qv));
}

// Dry density of moist air of Exner function pi, potential temperature theta and vapour qv,
// from p = C0 (rho_d theta (1 + (Rv / Rd) qv))^gamma.
KOKKOS_INLINE_FUNCTION double moist_dry_density(double exner, double theta, double qv) {
  const double p = p0 * math::pow(exner, cp / rd);
  return math::pow(p / C0, 1.0 / gamm) / (theta * vapour_factor(qv));
}

}  // namespace cb::kernels::weather
