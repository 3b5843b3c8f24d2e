// Limiters, the scalar-transport fluxes and the SSP-RK coefficients on
// hand-computed values.
#include "kernels/limiters.hpp"
#include "kernels/rk.hpp"
#include "kernels/scalar/transport.hpp"

#include <catch2/catch_approx.hpp>
#include <catch2/catch_test_macros.hpp>

using namespace cb::kernels;
using Catch::Approx;

TEST_CASE("minmod picks the smaller slope of equal sign, else zero", "[kernels]") {
  CHECK(slope_minmod(1.0, 3.0) == 1.0);
  CHECK(slope_minmod(-4.0, -2.0) == -2.0);
  CHECK(slope_minmod(1.0, -1.0) == 0.0);
  CHECK(slope_minmod(0.0, 5.0) == 0.0);
}

TEST_CASE("van Leer slope is the harmonic mean 2ab/(a+b)", "[kernels]") {
  CHECK(slope_van_leer(1.0, 3.0) == Approx(1.5));  // 2*3/4
  CHECK(slope_van_leer(-2.0, -2.0) == Approx(-2.0));
  CHECK(slope_van_leer(2.0, -1.0) == 0.0);
  CHECK(slope_van_leer(1.0, 1e6) < 2.0);  // bounded by twice the smaller slope
}

TEST_CASE("unlimited slope is the central difference", "[kernels]") {
  CHECK(limited_slope(Limiter::none, 1.0, 3.0) == 2.0);
  CHECK(limited_slope(Limiter::minmod, 1.0, 3.0) == 1.0);
  CHECK(limited_slope(Limiter::van_leer, 1.0, 3.0) == Approx(1.5));
}

TEST_CASE("MUSCL advective flux reconstructs in the upwind cell", "[kernels]") {
  // cells 0, 1 | 3, 6 ; a > 0: upwind cell has q = 1, slopes dl = 1, dr = 2.
  CHECK(advective_flux_muscl(0.0, 1.0, 3.0, 6.0, 2.0, Limiter::none) == Approx(2.0 * (1.0 + 0.75)));
  CHECK(advective_flux_muscl(0.0, 1.0, 3.0, 6.0, 2.0, Limiter::minmod) == Approx(2.0 * 1.5));
  // a < 0: upwind cell q = 3, slopes dl = 2, dr = 3.
  CHECK(advective_flux_muscl(0.0, 1.0, 3.0, 6.0, -1.0, Limiter::none) == Approx(-(3.0 - 1.25)));
  CHECK(advective_flux_muscl(0.0, 1.0, 3.0, 6.0, -1.0, Limiter::minmod) == Approx(-(3.0 - 1.0)));
  // a constant state is advected exactly
  CHECK(advective_flux_muscl(4.0, 4.0, 4.0, 4.0, 0.5, Limiter::van_leer) == 2.0);
}

TEST_CASE("central diffusive flux is -kappa dq/dx", "[kernels]") {
  CHECK(diffusive_flux_central(1.0, 3.0, 0.5, 0.25) == Approx(-4.0));
  CHECK(diffusive_flux_central(2.0, 2.0, 0.5, 0.25) == 0.0);
}

TEST_CASE("SSP-RK schemes integrate du/dt = u to their order", "[kernels]") {
  for (auto [integrator, order] :
       {std::pair{TimeIntegrator::ssp_rk2, 2}, std::pair{TimeIntegrator::ssp_rk3, 3}}) {
    const SspScheme scheme = ssp_scheme(integrator);
    REQUIRE(scheme.stages == order);
    // One step of u' = u from u = 1 gives the Taylor polynomial of e^dt.
    const double dt = 0.1;
    double u = 1.0;
    for (int s = 0; s < scheme.stages; ++s) u = ssp_update(scheme.stage[s], 1.0, u, u, dt);
    const double taylor =
        order == 2 ? 1 + dt + dt * dt / 2 : 1 + dt + dt * dt / 2 + dt * dt * dt / 6;
    CHECK(u == Approx(taylor).epsilon(1e-14));
  }
}
