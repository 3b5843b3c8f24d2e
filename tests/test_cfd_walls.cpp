// No-slip walls on cut cells (solvers/cfd/embedded.cpp, docs/solvers/cfd.md
// §7.1), on channels between strips tilted by atan(1/2) across a periodic box,
// so the walls cut the cells at every fraction: Stokes' first problem (the wall
// shear), steady conduction between isothermal walls (the wall heat and the
// linear temperature profile; also in 3-D, between walls oblique to every
// axis) and Couette flow past a sliding wall (shear, work and heat), with the
// walls' impulse, heat and work all the momentum and energy the gas gains;
// and circular Couette flow around a spinning cylinder
// (the torque), and the stability of viscous cut cells along a concave wall.
#include "cfd_api_run.hpp"
#include "precision.hpp"
#include "solvers/cfd/solver.hpp"

#include <catch2/catch_test_macros.hpp>

#include <algorithm>
#include <cmath>
#include <string>

using namespace cb;
using cb::test::ApiRun;
using cb::test::exact;
using cb::test::round_off;
using cb::test::uniform_case;

namespace {

constexpr double pi = 3.14159265358979323846;
const double slope = std::atan(0.5);
const double e[2] = {std::cos(slope), std::sin(slope)};  // along the strips

// A box strip along y = x / 2 + c through `center` (c = center_y - center_x / 2),
// `thickness` across, longer than the box's diagonal.
std::string strip(double center_y, double thickness) {
  return "center = [1.0, " + exact(center_y) + ", 0.0]\nshape = \"box\"\nsize = [6.0, " +
         exact(thickness) + ", 1.0]\nrotate = [0.0, 0.0, " + exact(slope * 180 / pi) + "]\n";
}

const std::string periodic =
    "[boundary]\nx_lo = \"periodic\"\nx_hi = \"periodic\"\ny_lo = \"periodic\"\n"
    "y_hi = \"periodic\"\nz_lo = \"periodic\"\nz_hi = \"periodic\"\n";

std::string constant_viscosity(double mu) {
  return "[viscosity]\nlaw = \"constant\"\nmu = " + exact(mu) + "\n";
}

// The periodic box [0, 2] x [0, 1] x [0, h] at n cells per unit around `bodies`.
ApiRun channel_run(int n, const std::string& velocity, const std::string& bodies,
                   const std::string& extra) {
  const double h = 1.0 / n;
  return ApiRun(uniform_case("[" + std::to_string(2 * n) + ", " + std::to_string(n) + ", 1]",
                             "[2.0, 1.0, " + exact(h) + "]", velocity, bodies, periodic + extra));
}

// Steps `run` to `end`; returns the number of steps.
int steps_to(ApiRun& run, double end) {
  int steps = 0;
  while (run.time < end) run.advance(1, end), ++steps;
  return steps;
}

// The area of one strip's two faces crossing the box once (depth h).
double wetted_area(double h) {
  return 2 * 2 / e[0] * h;
}

}  // namespace

TEST_CASE("Stokes' first problem on no-slip walls tilted by atan(1/2): the wall shear",
          "[cfd][cut_cells]") {
  // The strip along y = x / 2 + 1/2 (mod 1), 0.3 / sqrt(1.25) thick: one channel. The gas
  // starts moving along it at U = 0.1 (Mach 0.1) and the walls hold it back. Incompressible
  // Stokes layer (Stokes 1851; Schlichting & Gersten, Boundary-Layer Theory, 2017):
  // tau_w = mu U / sqrt(pi nu t), the layers of the two walls apart while sqrt(nu t) stays
  // below a tenth of the channel's width. Measured: force along the stream at t = 0.5
  // (sqrt(nu t) = 4.5 h at 64 cells per unit) +0.28 % at 32 and +0.052 % at 64 cells per
  // unit of the exact value (+0.68 % and +0.10 % before the faces with a cut cell in their
  // stencil took the low-Mach correction; +1.25 % and +0.21 % while cells closer to the wall
  // than h / 4 took their own value at h / 4; -1.32 % and -0.42 % before the faces beside
  // the walls took fitted gradients, 2026-12-05; +7.4 % and +1.43 % while those faces were
  // first order).
  const double speed = 0.1, nu = 0.01, density = 1.4, end = 0.5;
  const std::string velocity = "[" + exact(speed * e[0]) + ", " + exact(speed * e[1]) + ", 0.0]";
  const std::string bodies =
      strip(1.0, 0.3 * e[0]) + "[[geometry]]\nname = \"image\"\n" + strip(0.0, 0.3 * e[0]);
  double error[2];
  for (int level = 0; level < 2; ++level) {
    const int n = 32 << level;
    const double h = 1.0 / n;
    ApiRun run = channel_run(n, velocity, bodies, constant_viscosity(nu * density));
    const auto first = run.diagnostics();
    run.advance(1 << 20, end);
    const auto last = run.diagnostics();
    const double wetted = wetted_area(h);
    const double exact_force = density * nu * speed / std::sqrt(pi * nu * end) * wetted;
    const double force = last.at("force_x") * e[0] + last.at("force_y") * e[1];
    error[level] = force / exact_force - 1;
    INFO(n << " cells per unit: force along the stream " << force << ", exact " << exact_force
           << ", relative error " << error[level]);
    CHECK(std::abs(error[level]) < (level == 0 ? 0.004 : 0.0008));
    // The pressure, the same all along a strip, pushes nothing along it (measured 1e-16 of
    // the force): the force's viscous part is all of it, and the parts add up to the force.
    const double shear = last.at("force_viscous_x") * e[0] + last.at("force_viscous_y") * e[1];
    const double push = last.at("force_pressure_x") * e[0] + last.at("force_pressure_y") * e[1];
    INFO("viscous part " << shear << ", pressure part " << push);
    CHECK(std::abs(push) <= round_off(1e-14) * force);
    for (const char* axis : {"x", "y"}) {
      const std::string total = std::string("force_") + axis;
      CHECK(std::abs(last.at(std::string("force_pressure_") + axis) +
                     last.at(std::string("force_viscous_") + axis) - last.at(total)) <=
            round_off(1e-14) * std::abs(force));
    }
    // The walls' impulse, pressure and viscous, is all the momentum the gas loses.
    const auto& impulse = run.solver->wall_impulse();
    const char* momenta[2] = {"mom_x", "mom_y"};
    for (int d = 0; d < 2; ++d) {
      const double change = last.at(momenta[d]) - first.at(momenta[d]);
      INFO(momenta[d] << " changed by " << change << ", the walls' impulse " << impulse[d]);
      CHECK(std::abs(change - impulse[d]) <= round_off(1e-14) * first.at("energy"));
    }
    CHECK(std::abs(last.at("mass") / first.at("mass") - 1) <= round_off(1e-13));
  }
  // The error falls 4 times or more per halving of h (measured 5.4).
  CHECK(std::abs(error[1]) < std::abs(error[0]) / 4);
}

namespace {

// Over the full cells of a run between strip A centred on y - x / 2 = 0.75 and
// strip B on 0.25 (mod 1), each 0.2 across in y - x / 2, against the steady
// state `exact` (s: the fraction of the way across a channel from B's wall to
// A's; T and the velocity along the strips): the largest |T - T_exact|,
// |u - u_exact| (the velocity's both components) and speed.
struct Profile {
  double temperature_error = 0.0, velocity_error = 0.0, speed = 0.0;
};

struct Steady {
  double temperature, velocity;
};

template <class Exact>
Profile channel_profile(ApiRun& run, const Exact& exact_at) {
  const auto s = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), run.solver->state());
  const auto kappa =
      Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), run.solver->cut_cells().volume);
  const Int3 n = run.decomposition.local_cells();
  const Int3 g = ghost_widths(run.params.geometry.cells, run.params.halo());
  const double gamma = run.params.gamma, h = run.params.geometry.spacing(0);
  Profile p;
  for (int j = 0; j < n[1]; ++j)
    for (int i = 0; i < n[0]; ++i) {
      const int k = g[2], jj = j + g[1], ii = i + g[0];
      if (kappa(k, jj, ii) != 1.0) continue;
      const double rho = s(0, k, jj, ii), u = s(1, k, jj, ii) / rho, v = s(2, k, jj, ii) / rho;
      const double t = (gamma - 1) * (s(4, k, jj, ii) / rho - 0.5 * (u * u + v * v));
      double eta = (j + 0.5) * h - 0.5 * (i + 0.5) * h;  // y - x / 2, in [0.35, 1.35)
      eta -= std::floor(eta - 0.35);
      const Steady x = exact_at(eta < 0.75 ? (eta - 0.35) / 0.3 : 1 - (eta - 0.85) / 0.3);
      p.temperature_error = std::max(p.temperature_error, std::abs(t - x.temperature));
      p.velocity_error =
          std::max(p.velocity_error, std::hypot(u - x.velocity * e[0], v - x.velocity * e[1]));
      p.speed = std::max(p.speed, std::hypot(u, v));
    }
  return p;
}

// Strips A and B as above, 0.2 / sqrt(1.25) thick, with the wall keys of each.
std::string two_strips(const std::string& wall_a, const std::string& wall_b) {
  const std::string union_with = "[[geometry]]\ncombine = \"union\"\n";
  const double thickness = 0.2 * e[0];
  return strip(1.25, thickness) + wall_a + union_with + strip(0.25, thickness) +
         "[[geometry]]\nname = \"B\"\n" + strip(0.75, thickness) + wall_b + union_with +
         strip(-0.25, thickness);
}

}  // namespace

TEST_CASE("steady conduction between isothermal walls tilted by atan(1/2): the wall heat",
          "[cfd][cut_cells]") {
  // A hot strip (T 0.8) and a cold one (T 0.6), each 0.2 / sqrt(1.25) thick, alternate
  // 0.5 / sqrt(1.25) apart: two channels of width L = 0.3 / sqrt(1.25) of gas at rest, T
  // 1 / 1.4 at first. At steady state (mu constant) T is linear across each channel, p
  // uniform and the gas at rest: the hot body gives the gas k (T_hot - T_cold) / L on each
  // of its two faces, the cold one takes as much (Fourier's law). The slowest mode decays
  // as exp(-pi^2 alpha t / L^2), alpha = k / (rho c_p) = nu / Pr: below 4e-4 of dT by
  // t = 4.5. The scheme takes the linear profile exactly: measured wall heat +8.7e-5 at 24
  // and +2.1e-4 at 48 cells per unit (L = 6.4 and 12.9 h), |T - T_exact| at most 3.5e-5 and
  // 2.8e-5 of dT, the cold wall's heat the hot one's to 5e-5, speeds below 2.2e-5. While cut
  // cells closer to the wall than h / 4 took their own value at h / 4 (wall_model.hpp):
  // -1.56 % and -0.47 %; before the fitted gradients beside the walls: -7.1 % and -3.5 %.
  const double hot = 0.8, cold = 0.6, mu = 0.014, prandtl = 0.72, gamma = 1.4;
  const double width = 0.3 * e[0], end = 4.5;
  const double conductivity = mu * gamma / ((gamma - 1) * prandtl);
  const std::string bodies = two_strips("wall_temperature = " + exact(hot) + "\n",
                                        "wall_temperature = " + exact(cold) + "\n");
  double error[2];
  for (int level = 0; level < 2; ++level) {
    const int n = 24 << level;
    const double h = 1.0 / n;
    ApiRun run = channel_run(n, "[0.0, 0.0, 0.0]", bodies, constant_viscosity(mu));
    const auto first = run.diagnostics();
    const int steps = steps_to(run, end);
    const auto last = run.diagnostics();
    const double wetted = wetted_area(h);
    const double exact_heat = conductivity * (hot - cold) / width * wetted;
    error[level] = last.at("wall_heat_1") / exact_heat - 1;
    const Profile profile = channel_profile(run, [&](double s) {
      return Steady{cold + (hot - cold) * s, 0.0};
    });
    INFO(n << " cells per unit, " << steps << " steps: heat from the hot wall "
           << last.at("wall_heat_1") << ", to the cold " << -last.at("wall_heat_2") << ", exact "
           << exact_heat << ", relative error " << error[level] << "; largest |T - T_exact| / dT "
           << profile.temperature_error / (hot - cold) << ", largest speed " << profile.speed);
    CHECK(std::abs(error[level]) < 5e-4);
    CHECK(profile.temperature_error < 2e-4 * (hot - cold));
    // Steady: the cold wall takes what the hot one gives.
    CHECK(std::abs(last.at("wall_heat_2") / last.at("wall_heat_1") + 1) < 1e-3);
    // The walls' heat is all the energy the gas gains; mass is kept (round-off of each step
    // adds up over the thousands of steps).
    const double gained = last.at("energy") - first.at("energy");
    INFO("energy gained " << gained << ", the walls' heat " << run.solver->wall_heat());
    CHECK(std::abs(gained - run.solver->wall_heat()) <=
          round_off(1e-16) * steps * first.at("energy"));
    CHECK(std::abs(last.at("mass") / first.at("mass") - 1) <= round_off(1e-16) * steps);
  }
}

namespace {

// A box slab about the plane y - x / 2 - z = c, `thickness` across, wider than
// the box [0, 2] x [0, 1] x [0, 1]: its normal (-1/2, 1, -1) / 1.5 has no zero
// component, so the walls cut the cells in every way a plane can.
std::string oblique_slab(double c, double thickness) {
  const double about_x = std::asin(-2.0 / 3.0) * 180 / pi, about_z = slope * 180 / pi;
  return "center = [1.0, " + exact(c + 1.0) + ", 0.5]\nshape = \"box\"\nsize = [9.0, " +
         exact(thickness) + ", 9.0]\nrotate = [" + exact(about_x) + ", 0.0, " + exact(about_z) +
         "]\n";
}

}  // namespace

TEST_CASE("steady conduction between isothermal walls oblique to every axis (3-D): the wall heat",
          "[cfd][cut_cells]") {
  // The conduction test above in 3-D, 12 cells per unit: hot slabs (T 0.8) centred on
  // y - x / 2 - z = 1/4 (mod 1) and cold ones (T 0.6) on 3/4, each 0.25 / 1.5 (2 h) thick,
  // two channels of width L = 0.25 / 1.5 (2 h) per period; each body's wetted area is 6; a
  // cell spans 1.67 h along the normal, so none holds fluid on both sides of a slab. Measured
  // at t = 4: the hot wall's heat +0.073 % of the exact k (T_hot - T_cold) / L times its
  // area, still falling (+0.20 % at t = 1.4, +0.12 % at 2.8), the cold wall's the same to
  // 1e-5; the exact linear field at the cells' centroids, written into a checkpoint, stays
  // steady to round-off (by hand). +1.09 % while the wall samples' distances were the
  // combined phi, which across the 2 h channel the other body's wall shortened
  // (embedded.cpp, own_body_distances); -2.7 % before the small-cell samples as well.
  const double hot = 0.8, cold = 0.6, mu = 0.014, prandtl = 0.72, gamma = 1.4, end = 4.0;
  const double conductivity = mu * gamma / ((gamma - 1) * prandtl), thickness = 0.25 / 1.5;
  const std::string union_with = "[[geometry]]\ncombine = \"union\"\n";
  std::string bodies = oblique_slab(-1.75, thickness) + "wall_temperature = " + exact(hot) + "\n";
  for (double c : {-0.75, 0.25, 1.25}) bodies += union_with + oblique_slab(c, thickness);
  bodies += "[[geometry]]\nname = \"B\"\n" + oblique_slab(-2.25, thickness) +
            "wall_temperature = " + exact(cold) + "\n";
  for (double c : {-1.25, -0.25, 0.75}) bodies += union_with + oblique_slab(c, thickness);
  ApiRun run(uniform_case("[24, 12, 12]", "[2.0, 1.0, 1.0]", "[0.0, 0.0, 0.0]", bodies,
                          periodic + constant_viscosity(mu)));
  const auto first = run.diagnostics();
  const int steps = steps_to(run, end);
  const auto last = run.diagnostics();
  const double exact_heat = conductivity * (hot - cold) / (0.25 / 1.5) * 6.0;
  INFO(steps << " steps: heat from the hot wall " << last.at("wall_heat_1") << ", to the cold "
             << -last.at("wall_heat_2") << ", exact " << exact_heat);
  CHECK(std::abs(last.at("wall_heat_1") / exact_heat - 1) < 0.002);
  CHECK(std::abs(last.at("wall_heat_2") / last.at("wall_heat_1") + 1) < 1e-4);
  const double gained = last.at("energy") - first.at("energy");
  CHECK(std::abs(gained - run.solver->wall_heat()) <=
        round_off(1e-16) * steps * first.at("energy"));
}

TEST_CASE("Couette flow between a moving and a resting isothermal wall: shear, work and heat",
          "[cfd][cut_cells]") {
  // The strips of the conduction test, both isothermal at T_w = 1 / 1.4; A's wall slides
  // along itself at U = 0.5 (Mach 0.5), B's rests. At steady state (mu, k constant) each
  // channel holds plane Couette flow: u = U s, T = T_w + mu U^2 / (2 k) s (1 - s), p uniform
  // (Schlichting & Gersten 2017, §4.2): A's wall feels the shear mu U / L per unit area
  // against its motion and does the work mu U^2 / L, of which each wall takes back half as
  // heat. Momentum diffuses slowest, exp(-pi^2 nu t / L^2): below 3e-4 of U by t = 6.
  // Measured at 24 and 48 cells per unit: shear +0.79 % and +0.21 %; heat of A +1.2 % and
  // +0.33 %, of B +0.25 % and -0.01 % of half the work; |u - u_exact| at most 0.70 % and
  // 0.24 % of U, |T - T_exact| 3.5 % and 1.5 % of T_max - T_w. Shear before the faces with
  // a cut cell in their stencil took the low-Mach correction: +2.22 % and +0.58 % (the
  // upwind flux's rho c du / 2 from the jump that the cut cells' centroids put into the
  // reconstructed velocity; +1.43 % at 24 as U -> 0, -0.02 % with the correction); while
  // cut cells closer to the wall than h / 4 took their own value at h / 4: +1.69 % and
  // +0.35 %; before the fitted gradients beside the walls: -3.8 % and -2.6 %.
  const double speed = 0.5, wall_t = 1 / 1.4, mu = 0.014, prandtl = 0.72, gamma = 1.4;
  const double width = 0.3 * e[0], end = 6.0;
  const double conductivity = mu * gamma / ((gamma - 1) * prandtl);
  const double rise = mu * speed * speed / (2 * conductivity);  // T_max - T_w = rise / 4
  const std::string isothermal = "wall_temperature = " + exact(wall_t) + "\n";
  const std::string bodies = two_strips(isothermal + "wall_velocity = [" + exact(speed * e[0]) +
                                            ", " + exact(speed * e[1]) + ", 0.0]\n",
                                        isothermal);
  double error[2];
  for (int level = 0; level < 2; ++level) {
    const int n = 24 << level;
    const double h = 1.0 / n;
    ApiRun run = channel_run(n, "[0.0, 0.0, 0.0]", bodies, constant_viscosity(mu));
    const auto first = run.diagnostics();
    const int steps = steps_to(run, end);
    const auto last = run.diagnostics();
    const double wetted = wetted_area(h);
    const double shear = mu * speed / width * wetted, power = shear * speed;
    const double drag = -(last.at("force_x_1") * e[0] + last.at("force_y_1") * e[1]);
    const Profile profile = channel_profile(run, [&](double s) {
      return Steady{wall_t + rise * s * (1 - s), speed * s};
    });
    INFO(n << " cells per unit, " << steps << " steps: drag on A " << drag << " (exact " << shear
           << "), A's power " << last.at("wall_power_1") << " (exact " << power << "), heat of A "
           << last.at("wall_heat_1") << " and B " << last.at("wall_heat_2") << " (exact "
           << -power / 2 << "); largest |u - u_exact| / U " << profile.velocity_error / speed
           << ", |T - T_exact| / (T_max - T_w) " << profile.temperature_error / (rise / 4));
    error[level] = drag / shear - 1;
    CHECK(std::abs(error[level]) < (level == 0 ? 0.011 : 0.003));
    // A's wall moves along itself: its power is the shear times U.
    CHECK(std::abs(last.at("wall_power_1") - speed * drag) <= 1e-12 * power);
    // Nearly steady (measured 1.3e-3 of the work at 24 cells per unit): the walls take back
    // the work as heat, each about half.
    CHECK(std::abs(last.at("wall_heat_1") + last.at("wall_heat_2") + last.at("wall_power_1")) <
          3e-3 * power);
    for (const char* wall : {"wall_heat_1", "wall_heat_2"})
      CHECK(std::abs(last.at(wall) / (-power / 2) - 1) < (level == 0 ? 0.02 : 0.006));
    CHECK(profile.velocity_error < (level == 0 ? 0.01 : 0.004) * speed);
    CHECK(profile.temperature_error < (level == 0 ? 0.055 : 0.024) * rise / 4);
    // The walls' work and heat are all the energy the gas gains, their impulse all the
    // momentum; mass is kept.
    const double gained = last.at("energy") - first.at("energy");
    INFO("energy gained " << gained << ", the walls' work " << run.solver->wall_work()
                          << " and heat " << run.solver->wall_heat());
    CHECK(std::abs(gained - run.solver->wall_work() - run.solver->wall_heat()) <=
          round_off(1e-16) * steps * first.at("energy"));
    const auto& impulse = run.solver->wall_impulse();
    CHECK(std::abs(last.at("mom_x") - first.at("mom_x") - impulse[0]) <=
          round_off(1e-16) * steps * first.at("energy"));
    CHECK(std::abs(last.at("mass") / first.at("mass") - 1) <= round_off(1e-16) * steps);
  }
  // The shear error falls 3 times or more per halving of h (measured 3.7).
  CHECK(std::abs(error[1]) < std::abs(error[0]) / 3);
}

namespace {

// Gas between a cylinder of radius 0.2 (wall keys `inner`) and a coaxial wall of radius 0.45
// (wall keys `outer`, a box less a cylinder) about (0.5, 0.5) in the periodic unit square,
// n cells per unit, mu = 0.014, started at `velocity`.
ApiRun annulus_run(int n, const std::string& velocity, const std::string& inner,
                   const std::string& outer) {
  const std::string bodies =
      "shape = \"cylinder\"\ncenter = [0.5, 0.5, 0.0]\nradius = 0.2\n" + inner +
      "[[geometry]]\nname = \"outer\"\nshape = \"box\"\ncenter = [0.5, 0.5, 0.0]\n"
      "size = [2.0, 2.0, 1.0]\n" +
      outer +
      "[[geometry]]\ncombine = \"subtract\"\nshape = \"cylinder\"\ncenter = [0.5, 0.5, 0.0]\n"
      "radius = 0.45\n";
  return ApiRun(uniform_case("[" + std::to_string(n) + ", " + std::to_string(n) + ", 1]",
                             "[1.0, 1.0, " + exact(1.0 / n) + "]", velocity, bodies,
                             periodic + constant_viscosity(0.014)));
}

}  // namespace

TEST_CASE("circular Couette flow around a spinning cylinder: the torque", "[cfd][cut_cells]") {
  // Gas between a cylinder of radius R1 = 0.2 spinning at Omega = 1 (wall speed 0.2, Mach
  // 0.2) and a resting coaxial wall of radius R2 = 0.45, both isothermal at T 1 / 1.4,
  // mu = 0.014 (nu 0.01, Re = Omega R1 (R2 - R1) / nu = 5). Steady circular Couette flow
  // (Schlichting & Gersten 2017, §5.2) has u_theta = A r + B / r with B = Omega R1^2 R2^2 /
  // (R2^2 - R1^2), and the fluid's torque on the inner cylinder is -4 pi mu B per unit length;
  // the cylinder's wall does the work Omega times it. The slowest mode decays as
  // exp(-pi^2 nu t / (R2 - R1)^2): below 1e-3 by t = 4.5. Measured: torque -1.19 % at 32 and
  // -0.11 % at 64 cells per unit (8 and 16 cells across the gap). Until the wall's samples
  // were taken relative to the body's rigid motion at each sample (wall_model.hpp; a velocity
  // relative to the single surface velocity of the cut cell left out the stress -mu u / R of
  // the turning wall): -5.9 % and -3.3 %; -9.0 % and -5.7 % before the fitted gradients beside
  // the walls.
  const double r1 = 0.2, r2 = 0.45, omega = 1.0, mu = 0.014, wall_t = 1 / 1.4, end = 4.5;
  const std::string isothermal = "wall_temperature = " + exact(wall_t) + "\n";
  const std::string spinning = "wall_angular_velocity = [0.0, 0.0, " + exact(omega) + "]\n";
  const double b = omega * r1 * r1 * r2 * r2 / (r2 * r2 - r1 * r1);
  double error[2];
  for (int level = 0; level < 2; ++level) {
    const int n = 32 << level;
    const double h = 1.0 / n;
    ApiRun run = annulus_run(n, "[0.0, 0.0, 0.0]", isothermal + spinning, isothermal);
    const auto first = run.diagnostics();
    const int steps = steps_to(run, end);
    const auto last = run.diagnostics();
    const double exact_torque = -4 * pi * mu * b * h;
    error[level] = last.at("moment_z_1") / exact_torque - 1;
    INFO(n << " cells per unit, " << steps << " steps: torque on the inner cylinder "
           << last.at("moment_z_1") << ", exact " << exact_torque << ", relative error "
           << error[level] << "; its power " << last.at("wall_power_1") << ", on the outer wall "
           << last.at("moment_z_2") << "; heat " << last.at("wall_heat_1") << ", "
           << last.at("wall_heat_2"));
    CHECK(std::abs(error[level]) < (level == 0 ? 0.02 : 0.004));
    // The spinning wall's work is Omega times the torque (measured to 2e-4; the wall's
    // velocity is taken along the cut cells' faceted surface).
    CHECK(std::abs(last.at("wall_power_1") + omega * last.at("moment_z_1")) <
          1e-3 * std::abs(last.at("wall_power_1")));
    // The outer wall holds the gas back with the opposite torque (measured 0.85 % and 0.07 %
    // apart: on a Cartesian grid angular momentum is not conserved exactly).
    CHECK(std::abs(last.at("moment_z_2") + last.at("moment_z_1")) <
          (level == 0 ? 0.015 : 0.004) * std::abs(exact_torque));
    // The walls' work and heat are all the energy the gas gains.
    const double gained = last.at("energy") - first.at("energy");
    CHECK(std::abs(gained - run.solver->wall_work() - run.solver->wall_heat()) <=
          round_off(1e-16) * steps * first.at("energy"));
  }
  // The error falls 3 times or more per halving (measured 10.4).
  CHECK(std::abs(error[1]) < std::abs(error[0]) / 3);
}

TEST_CASE("viscous gas inside a concave wall at 128 cells per unit stays stable",
          "[cfd][cut_cells]") {
  // Gas started at u = 0.2 (Mach 0.2) in the annulus above, walls adiabatic and at rest,
  // nu = 0.01 (cell Reynolds number 0.16). Small cut cells in a chain along the outer wall
  // exchanged redistributed mass among themselves until 2026-12-03, and an odd-even mode
  // of the viscous terms along the chain grew at any time step: max Mach 0.24 at t = 0.15,
  // 3.5 at 0.18, NaN at 0.187. Small cells now exchange with large ones only
  // (solvers/cfd/embedded.cpp). Measured since: max Mach 0.204 to t = 0.25 (0.2 at the start).
  ApiRun run = annulus_run(128, "[0.2, 0.0, 0.0]", "", "");
  double highest = 0.0;
  while (run.time < 0.25 && highest < 0.25) {
    run.advance(50, 0.25);
    const double mach = run.diagnostics().at("max_mach");
    highest = std::isfinite(mach) ? std::max(highest, mach) : 1e300;
  }
  INFO("max Mach to t = " << run.time << ": " << highest);
  CHECK(highest < 0.25);
}
