// Kessler warm rain with exact thermodynamics (docs/solvers/weather.md §16): the processes of
// the DCMIP 2016 routine (kernels/weather/kessler.hpp: autoconversion, accretion, sedimentation,
// rain evaporation at Klemp & Wilhelmson's rate) with the phase changes of
// kernels/weather/exact_thermo.hpp: at constant volume and internal energy, toward Bolton's
// saturation. Falling rain carries no heat (it takes the temperature of the air it enters, as
// in the reference).
#pragma once

#include "kernels/weather/exact_thermo.hpp"
#include "kernels/weather/kessler.hpp"

namespace cb::kernels::weather::exact {

// Temperature of air of dry density rho_d, potential temperature theta and vapour qv:
// T = theta pi, pi from the moist equation of state (kernels/weather/moist.hpp).
KOKKOS_INLINE_FUNCTION double cell_temperature(double theta, double rho_dry, double qv) {
  const double p = pressure(rho_dry * theta * vapour_factor(qv));
  return theta * math::pow(p / p0, rd / cp);
}

// One (sub-)step of a cell: rain production (with `rain`) and the sedimentation increment as in
// kessler_adjust_cell; the cloud's saturation adjustment; rain evaporation at Kessler's rate
// (KW eq. 2.14 with Bolton's q_vs and the cell's pressure), at most what brings the air to
// saturation, cooling at constant energy; theta from the temperature and p = rho_d Rm T. Where
// no water changes phase theta and qv keep their bits.
KOKKOS_INLINE_FUNCTION void kessler_exact_cell(KesslerCell& c, double sed, double rho_dry,
                                               double dt, bool rain) {
  const double production = rain ? kessler_rain_production(c.qc, c.qr, dt) : 0.0;
  c.qc = math::max(c.qc - production, 0.0);
  c.qr = math::max(c.qr + production + sed, 0.0);
  const double temperature = cell_temperature(c.theta, rho_dry, c.qv);
  const double qt = c.qv + c.qc + c.qr;
  PhaseState air{temperature, c.qv};
  if (c.qc > 0.0 || c.qv > saturation_mixing_ratio_at_density(temperature, rho_dry))
    air = saturation_adjustment(temperature, c.qv, c.qv + c.qc, qt, rho_dry);
  const double cloud = c.qv + c.qc - air.qv;
  double evaporation = 0.0;
  const double qvs = saturation_mixing_ratio_at_density(air.temperature, rho_dry);
  if (c.qr > 0.0 && air.qv < qvs) {
    const double p_mb = rho_dry * gas_constant(air.qv) * air.temperature / 100.0;
    const double rate = kessler_rain_evaporation(air.qv, 0.0, c.qr, qvs, air.qv - qvs, 3.8 / p_mb,
                                                 0.001 * rho_dry, dt);
    const double to_saturation =
        saturation_adjustment(air.temperature, air.qv, air.qv + c.qr, qt, rho_dry).qv - air.qv;
    evaporation = math::min(rate, to_saturation);
    air.temperature = temperature_after_evaporation(air.temperature, air.qv, qt, evaporation);
    air.qv += evaporation;
  }
  if (air.qv == c.qv) return;
  c.theta = potential_temperature(air.temperature, rho_dry, air.qv);
  c.qv = air.qv;
  c.qc = cloud;
  c.qr -= evaporation;
}

}  // namespace cb::kernels::weather::exact
