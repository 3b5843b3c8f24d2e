// Kessler (1969) warm-rain microphysics as in the DCMIP 2016 reference routine
// `interface/kessler.f90` (P. Ullrich after J. Klemp; github.com/ClimateGlobalChange/DCMIP2016,
// version 2.0 with sub-cycled sedimentation), which follows Klemp & Wilhelmson (1978, J. Atmos.
// Sci. 35:1070, "KW") and Klemp, Skamarock & Park (2015, JAMES 7:1155). Three water species as
// mixing ratios per unit mass of dry air: vapour qv, cloud qc (moves with the air) and rain qr
// (falls through it). The routine is applied after the dynamics of a step, column by column,
// and adjusts theta, qv, qc, qr and returns the surface precipitation rate.
//
// Units follow the reference code: densities in kg/m^3 except in the rain formulas, which take
// rho in g/cm^3 (rho_gcc = 0.001 rho); pressure in mb in the saturation formula. The
// thermodynamic constants are those of the reference (cp = 1003, kappa = 0.2875, L = 2.5e6);
// a model with other constants passes its own in KesslerParams.
//
// Pure functions of one cell plus one column routine, templated on a column accessor (see
// kessler_column), so the same code runs on the host in tests and inside a device kernel.
#pragma once

#include "core/kokkos_compat.hpp"

namespace cb::kernels::weather {

struct KesslerParams {
  double cp = 1003.0;          // J / (kg K), heat capacity in the latent heating
  double latent_heat = 2.5e6;  // J / kg, vaporisation
  double kappa = 0.2875;       // R / cp in p = p_ref pi^(1/kappa)
  double p_ref_mb = 1000.0;    // mb, reference pressure of the Exner function
  double rho_water = 1000.0;   // kg / m^3, converts the rain flux to m of water per s
  double cfl_rain = 0.8;       // fall-speed Courant number of a sedimentation sub-step
  // The reference divides the top level's rain outflux by half a level spacing (its top level
  // is a half layer). A finite-volume column of equal cells divides by the whole cell
  // thickness and includes the top cell in the fall-speed CFL, so that the column's rain mass
  // changes by exactly the surface flux. false reproduces the reference.
  bool conservative_top = true;
  // false: no autoconversion or accretion, so no rain forms (saturation adjustment alone, as
  // in Bryan & Fritsch 2002's moist benchmark).
  bool rain = true;
};

// Saturation factor 3.8 / p[mb] of KW eq. 2.11, with p = p_ref pi^(1/kappa) from the Exner
// function pi (3.8 / p[mb] = 380 / p[Pa]).
KOKKOS_INLINE_FUNCTION double kessler_saturation_factor(double exner, const KesslerParams& prm) {
  return 3.8 / (math::pow(exner, 1.0 / prm.kappa) * prm.p_ref_mb);
}

// Saturation vapour mixing ratio, KW eq. 2.11 (Tetens):
// qvs = (3.8 / p[mb]) exp(17.27 (T - 273) / (T - 36)).
KOKKOS_INLINE_FUNCTION double kessler_saturation_mixing_ratio(double saturation_factor,
                                                              double temperature) {
  return saturation_factor * math::exp(17.27 * (temperature - 273.0) / (temperature - 36.0));
}

// Rain terminal velocity (m/s), KW eq. 2.15: 36.34 (rho qr)^0.1364 sqrt(rho_surface / rho),
// rho in g/cm^3; density_ratio_sqrt = sqrt(rho_surface / rho).
KOKKOS_INLINE_FUNCTION double kessler_terminal_velocity(double qr, double rho_gcc,
                                                        double density_ratio_sqrt) {
  return 36.34 * math::pow(qr * rho_gcc, 0.1364) * density_ratio_sqrt;
}

// Cloud water turned into rain in a step dt, autoconversion and accretion of KW eq. 2.13a,b
// taken implicitly in qc: qc - (qc - dt k1 max(qc - a, 0)) / (1 + dt k2 qr^0.875) with
// k1 = 0.001 1/s, a = 0.001, k2 = 2.2 1/s.
KOKKOS_INLINE_FUNCTION double kessler_rain_production(double qc, double qr, double dt) {
  return qc -
         (qc - dt * math::max(0.001 * (qc - 0.001), 0.0)) / (1.0 + dt * 2.2 * math::pow(qr, 0.875));
}

// Condensation (> 0) or evaporation (< 0) that brings qv to saturation in one step with the
// latent heating included (KW eq. 3.10 linearised about T):
// (qv - qvs) / (1 + qvs f5 / (T - 36)^2), f5 = 237.3 * 17.27 * L / cp.
KOKKOS_INLINE_FUNCTION double kessler_saturation_excess(double qv, double qvs, double temperature,
                                                        const KesslerParams& prm) {
  const double f5 = 237.3 * 17.27 * prm.latent_heat / prm.cp;
  const double t36 = temperature - 36.0;
  return (qv - qvs) / (1.0 + qvs * f5 / (t36 * t36));
}

// Rain evaporation in a step dt with the ventilation factor, KW eq. 2.14a,b:
// dt (1.6 + 124.9 (rho qr)^0.2046) (rho qr)^0.525 / (2.55e6 / (p[mb] qvs) + 5.4e5)
//    * max(qvs - qv, 0) / (rho qvs),
// limited by the vapour deficit left after the cloud evaporated, max(-excess - qc, 0), and by
// the rain present. rho in g/cm^3.
KOKKOS_INLINE_FUNCTION double kessler_rain_evaporation(double qv, double qc, double qr, double qvs,
                                                       double excess, double saturation_factor,
                                                       double rho_gcc, double dt) {
  const double rho_qr = rho_gcc * qr;
  const double ventilation = (1.6 + 124.9 * math::pow(rho_qr, 0.2046)) * math::pow(rho_qr, 0.525);
  const double conduction = 2550000.0 * saturation_factor / (3.8 * qvs) + 540000.0;
  const double rate =
      dt * (ventilation / conduction) * (math::max(qvs - qv, 0.0) / (rho_gcc * qvs));
  return math::min(math::min(rate, math::max(-excess - qc, 0.0)), qr);
}

// Moist state of one cell.
struct KesslerCell {
  double theta, qv, qc, qr;
};

// The point-wise part of one (sub-)step in a cell, in the reference's order: rain production,
// the sedimentation increment `sed` added to qr, saturation adjustment of vapour and cloud,
// rain evaporation, latent heating d theta = L / (cp pi) (condensation - evaporation).
// Total water qv + qc + qr changes by `sed` only (the clips at zero are inactive when the
// sedimentation respects the fall-speed CFL).
KOKKOS_INLINE_FUNCTION void kessler_adjust_cell(KesslerCell& c, double sed, double exner,
                                                double rho_gcc, double saturation_factor, double dt,
                                                const KesslerParams& prm) {
  const double production = prm.rain ? kessler_rain_production(c.qc, c.qr, dt) : 0.0;
  c.qc = math::max(c.qc - production, 0.0);
  c.qr = math::max(c.qr + production + sed, 0.0);

  const double temperature = exner * c.theta;
  const double qvs = kessler_saturation_mixing_ratio(saturation_factor, temperature);
  const double excess = kessler_saturation_excess(c.qv, qvs, temperature, prm);
  const double evaporation =
      kessler_rain_evaporation(c.qv, c.qc, c.qr, qvs, excess, saturation_factor, rho_gcc, dt);
  const double condensation = math::max(excess, -c.qc);  // at most all the cloud evaporates
  c.theta = c.theta + prm.latent_heat / (prm.cp * exner) * (condensation - evaporation);
  c.qv = math::max(c.qv - condensation + evaporation, 0.0);
  c.qc = c.qc + condensation;
  c.qr = c.qr - evaporation;
}

// The reference's point-wise update of level k (kessler_adjust_cell) at the column's Exner
// function.
template <class Column>
struct KesslerCellUpdate {
  const Column& col;
  const KesslerParams& prm;
  KOKKOS_INLINE_FUNCTION void operator()(KesslerCell& c, double sed, int k, double rho_gcc,
                                         double dt) const {
    kessler_adjust_cell(c, sed, col.exner(k), rho_gcc, kessler_saturation_factor(col.exner(k), prm),
                        dt, prm);
  }
};

// Kessler microphysics over one column of nz >= 2 cells, bottom (k = 0) to top, in place; returns
// the surface precipitation rate (m of water per s) averaged over the sub-steps.
// Column provides: cell(k) -> KesslerCell (read), set(k, KesslerCell) (write), rho(k) (dry air
// density, kg/m^3), exner(k), z(k) (cell-centre height, m). Sedimentation is first-order
// upstream in flux form, F = rho qr v, sub-stepped so that v dt0 <= cfl_rain dz everywhere;
// the number of sub-steps comes from the velocities at the start, as in the reference.
// No scratch storage: one upward sweep per sub-step computes each flux from rain values not
// yet updated, which is exactly the reference's two-pass order. `update(cell, sed, k, rho_gcc,
// dt0)` does the point-wise rest of a sub-step (by default the reference's, KesslerCellUpdate).
template <class Column, class CellUpdate>
KOKKOS_INLINE_FUNCTION double kessler_column(const Column& col, int nz, double dt,
                                             const KesslerParams& prm, const CellUpdate& update) {
  const double rho_surface = col.rho(0);
  auto rho_gcc = [&](int k) { return 0.001 * col.rho(k); };
  auto velocity = [&](int k, double qr) {
    return kessler_terminal_velocity(qr, rho_gcc(k), math::sqrt(rho_surface / col.rho(k)));
  };
  auto spacing = [&](int k) {  // distance to the level above; the top cell: its thickness
    return k + 1 < nz ? col.z(k + 1) - col.z(k) : col.z(k) - col.z(k - 1);
  };

  double dt_max = dt;
  const int cfl_levels = prm.conservative_top ? nz : nz - 1;
  for (int k = 0; k < cfl_levels; ++k) {
    const double v = velocity(k, col.cell(k).qr);
    if (v != 0.0) dt_max = math::min(dt_max, prm.cfl_rain * spacing(k) / v);
  }
  const double quotient = dt / dt_max;
  int substeps = int(quotient);
  if (double(substeps) < quotient) ++substeps;  // ceiling
  const double dt0 = dt / double(substeps);

  double precipitation = 0.0;
  for (int n = 0; n < substeps; ++n) {
    const double qr0 = col.cell(0).qr;
    precipitation += rho_surface * qr0 * velocity(0, qr0) / prm.rho_water;
    double flux_below = rho_gcc(0) * qr0 * velocity(0, qr0);  // rho qr v out of the cell's base
    for (int k = 0; k < nz; ++k) {
      KesslerCell c = col.cell(k);
      double sed;
      if (k + 1 < nz) {
        const double qr_above = col.cell(k + 1).qr;
        const double flux_above = rho_gcc(k + 1) * qr_above * velocity(k + 1, qr_above);
        sed = dt0 * (flux_above - flux_below) / (rho_gcc(k) * spacing(k));
        flux_below = flux_above;
      } else if (prm.conservative_top) {
        sed = dt0 * (0.0 - flux_below) / (rho_gcc(k) * spacing(k));
      } else {
        sed = -dt0 * c.qr * velocity(k, c.qr) / (0.5 * spacing(k));
      }
      update(c, sed, k, rho_gcc(k), dt0);
      col.set(k, c);
    }
  }
  return precipitation / double(substeps);
}

template <class Column>
KOKKOS_INLINE_FUNCTION double kessler_column(const Column& col, int nz, double dt,
                                             const KesslerParams& prm) {
  return kessler_column(col, nz, dt, prm, KesslerCellUpdate<Column>{col, prm});
}

}  // namespace cb::kernels::weather
