// Moist thermodynamics without the approximations of the Kessler routine (docs/solvers/weather.md
// §16; `[weather] thermodynamics = "exact"`): the heat capacities of vapour and liquid, a latent
// heat that varies with temperature, a saturation vapour pressure, and phase changes at constant
// volume that conserve the internal energy, as in the equation set of Bryan & Fritsch (2002),
// Mon. Wea. Rev. 130:2917, section 2. The state keeps the model's potential temperature
// theta = T / pi, pi = (p / p0)^(Rd / cp) with the dry constants, and p = rho_d (Rd + qv Rv) T,
// so the equation of state C0 (rho_d theta f_v)^gamma (kernels/weather/moist.hpp) is exact; what
// changes is how theta evolves. Mixing ratios per unit mass of dry air; ql is all the liquid.
#pragma once

#include "kernels/weather/moist.hpp"

namespace cb::kernels::weather::exact {

// Heat capacities (J/(kg K)) of vapour at constant pressure and of liquid water, and the latent
// heat of vaporisation at t_ref (Emanuel 1994, Atmospheric Convection, section 4.4 and table
// A.1: 1870, 4190, 2.501e6 J/kg at 0 C). The dry air's are the model's (cp, cv, rd).
constexpr double cpv = 1870.0, cl = 4190.0, lv_ref = 2.501e6, t_ref = 273.15;
constexpr double cvv = cpv - rv;

// Kirchhoff's law with constant heat capacities: L(T) = L(t_ref) + (cpv - cl) (T - t_ref).
KOKKOS_INLINE_FUNCTION double latent_heat(double temperature) {
  return lv_ref + (cpv - cl) * (temperature - t_ref);
}

// Saturation vapour pressure over liquid (Pa), Bolton (1980), Mon. Wea. Rev. 108:1046, eq. 10:
// 611.2 exp(17.67 (T - 273.15) / (T - 29.65)).
KOKKOS_INLINE_FUNCTION double saturation_pressure(double temperature) {
  return 611.2 * math::exp(17.67 * (temperature - 273.15) / (temperature - 29.65));
}

// d ln e_s / dT of saturation_pressure.
KOKKOS_INLINE_FUNCTION double saturation_pressure_log_slope(double temperature) {
  const double d = temperature - 29.65;
  return 17.67 * (273.15 - 29.65) / (d * d);
}

// Saturation mixing ratio at total pressure p: (Rd / Rv) e_s / (p - e_s).
KOKKOS_INLINE_FUNCTION double saturation_mixing_ratio(double temperature, double p) {
  const double es = saturation_pressure(temperature);
  return es / (rv_over_rd * (p - es));
}

// The same at dry-air density rho_d (p - e_s = rho_d Rd T): e_s / (rho_d Rv T).
KOKKOS_INLINE_FUNCTION double saturation_mixing_ratio_at_density(double temperature,
                                                                 double rho_dry) {
  return saturation_pressure(temperature) / (rho_dry * rv * temperature);
}

// Gas constant and heat capacities of moist air per unit mass of dry air.
KOKKOS_INLINE_FUNCTION double gas_constant(double qv) {
  return rd + qv * rv;
}
KOKKOS_INLINE_FUNCTION double heat_capacity_volume(double qv, double ql) {
  return cv + qv * cvv + ql * cl;
}
KOKKOS_INLINE_FUNCTION double heat_capacity_pressure(double qv, double ql) {
  return cp + qv * cpv + ql * cl;
}

// The rate of change of theta = T / pi in adiabatic motion without phase change:
// dtheta/dt = -factor theta div(v), factor = (Rm cp - Rd cpml) / (cp cvml) (Bryan & Fritsch
// 2002, eq. 4 without its heating terms), from cvml dT/dt = -Rm T div(v) and
// d ln p/dt = -(cpml / cvml) div(v). Zero for dry air (Rm = Rd, cpml = cp).
KOKKOS_INLINE_FUNCTION double theta_divergence_factor(double qv, double ql) {
  return (gas_constant(qv) * cp - rd * heat_capacity_pressure(qv, ql)) /
         (cp * heat_capacity_volume(qv, ql));
}

// Internal energy per unit mass of dry air of air at T holding vapour qv of total water qt,
// relative to dry air and liquid at t_ref: cvml (T - t_ref) + qv (L(t_ref) - Rv t_ref), the
// second term the internal energy of vaporisation at t_ref (L - Rv T).
KOKKOS_INLINE_FUNCTION double internal_energy(double temperature, double qv, double qt) {
  return heat_capacity_volume(qv, qt - qv) * (temperature - t_ref) + qv * (lv_ref - rv * t_ref);
}

struct PhaseState {
  double temperature, qv;
};

// Saturation adjustment at constant dry density and internal energy: the temperature and vapour
// after vapour and cloud reach equilibrium, in air of total water qt (its liquid, qt - qv, in
// the heat capacity) of which at most `evaporable` (vapour plus cloud) can be vapour; all of
// that evaporates when it leaves the air unsaturated. Saturated: Newton's method on
// E(T, qvs(T)) = E0 from the starting temperature, to 1e-10 K (at most 20 iterations).
KOKKOS_INLINE_FUNCTION PhaseState saturation_adjustment(double temperature, double qv,
                                                        double evaporable, double qt,
                                                        double rho_dry) {
  const double energy = internal_energy(temperature, qv, qt);
  // All of it evaporated: E(T, evaporable) = E0 is linear in T.
  const double t_dry = t_ref + (energy - evaporable * (lv_ref - rv * t_ref)) /
                                   heat_capacity_volume(evaporable, qt - evaporable);
  if (evaporable <= saturation_mixing_ratio_at_density(t_dry, rho_dry)) return {t_dry, evaporable};
  double t = temperature;
  for (int it = 0; it < 20; ++it) {
    const double qvs = saturation_mixing_ratio_at_density(t, rho_dry);
    const double dqvs = qvs * (saturation_pressure_log_slope(t) - 1.0 / t);
    const double residual = internal_energy(t, qvs, qt) - energy;
    const double slope = heat_capacity_volume(qvs, qt - qvs) + (latent_heat(t) - rv * t) * dqvs;
    const double step = residual / slope;
    t -= step;
    if (math::fabs(step) < 1e-10) break;
  }
  return {t, saturation_mixing_ratio_at_density(t, rho_dry)};
}

// The temperature after `evaporated` of the liquid became vapour at constant volume and
// internal energy (E linear in T at fixed qv).
KOKKOS_INLINE_FUNCTION double temperature_after_evaporation(double temperature, double qv,
                                                            double qt, double evaporated) {
  const double q = qv + evaporated;
  return t_ref + (internal_energy(temperature, qv, qt) - q * (lv_ref - rv * t_ref)) /
                     heat_capacity_volume(q, qt - q);
}

// Potential temperature theta = T / pi of air at temperature T, dry density rho_d and vapour qv:
// pi from p = rho_d (Rd + qv Rv) T.
KOKKOS_INLINE_FUNCTION double potential_temperature(double temperature, double rho_dry, double qv) {
  const double p = rho_dry * gas_constant(qv) * temperature;
  return temperature / math::pow(p / p0, rd / cp);
}

// Equivalent potential temperature of reversible processes (Emanuel 1994, eq. 4.5.11):
// T (p0 / p_d)^(Rd / c) H^(-qv Rv / c) exp(L qv / (c T)), c = cp + qt cl, p_d the dry air's
// partial pressure, H = e / e_s the relative humidity.
KOKKOS_INLINE_FUNCTION double equivalent_potential_temperature(double temperature, double p,
                                                               double qv, double qt) {
  const double c = cp + qt * cl;
  const double e = p * qv / (1.0 / rv_over_rd + qv),
               humidity = e / saturation_pressure(temperature);
  return temperature * math::pow(p0 / (p - e), rd / c) * math::pow(humidity, -qv * rv / c) *
         math::exp(latent_heat(temperature) * qv / (c * temperature));
}

// The temperature lapse along the reversible saturated adiabat of total water qt, dT/dp, from
// the enthalpy balance cpml dT + L dqvs = (Rm T / p) dp with qvs = qvs(T, p): the model's own
// adiabat, on which a lifted saturated parcel of the model keeps the background's state.
KOKKOS_INLINE_FUNCTION double saturated_adiabat_slope(double temperature, double p, double qt) {
  const double es = saturation_pressure(temperature);
  const double qvs = es / (rv_over_rd * (p - es));
  const double dq_dp = -qvs / (p - es);
  const double dq_dt = qvs * p / (p - es) * saturation_pressure_log_slope(temperature);
  const double l = latent_heat(temperature);
  return (gas_constant(qvs) * temperature / p - l * dq_dp) /
         (heat_capacity_pressure(qvs, qt - qvs) + l * dq_dt);
}

// The part of one directional sweep in the tendency of rho theta from the theta equation's
// divergence term: -factor rho theta du/dx along the sweep, du/dx from the normal velocities at
// the cell's low and high faces (h apart); the three sweeps together give -factor rho theta
// div(v).
KOKKOS_INLINE_FUNCTION real theta_divergence_tendency(real rho_theta, double qv, double ql,
                                                      real velocity_low, real velocity_high,
                                                      real h) {
  return -real(theta_divergence_factor(qv, ql)) * rho_theta * (velocity_high - velocity_low) / h;
}

}  // namespace cb::kernels::weather::exact
