// Kessler warm-rain microphysics after the dynamics of each step (docs/solvers/weather.md §9;
// kernels/weather/kessler.hpp): every owned column (j, i) runs the DCMIP 2016 column routine
// on theta, qv, qc, qr taken from the conserved densities, with the Exner function of the state
// after the dynamics, and writes the changed values back. Columns are whole on each rank (moist
// runs with microphysics are not split in z), so the result does not depend on the rank grid.
#include "kernels/weather/kessler_exact.hpp"
#include "kernels/weather/moist.hpp"
#include "solvers/weather/solver.hpp"

namespace cb::weather {
namespace {

using kernels::weather::KesslerCell;
using kernels::weather::KesslerParams;
using kernels::weather::Var;

// Column (j, i) of the weather state as kessler_column sees it: level k is padded row k + g;
// rho is rho' + rho_bar (the density of the dry air the mixing ratios refer to); the Exner
// function comes from `exner`, computed before the call (the routine takes it as fixed).
// set() writes only what changed, so untouched cells keep their bits.
struct StateColumn {
  Field s, exner_field;
  Column hy_r, hy_rt;
  LocalGrid grid;
  int g, j, i, first;
  KOKKOS_INLINE_FUNCTION double rho(int k) const { return s(Var::dens, k + g, j, i) + hy_r(k + g); }
  KOKKOS_INLINE_FUNCTION double exner(int k) const { return exner_field(0, k + g, j, i); }
  KOKKOS_INLINE_FUNCTION double z(int k) const { return grid.center(2, k + g); }
  KOKKOS_INLINE_FUNCTION KesslerCell cell(int k) const {
    const double r = rho(k);
    return {(s(Var::rhot, k + g, j, i) + hy_rt(k + g)) / r, s(first, k + g, j, i) / r,
            s(first + 1, k + g, j, i) / r, s(first + 2, k + g, j, i) / r};
  }
  KOKKOS_INLINE_FUNCTION void set(int k, const KesslerCell& c) const {
    const KesslerCell old = cell(k);
    const double r = rho(k);
    if (c.theta != old.theta) s(Var::rhot, k + g, j, i) = r * c.theta - hy_rt(k + g);
    if (c.qv != old.qv) s(first, k + g, j, i) = r * c.qv;
    if (c.qc != old.qc) s(first + 1, k + g, j, i) = r * c.qc;
    if (c.qr != old.qr) s(first + 2, k + g, j, i) = r * c.qr;
  }
};

// With exact thermodynamics the point-wise update of a column level is
// kernels/weather/kessler_exact.hpp's, with the level's dry density.
struct ExactCellUpdate {
  const StateColumn& col;
  bool rain;
  KOKKOS_INLINE_FUNCTION void operator()(KesslerCell& c, double sed, int k, double /*rho_gcc*/,
                                         double dt) const {
    kernels::weather::exact::kessler_exact_cell(c, sed, col.rho(k), dt, rain);
  }
};

// Kessler's thermodynamic constants made the model's (cp, kappa = Rd / cp), so that the
// latent heating dtheta = L / (cp pi) dq and the pressure in qvs agree with the equation of
// state p = C0 (rho theta)^gamma.
KesslerParams kessler_params(bool rain) {
  KesslerParams prm;
  prm.rain = rain;
  prm.cp = kernels::weather::cp;
  prm.kappa = kernels::weather::rd / kernels::weather::cp;
  prm.p_ref_mb = kernels::weather::p0 / 100.0;
  return prm;
}

}  // namespace

void WeatherSolver::apply_microphysics(double dt) {
  using namespace kernels::weather;
  const Field s = state_, exner_field = exner_, surface = surface_;
  const Column hy_r = hy_dens_cell_, hy_rt = hy_dens_theta_cell_;
  const LocalGrid grid = local_grid();
  const Int3 n = decomposition_.local_cells(), g = ghost_;
  const int gz = g[2], nz = n[2];  // no std::array in device code
  const int first = params_.dynamic_variables();
  const KesslerParams prm = kessler_params(params_.moisture.rain);
  const bool water_dynamics = params_.moisture.dynamics, exact = params_.moisture.exact;
  if (!exact)  // the exact update takes each cell's pressure as its water changes
    Kokkos::parallel_for(
        "weather::exner", owned_cells(n, g), KOKKOS_LAMBDA(int k, int j, int i) {
          // With water dynamics, the moist equation of state (kernels/weather/moist.hpp).
          double rho_theta = double(s(Var::rhot, k, j, i)) + hy_rt(k);
          if (water_dynamics)
            rho_theta *= vapour_factor(s(first, k, j, i) / (s(Var::dens, k, j, i) + hy_r(k)));
          const double p = pressure(rho_theta);
          exner_field(0, k, j, i) = math::pow(p / p0, rd / cp);
        });
  Kokkos::parallel_for(
      "weather::kessler",
      Kokkos::MDRangePolicy<ExecSpace, Kokkos::Rank<2>>({g[1], g[0]}, {g[1] + n[1], g[0] + n[0]}),
      KOKKOS_LAMBDA(int j, int i) {
        const StateColumn column{s, exner_field, hy_r, hy_rt, grid, gz, j, i, first};
        const double rate =
            (exact ? kessler_column(column, nz, dt, prm, ExactCellUpdate{column, prm.rain})
                   : kessler_column(column, nz, dt, prm)) *
            prm.rho_water;  // kg/(m^2 s)
        surface(0, gz, j, i) = rate;
        surface(1, gz, j, i) += dt * rate;
      });
}

}  // namespace cb::weather
