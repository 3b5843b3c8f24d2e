// Weather kernels (kernels/weather/flux.hpp, tendency.hpp, moist.hpp) against values
// computed by hand from docs/solvers/weather.md §1-2: interpolation and third
// differences of cell averages of polynomials, hyperviscosity, the equation
// of state, Euler, hyperviscous and diffusive face fluxes, wall faces, cell
// tendencies and the stage update, the Smagorinsky eddy viscosity and the tracer diffusive flux.
// The kernels run on the default execution
// space (tests/device_eval.hpp), so that an OpenMP or GPU build checks the
// device code.
#include "device_eval.hpp"
#include "kernels/weather/diffusion.hpp"
#include "kernels/weather/tendency.hpp"
#include "kernels/weather/tracer.hpp"

#include <catch2/catch_approx.hpp>
#include <catch2/catch_test_macros.hpp>

#include <cmath>
#include <limits>

using namespace cb;
using namespace cb::kernels::weather;
using Catch::Approx;
using cb::test::on_device;

namespace {

// Relative tolerance of `real` arithmetic; an absolute error of tol * scale is
// allowed where terms of size `scale` cancel.
const double tol = sizeof(real) == sizeof(float) ? 2e-6 : 1e-13;

// Average of c[0] + c[1] x + ... + c[4] x^4 over the cell [a, a + h].
double cell_average(const double c[5], double a, double h) {
  auto integral = [c](double x) {
    double sum = 0, power = x;
    for (int n = 0; n < 5; ++n, power *= x) sum += c[n] * power / (n + 1);
    return sum;
  };
  return (integral(a + h) - integral(a)) / h;
}

// The face pressure p0 (Rd rho theta / p0)^(cp / cv), the equation of state
// written without C0.
double pressure_by_hand(double rho_theta) {
  return 1e5 * std::pow(287.0 * rho_theta / 1e5, 1004.0 / 717.0);
}

void check_vars(const Vars& got, const double (&expected)[5], double scale = 1) {
  for (int v = 0; v < 5; ++v) {
    INFO("variable " << v);
    CHECK(double(got[v]) == Approx(expected[v]).epsilon(tol).margin(tol * scale));
  }
}

}  // namespace

TEST_CASE("fourth-order interpolation is exact for cubics, third differences give h^3 q'''",
          "[weather][kernels]") {
  // q = 2 - 3 x + x^2 / 2 + x^3 / 4, face at x = 1.5, h = 0.5: q = -0.53125 and
  // h^3 q''' = 0.125 * 1.5 = 0.1875. For x^4 about x = 0 (h = 1) the averages
  // are 31/5, 1/5, 1/5, 31/5: interpolation error -h^4 q'''' / 30 = -0.8, and
  // a third difference of 0 (q''' = 0 there).
  const double cubic[5] = {2, -3, 0.5, 0.25, 0}, quartic[5] = {0, 0, 0, 0, 1};
  real c[4], q[4];
  for (int m = 0; m < 4; ++m) {
    c[m] = real(cell_average(cubic, 1.5 + (m - 2) * 0.5, 0.5));
    q[m] = real(cell_average(quartic, m - 2.0, 1.0));
  }
  const Vars r = on_device(KOKKOS_LAMBDA() {
    return Vars{interpolate4(c[0], c[1], c[2], c[3]), third_difference(c[0], c[1], c[2], c[3]),
                interpolate4(q[0], q[1], q[2], q[3]), third_difference(q[0], q[1], q[2], q[3]),
                third_difference(real(7), real(7), real(7), real(7))};
  });
  check_vars(r, {-0.53125, 0.1875, -0.8, 0, 0}, 10);
  CHECK(r[4] == 0);  // constant: exactly zero
}

TEST_CASE("hyperviscosity damps the fourth derivative and leaves constants alone",
          "[weather][kernels]") {
  // hv = -beta dx / (16 dt) = -0.5 * 2 / 4. Averages of (v + 1) x^4 over the
  // cells [-2, -1] .. [2, 3] (h = 1): third differences 0 at the face x = 0 and
  // 24 (v + 1) at x = 1, so the cell [0, 1] gets -(H(1) - H(0)) = 24 hv (v + 1).
  const double quartic[5] = {0, 0, 0, 0, 1};
  Kokkos::Array<real, 5> a;
  for (int m = 0; m < 5; ++m) a[m] = real(cell_average(quartic, m - 2.0, 1.0));
  const Vars r = on_device(KOKKOS_LAMBDA() {
    const real hv = hyperviscosity(real(0.5), real(2), real(0.25));
    Vars d3_low, d3_high;
    for (int v = 0; v < 5; ++v) {
      const real s = real(v + 1);
      d3_low[v] = third_difference(s * a[0], s * a[1], s * a[2], s * a[3]);
      d3_high[v] = third_difference(s * a[1], s * a[2], s * a[3], s * a[4]);
    }
    return sweep_tendency(hyperviscous_flux(d3_low, hv), hyperviscous_flux(d3_high, hv), real(1),
                          real(0), 0);
  });
  check_vars(r, {-6, -12, -18, -24, -30}, 1000);
  const Vars flat = on_device(KOKKOS_LAMBDA() {
    const Vars d3{third_difference(real(3), real(3), real(3), real(3)), 0, 0, 0, 0};
    return hyperviscous_flux(d3, hyperviscosity(real(0.05), real(100), real(0.1)));
  });
  CHECK(flat[0] == 0);
  const Vars hv = on_device(KOKKOS_LAMBDA() {
    return Vars{hyperviscosity(real(0.5), real(2), real(0.25)), 0, 0, 0, 0};
  });
  CHECK(hv[0] == real(-0.25));
}

TEST_CASE("the face state and its pressure from the equation of state", "[weather][kernels]") {
  // rho = 0.2 + 1 = 1.2, u = 12 / 1.2 = 10, v = -3, w = 2, theta = (72 + 300)
  // / 1.2 = 310, p = p(372) - 1000; and p(p0 / Rd) = p0.
  const Vars q{0.2, 12, real(2.4), 72, real(-3.6)};
  const FaceBackground bg{1, 300, 1000};
  const Vars r = on_device(KOKKOS_LAMBDA() {
    const FaceState w = face_state(q, bg, 0);
    return Vars{w.rho, w.vel[0], w.vel[2], w.theta, w.vel[1]};
  });
  check_vars(r, {1.2, 10, 2, 310, -3});
  const Vars p = on_device(KOKKOS_LAMBDA() {
    return Vars{face_pressure(q[dens], q[rhot], bg), pressure(real(1e5 / 287)), 0, 0, 0};
  });
  CHECK(double(p[0]) == Approx(pressure_by_hand(372) - 1000).epsilon(10 * tol));
  CHECK(double(p[1]) == Approx(1e5).epsilon(10 * tol));
}

TEST_CASE("the Euler flux along each axis", "[weather][kernels]") {
  // rho = 1.2, (u, v, w) = (10, -3, 2), theta = 300, p = 500:
  // (rho u_n, rho u_n u + p e_x, rho u_n w + p e_z, rho u_n theta, rho u_n v + p e_y).
  const FaceState w{1.2, {10, -3, 2}, 300, 500};
  const double expected[3][5] = {
      {12, 620, 24, 3600, -36}, {-3.6, -36, -7.2, -1080, 510.8}, {2.4, 24, 504.8, 720, -7.2}};
  for (int axis = 0; axis < 3; ++axis) {
    INFO("axis " << axis);
    check_vars(on_device(KOKKOS_LAMBDA() { return euler_flux(w, axis); }), expected[axis]);
  }
}

// face_flux of a stencil with its face's pressure from the equation of state, as the solver's
// pressure pass and flux kernel compute them (cells on both sides with background `cell`).
KOKKOS_INLINE_FUNCTION Vars flux_through(const Stencil& q, const FaceBackground& face,
                                         const CellBackground& cell, int axis, bool wall,
                                         const FluxParams& p) {
  const Vars v = face_values(q);
  return face_flux(q, face, face_pressure(v[dens], v[rhot], face), cell, cell, axis, wall, p);
}

TEST_CASE("a resting hydrostatic atmosphere has no face flux", "[weather][kernels]") {
  // Zero perturbations over a background whose face pressure is that of its
  // rho theta: in the vertical sweep every flux vanishes (p' = 0), in the
  // horizontal ones all but the pressure p(330) on the normal momentum.
  const Stencil rest{};
  const CellBackground cell{1.1, 330};
  const FluxParams p{-0.1, 100, 75, 75, 0};
  for (int axis = 0; axis < 3; ++axis) {
    const FaceBackground face{1.1, 330, axis == 2 ? pressure(real(330)) : real(0)};
    const Vars r =
        on_device(KOKKOS_LAMBDA() { return flux_through(rest, face, cell, axis, false, p); });
    const double p_face = axis == 2 ? 0 : pressure_by_hand(330);
    INFO("axis " << axis);
    check_vars(r, {0, axis == 0 ? p_face : 0, axis == 2 ? p_face : 0, 0, axis == 1 ? p_face : 0},
               1e5);
  }
}

TEST_CASE("the face flux of a linear state, with and without diffusion", "[weather][kernels]") {
  // Cells (rho' = 0.2 on rho_bar = 1, (rho theta)_bar = 300) with u = -1, 1, 3,
  // 5 and theta' = 8, 10, 12, 14: at the face rho = 1.2, u = 2, theta = 311,
  // third differences 0. Diffusion: -rho nu (3 - 1) / h = -1.8 on rho u and
  // -rho kappa (12 - 10) / h = -1.2 on (rho theta)'.
  Stencil q;
  for (int c = 0; c < 4; ++c)
    q[c] = Vars{real(0.2), real(1.2 * (2 * c - 1)), 0, real(1.2 * (308 + 2 * c) - 300), 0};
  const FaceBackground face{1, 300, 0};
  const CellBackground cell{1, 300};
  const FluxParams inviscid{-0.1, 100, 0, 0, 0}, viscous{-0.1, 100, 75, 50, 0};
  const Vars plain =
      on_device(KOKKOS_LAMBDA() { return flux_through(q, face, cell, 0, false, inviscid); });
  check_vars(plain, {2.4, 4.8 + pressure_by_hand(1.2 * 311), 0, 2.4 * 311, 0}, 1e5);
  const Vars diffused =
      on_device(KOKKOS_LAMBDA() { return flux_through(q, face, cell, 0, false, viscous); });
  CHECK(diffused[dens] == plain[dens]);
  CHECK(double(diffused[umom] - plain[umom]) == Approx(-1.8).margin(tol * 1e5));
  CHECK(double(diffused[rhot] - plain[rhot]) == Approx(-1.2).margin(tol * 1e3));
  CHECK(diffused[wmom] == plain[wmom]);
  const Vars direct = on_device(KOKKOS_LAMBDA() {
    return diffusive_flux(cell_velocity_theta(q[1], cell), cell_velocity_theta(q[2], cell),
                          real(1.2), viscous);
  });
  check_vars(direct, {0, -1.8, 0, -1.2, 0}, 1e3);
}

TEST_CASE("no mass, and no diffusion, crosses a wall face", "[weather][kernels]") {
  // Cells c = 0..3 along z with rho' = 0.01 c^3, rho u = c + 1, rho w = 0.5 c^3,
  // (rho theta)' = 0.3 c, hv = -0.5. Third differences (h^3 q'''): 0.06, 0, 3,
  // 0; interpolated rho w = (7 * 0.5 + 7 * 4 - 13.5) / 12 = 1.5 and (rho theta)'
  // = 0.45. Inside, the mass flux is 1.5 + 0.5 * 0.06; at a wall the normal
  // velocity and the hyperviscous mass flux are dropped, so rho w carries
  // p' + 0.5 * 3 only and nothing else moves.
  Stencil q;
  for (int c = 0; c < 4; ++c) {
    q[c] = Vars{real(0.01 * c * c * c), real(c + 1), real(0.5 * c * c * c), real(0.3 * c), 0};
  }
  const FaceBackground face{1, 300, 2000};
  const CellBackground cell{1, 300};
  const FluxParams p{-0.5, 10, 75, 75, 0};
  const Vars wall = on_device(KOKKOS_LAMBDA() { return flux_through(q, face, cell, 2, true, p); });
  CHECK(wall[dens] == 0);
  check_vars(wall, {0, 0, pressure_by_hand(300.45) - 2000 + 1.5, 0, 0}, 1e5);
  const Vars inside =
      on_device(KOKKOS_LAMBDA() { return flux_through(q, face, cell, 2, false, p); });
  CHECK(double(inside[dens]) == Approx(1.53).epsilon(tol).margin(tol * 10));
}

TEST_CASE("cell tendencies, sources and the stage update", "[weather][kernels]") {
  const Vars low{1, 2, 3, 4, 5}, high{2, 4, 6, 8, 10};
  // -(F_high - F_low) / h with h = 0.5, plus -rho' g = -0.1 * 9.8 on rho w
  // in the vertical sweep only.
  check_vars(on_device(KOKKOS_LAMBDA() { return sweep_tendency(low, high, real(0.5), 0.1, 0); }),
             {-2, -4, -6, -8, -10});
  check_vars(on_device(KOKKOS_LAMBDA() { return sweep_tendency(low, high, real(0.5), 0.1, 2); }),
             {-2, -4, -6.98, -8, -10});
  const Vars r = on_device(KOKKOS_LAMBDA() {
    return Vars{buoyancy(real(0.5)), momentum_forcing(real(0.01), real(1.1)),
                stage_update(1, real(0.5), 4), stage_update(-2, real(0.25), 6), 0};
  });
  check_vars(r, {-4.9, 0.011, 3, -0.5, 0});
}

TEST_CASE("moist tracer fluxes and the positive-definite renormalisation", "[weather][kernels]") {
  // A uniform mixing ratio is carried with the mass flux; the hyperviscosity acts on q.
  const real mass_flux = real(2.5), rho_face = real(1.2), hv = real(-0.1);
  const Vars r = on_device(KOKKOS_LAMBDA() {
    using Q = Kokkos::Array<real, 4>;
    const Q none{0, 0, 0, 0};
    return Vars{
        tracer_face_flux(Q{real(0.01), real(0.01), real(0.01), real(0.01)}, none, mass_flux,
                         rho_face, hv, false),
        tracer_face_flux(Q{0, 0, real(0.012), real(0.012)}, none, mass_flux, rho_face, hv, false),
        tracer_face_flux(Q{1, 2, 3, 4}, none, mass_flux, rho_face, hv, true),
        outflow_factor(real(0.3), real(-1), real(2), real(0.1), real(0.5)),
        outflow_factor(real(0.3), real(1), real(0.5), real(0.1), real(0.5))};
  });
  // q_face = 7 * 0.012 / 12 - 0.012 / 12 = 0.006, d3 = -3 * 0.012 + 0.012 = -0.024.
  check_vars(r, {0.025, 2.5 * 0.006 + 0.1 * 1.2 * -0.024, 0,
                 (0.3 * (1 - 16 * std::numeric_limits<real>::epsilon()) -
                  std::numeric_limits<real>::min()) /
                     0.6,
                 1});
  // The factor leaves a cell exactly empty at most: its outflow dt/h (F_high - F_low) is
  // scaled to what it holds; a face flux takes its upwind cell's factor.
  const real factor = outflow_factor(real(0.3), real(-1), real(2), real(0.1), real(0.5));
  CHECK(real(0.3) -
            real(0.1) / real(0.5) * (limited_flux(2, factor, 1) - limited_flux(-1, 1, factor)) >=
        0);
  CHECK(limited_flux(2, real(0.5), real(0.25)) == 1);
  CHECK(limited_flux(-2, real(0.5), real(0.25)) == real(-0.5));
}

TEST_CASE("the renormalisation leaves no negative residue, subnormal masses included",
          "[weather][kernels]") {
  // The supercell at 4 km once left rain at -4.9e-324 (one subnormal step) after a horizontal
  // sweep; the next sweep's factor was then -inf and Kessler's powers NaN. Sweep a cell holding
  // masses from normal down to a few subnormal steps against outflows around what it holds,
  // with an inflow through the other face, in the stage update's own arithmetic.
  const real tiny = std::numeric_limits<real>::denorm_min();
  const real smallest_normal = std::numeric_limits<real>::min();
  const real dt = real(0.5555555555555556), h = real(4000);
  for (real density : {real(0.3), real(1e-300), 64 * smallest_normal, smallest_normal, real(1e-310),
                       3 * tiny, tiny, real(0)}) {
    for (real ratio : {real(0.5), real(1), real(1 + 1e-15), real(2), real(1e6)}) {
      const real out_flux = density * ratio * h / dt, in_flux = real(0.37) * out_flux;
      const real factor = outflow_factor(density, in_flux, out_flux, dt, h);
      CHECK(factor >= 0);
      CHECK(factor <= 1);
      const real high = limited_flux(out_flux, factor, 1), low = limited_flux(in_flux, 1, factor);
      CHECK(stage_update(density, dt, -(high - low) / h) >= 0);
      if (density < smallest_normal && out_flux > 0) CHECK(factor == 0);
    }
  }
}

TEST_CASE("with water dynamics the tracer hyperviscosity acts on q - q_bar",
          "[weather][kernels][moist]") {
  // q = q_bar: only the mass flux carries water, 2.5 * 0.006; a background alone moves none.
  using Q = Kokkos::Array<real, 4>;
  const Vars r = on_device(KOKKOS_LAMBDA() {
    const Q q{0, 0, real(0.012), real(0.012)};
    return Vars{tracer_face_flux(q, q, real(2.5), real(1.2), real(-0.1), false),
                tracer_face_flux(q, q, real(0), real(1.2), real(-0.1), false), 0, 0, 0};
  });
  check_vars(r, {2.5 * 0.006, 0, 0, 0, 0});
}

TEST_CASE("moist equation of state and water loading", "[weather][kernels][moist]") {
  // f_v = 1 + (461.5 / 287) 0.01; exactly 1 without vapour, so dry runs keep their bits.
  const Vars f = on_device(KOKKOS_LAMBDA() {
    return Vars{vapour_factor(real(0.01)), vapour_factor(real(0)),
                total_density_perturbation(real(0.002), real(0.0125), real(0.01)), 0, 0};
  });
  CHECK(double(f[0]) == Approx(1 + 461.5 / 287 * 0.01).epsilon(tol));
  CHECK(f[1] == real(1));
  CHECK(double(f[2]) == Approx(0.0045).epsilon(10 * tol));
  // The face pressure takes rho theta f_v: p(372 * 1.01608...) - 1000.
  const Vars q{0.2, 12, real(2.4), 72, real(-3.6)};
  const FaceBackground bg{1, 300, 1000};
  const Vars p = on_device(KOKKOS_LAMBDA() {
    return Vars{face_pressure(q[dens], q[rhot], bg, vapour_factor(real(0.01))),
                face_pressure(q[dens], q[rhot], bg, 1), face_pressure(q[dens], q[rhot], bg), 0, 0};
  });
  CHECK(double(p[0]) ==
        Approx(pressure_by_hand(372 * (1 + 461.5 / 287 * 0.01)) - 1000).epsilon(10 * tol));
  CHECK(p[1] == p[2]);
  // dpi/dz = -g (1 + qt) / (cp theta (1 + 1.608 qv)): theta 300 K, qv 0.01, qt 0.015.
  CHECK(moist_exner_slope(300, 0.01, 0.015) ==
        Approx(-9.8 * 1.015 / (1004 * 300 * (1 + 461.5 / 287 * 0.01))).epsilon(1e-14));
  // The dry density inverts the equation of state: pi = 0.9, theta 300 K, qv 0.01.
  const double rho = moist_dry_density(0.9, 300, 0.01);
  CHECK(pressure(rho * 300 * (1 + 461.5 / 287 * 0.01)) ==
        Approx(1e5 * std::pow(0.9, 1004.0 / 287)).epsilon(1e-13));
}

TEST_CASE("Smagorinsky: no eddy viscosity without deformation, (Cs Delta)^2 |S| in a shear",
          "[weather][kernels][diffusion]") {
  // Delta = (dx dy dz)^(1/3) in 3-D, (dx dz)^(1/2) in 2-D.
  CHECK(filter_length(100, 200, 50, true) == Approx(100).epsilon(1e-15));
  CHECK(filter_length(100, 1, 25, false) == Approx(50).epsilon(1e-15));
  // Centred differences of the cells beside one: exact for a linear velocity.
  const Vars d = on_device(KOKKOS_LAMBDA() {
    return Vars{centred_difference(real(2), real(6), real(50)), 0, 0, 0, 0};
  });
  CHECK(double(d[0]) == Approx(0.04).epsilon(tol));
  const real cs = real(0.18), delta = 100, k_max = 1e6;
  // Uniform flow (any solid-body translation): zero gradient. Solid-body rotation in x-z,
  // u = -omega z, w = omega x: an antisymmetric gradient, no strain.
  VelocityGradient uniform{}, rotation{}, shear{}, strong{};
  for (int a = 0; a < 3; ++a)
    for (int b = 0; b < 3; ++b) uniform[a][b] = rotation[a][b] = shear[a][b] = strong[a][b] = 0;
  rotation[2][0] = real(-0.01);  // d u / d z
  rotation[0][2] = real(0.01);   // d w / d x
  // Pure shear u = s z, s = 0.02 /s: |S| = s, K = (Cs Delta)^2 s = 6.48 m^2/s.
  shear[2][0] = real(0.02);
  strong[2][0] = real(1e6);
  const Vars k = on_device(KOKKOS_LAMBDA() {
    return Vars{smagorinsky_viscosity(cs, delta, deformation(uniform), k_max),
                smagorinsky_viscosity(cs, delta, deformation(rotation), k_max), deformation(shear),
                smagorinsky_viscosity(cs, delta, deformation(shear), k_max),
                smagorinsky_viscosity(cs, delta, deformation(strong), k_max)};
  });
  CHECK(k[0] == real(0));
  CHECK(k[1] == real(0));
  CHECK(double(k[2]) == Approx(0.02).epsilon(tol));
  CHECK(double(k[3]) == Approx(0.18 * 100 * 0.18 * 100 * 0.02).epsilon(10 * tol));
  CHECK(k[4] == k_max);  // clipped to the stability bound
  CHECK(diffusion_k_limit(100, 2) == Approx(1250).epsilon(1e-15));
  CHECK(face_viscosity(2, 4) == 3);
}

TEST_CASE("tracer diffusive flux: -rho K d(q - q_bar)/dn", "[weather][kernels][diffusion]") {
  // q 0.010 | 0.012 across h = 100 m, rho 1.1, K = 50: -1.1 50 0.002 / 100 = -1.1e-3; about a
  // background with the same step the perturbation is uniform: no flux.
  const Vars f = on_device(KOKKOS_LAMBDA() {
    return Vars{tracer_diffusive_flux(real(0.010), real(0.012), 0, 0, real(1.1), 50, 100),
                tracer_diffusive_flux(real(0.010), real(0.012), real(0.009), real(0.011), real(1.1),
                                      50, 100),
                0, 0, 0};
  });
  CHECK(double(f[0]) == Approx(-1.1e-3).epsilon(1e-12));
  CHECK(std::abs(double(f[1])) < 1e-17);
}

TEST_CASE("the equation of state's power against long double powl", "[weather][kernels]") {
  // math::pow_positive (core/pow_positive.hpp) over the range of rho theta and exner values a
  // run meets, for the exponents of the equation of state and its inverse: within 2 ulp of
  // the exact power (glibc's powl in long double), on the default execution space. Zero and
  // negative bases give NaN, as the library pow does for negative ones.
  const int n = 20000;
  const double exponents[3] = {gamm, 1 / gamm, cp / rd};
  Kokkos::View<double* [3]> power("power", n);
  const double lo = std::log(1e-3), hi = std::log(2e3);
  Kokkos::parallel_for(
      "test::pow_positive", n, KOKKOS_LAMBDA(int i) {
        const double x = math::exp(lo + (hi - lo) * i / (n - 1));
        for (int e = 0; e < 3; ++e) power(i, e) = math::pow_positive(x, exponents[e]);
      });
  const auto host = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), power);
  double worst = 0;
  for (int i = 0; i < n; ++i) {
    const double x = std::exp(lo + (hi - lo) * i / (n - 1));
    for (int e = 0; e < 3; ++e) {
      const long double exact = powl(static_cast<long double>(x), exponents[e]);
      worst = std::max(worst, double(std::fabs((host(i, e) - exact) / exact)));
    }
  }
  INFO("largest relative error " << worst);
  CHECK(worst <= 2 * std::numeric_limits<double>::epsilon());
  const Vars bad = on_device(KOKKOS_LAMBDA() {
    return Vars{real(math::pow_positive(0.0, gamm)), real(math::pow_positive(-2.0, gamm)), 0, 0, 0};
  });
  CHECK(std::isnan(double(bad[0])));
  CHECK(std::isnan(double(bad[1])));
}

TEST_CASE("exp in plain arithmetic against long double expl", "[weather][kernels]") {
  // math::exp_plain (core/pow_positive.hpp), the exponential of the MD pair kernels' erfc
  // (arguments -(g r)^2 down to about -10) and of pow_positive, over its whole domain:
  // within 1 ulp of the exact value (glibc's expl in long double).
  const int n = 40000;
  Kokkos::View<double*> value("value", n);
  Kokkos::parallel_for(
      "test::exp_plain", n,
      KOKKOS_LAMBDA(int i) { value(i) = math::exp_plain(-699.0 + 1398.0 * i / (n - 1)); });
  const auto host = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), value);
  double worst = 0;
  for (int i = 0; i < n; ++i) {
    const long double exact = expl(static_cast<long double>(-699.0 + 1398.0 * i / (n - 1)));
    worst = std::max(worst, double(std::fabs((host(i) - exact) / exact)));
  }
  INFO("largest relative error " << worst);
  CHECK(worst <= std::numeric_limits<double>::epsilon());
}
