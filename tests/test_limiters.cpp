// Limiters, the scalar-transport fluxes and the SSP-RK coefficients on
// hand-computed values; the kernels run on the default execution space
// (tests/device_eval.hpp), so that an OpenMP or GPU build checks the device code.
#include "device_eval.hpp"
#include "kernels/limiters.hpp"
#include "kernels/rk.hpp"
#include "kernels/scalar/transport.hpp"

#include <catch2/catch_approx.hpp>
#include <catch2/catch_test_macros.hpp>

using namespace cb::kernels;
using Catch::Approx;
using cb::test::on_device;

TEST_CASE("minmod picks the smaller slope of equal sign, else zero", "[kernels]") {
  const auto slope = on_device(KOKKOS_LAMBDA() {
    return Kokkos::Array<double, 4>{slope_minmod(1.0, 3.0), slope_minmod(-4.0, -2.0),
                                    slope_minmod(1.0, -1.0), slope_minmod(0.0, 5.0)};
  });
  CHECK(slope[0] == 1.0);
  CHECK(slope[1] == -2.0);
  CHECK(slope[2] == 0.0);
  CHECK(slope[3] == 0.0);
}

TEST_CASE("van Leer slope is the harmonic mean 2ab/(a+b)", "[kernels]") {
  const auto slope = on_device(KOKKOS_LAMBDA() {
    return Kokkos::Array<double, 4>{slope_van_leer(1.0, 3.0), slope_van_leer(-2.0, -2.0),
                                    slope_van_leer(2.0, -1.0), slope_van_leer(1.0, 1e6)};
  });
  CHECK(slope[0] == Approx(1.5));  // 2*3/4
  CHECK(slope[1] == Approx(-2.0));
  CHECK(slope[2] == 0.0);
  CHECK(slope[3] < 2.0);  // bounded by twice the smaller slope
}

TEST_CASE("unlimited slope is the central difference", "[kernels]") {
  const auto slope = on_device(KOKKOS_LAMBDA() {
    return Kokkos::Array<double, 3>{limited_slope(Limiter::none, 1.0, 3.0),
                                    limited_slope(Limiter::minmod, 1.0, 3.0),
                                    limited_slope(Limiter::van_leer, 1.0, 3.0)};
  });
  CHECK(slope[0] == 2.0);
  CHECK(slope[1] == 1.0);
  CHECK(slope[2] == Approx(1.5));
}

TEST_CASE("MUSCL advective flux reconstructs in the upwind cell", "[kernels]") {
  const auto flux = on_device(KOKKOS_LAMBDA() {
    return Kokkos::Array<double, 5>{
        advective_flux_muscl(0.0, 1.0, 3.0, 6.0, 2.0, Limiter::none),
        advective_flux_muscl(0.0, 1.0, 3.0, 6.0, 2.0, Limiter::minmod),
        advective_flux_muscl(0.0, 1.0, 3.0, 6.0, -1.0, Limiter::none),
        advective_flux_muscl(0.0, 1.0, 3.0, 6.0, -1.0, Limiter::minmod),
        advective_flux_muscl(4.0, 4.0, 4.0, 4.0, 0.5, Limiter::van_leer)};
  });
  // cells 0, 1 | 3, 6 ; a > 0: upwind cell has q = 1, slopes dl = 1, dr = 2.
  CHECK(flux[0] == Approx(2.0 * (1.0 + 0.75)));
  CHECK(flux[1] == Approx(2.0 * 1.5));
  // a < 0: upwind cell q = 3, slopes dl = 2, dr = 3.
  CHECK(flux[2] == Approx(-(3.0 - 1.25)));
  CHECK(flux[3] == Approx(-(3.0 - 1.0)));
  // a constant state is advected exactly
  CHECK(flux[4] == 2.0);
}

TEST_CASE("central diffusive flux is -kappa dq/dx", "[kernels]") {
  const auto flux = on_device(KOKKOS_LAMBDA() {
    return Kokkos::Array<double, 2>{diffusive_flux_central(1.0, 3.0, 0.5, 0.25),
                                    diffusive_flux_central(2.0, 2.0, 0.5, 0.25)};
  });
  CHECK(flux[0] == Approx(-4.0));
  CHECK(flux[1] == 0.0);
}

TEST_CASE("SSP-RK schemes integrate du/dt = u to their order", "[kernels]") {
  for (auto [integrator, order] :
       {std::pair{TimeIntegrator::ssp_rk2, 2}, std::pair{TimeIntegrator::ssp_rk3, 3}}) {
    const SspScheme scheme = ssp_scheme(integrator);
    REQUIRE(scheme.stages == order);
    // One step of u' = u from u = 1 gives the Taylor polynomial of e^dt.
    const double dt = 0.1;
    const double u = on_device(KOKKOS_LAMBDA() {
      double u_stage = 1.0;
      for (int s = 0; s < scheme.stages; ++s) {
        u_stage = ssp_update(scheme.stage[s], 1.0, u_stage, u_stage, dt);
      }
      return u_stage;
    });
    const double taylor =
        order == 2 ? 1 + dt + dt * dt / 2 : 1 + dt + dt * dt / 2 + dt * dt * dt / 6;
    CHECK(u == Approx(taylor).epsilon(1e-14));
  }
}
