// The Cartesian DCMIP2016 supercell (docs/solvers/weather.md §13): the initial state against the
// reference code's analytic profiles (ClimateGlobalChange/DCMIP2016 interface/supercell_test.f90:
// theta, relative humidity, u at several heights, the bubble) written out again here, and the
// moist background's hydrostatic residual; through the `cloudburst` program, a short run at
// 8 km x 8 km x 1 km bitwise identical on 1, 2 and 4 ranks and across restarts, and bad input
// (exit 2 naming the key). The 2-D squall line on the same sounding: its shear, vapour cap and
// line thermal, and a short run bitwise identical on 1, 2 and 4 ranks and across restarts.
#include "bad_input.hpp"
#include "device_eval.hpp"
#include "grid_runs.hpp"
#include "io/case_file.hpp"
#include "solvers/weather/moist_background.hpp"
#include "solvers/weather/params.hpp"

#include <catch2/catch_test_macros.hpp>

#include <cmath>
#include <filesystem>
#include <string>

using namespace cb;

namespace {

weather::Params params_of(const std::string& text) {
  io::CaseFile file = io::CaseFile::parse(text, "supercell.toml");
  return weather::read_params(file);
}

// The case at 8 km x 8 km x 1 km (21 x 21 x 20 cells) with the diffusion of
// cases/weather/supercell_3d.toml.
std::string supercell_case(const std::string& stop) {
  return "[run]\nsolver = \"weather\"\ncase = \"supercell\"\n" + stop +
         "\n[grid]\ncells = [21, 21, 20]\n[diagnostics]\nevery_steps = 5\n"
         "[weather]\nmoisture = true\ndiffusion = \"constant\"\ndiffusion_k = 500.0\n";
}

// The reference's profiles (supercell_test.f90: equator_theta, equator_relative_humidity,
// zonal_velocity, saturation_mixing_ratio) with the model's g = 9.8 and cp = 1004.
double theta_ref(double z) {
  return z <= 12000.0 ? 300.0 + 43.0 * std::pow(z / 12000.0, 1.25)
                      : 343.0 * std::exp(9.8 / 1004.0 / 213.0 * (z - 12000.0));
}
double humidity_ref(double z) {
  return z <= 12000.0 ? 1.0 - 0.75 * std::pow(z / 12000.0, 1.25) : 0.25;
}
double u_ref(double z) {
  if (z <= 4000.0) return 30.0 * z / 5000.0 - 15.0;
  if (std::abs(z - 5000.0) <= 1000.0)
    return (-4.0 / 5.0 + 3.0 * z / 5000.0 - 5.0 / 4.0 * z * z / (5000.0 * 5000.0)) * 30.0 - 15.0;
  return 15.0;
}
double qvs_ref(double exner, double theta) {
  const double p = 1.0e5 * std::pow(exner, 1004.0 / 287.0), t = theta * exner;
  return 380.0 / p * std::exp(17.27 * (t - 273.0) / (t - 36.0));
}

// The initial state at one point, evaluated on the device (a free function: nvcc refuses
// extended lambdas inside other lambdas and function-local types in them).
struct Sample {
  double rho, theta, qv, qc, exner, u, v, w, t, r;
};

Sample sample_at(const weather::CaseSetup& c, const weather::ExnerTable& table, double x, double y,
                 double z) {
  return test::on_device(KOKKOS_LAMBDA() {
    const weather::MoistPoint b = weather::moist_background(c, table, z);
    const weather::PointState s = weather::perturb_case(c, x, y, z, b.rho, b.theta);
    return Sample{b.rho, b.theta, b.qv, b.qc, weather::table_exner(table, z),
                  s.u,   s.v,     s.w,  s.t,  s.r};
  });
}

}  // namespace

TEST_CASE("supercell: the initial state follows the DCMIP2016 profiles, in hydrostatic balance",
          "[weather][supercell]") {
  using namespace kernels::weather;
  const weather::CaseSetup c = weather::case_setup(
      params_of("[run]\nsolver = \"weather\"\ncase = \"supercell\"\nsteps = 1\n[grid]\n"
                "cells = [42, 42, 40]\n[weather]\nmoisture = true\n"));
  CHECK(c.length[0] == 168000.0);
  CHECK(c.length[1] == 168000.0);
  CHECK(c.length[2] == 20000.0);
  const weather::ExnerTable table = weather::make_exner_table(c, -2000.0, 22000.0, 500.0 / 16);
  const auto at = [&](double x, double y, double z) { return sample_at(c, table, x, y, z); };
  const auto pressure_at = [&](double z) {
    const Sample m = at(0.0, 0.0, z);
    return pressure(m.rho * m.theta * vapour_factor(m.qv));
  };
  for (const double z : {0.0, 500.0, 2345.6, 4000.0, 4500.0, 5000.0, 5700.0, 7777.7, 11000.0,
                         12000.0, 13000.0, 16543.2, 19900.0}) {
    INFO("z " << z);
    const Sample s = at(0.0, 0.0, z);  // a corner: far from the bubble
    CHECK(std::abs(s.theta - theta_ref(z)) < 1e-12 * s.theta);
    CHECK(std::abs(s.qv / qvs_ref(s.exner, s.theta) - humidity_ref(z)) < 1e-12);
    CHECK(s.qc == 0.0);
    CHECK(std::abs(s.u - u_ref(z)) < 1e-12);
    CHECK(s.v == 0.0);
    CHECK(s.w == 0.0);
    CHECK(s.t == 0.0);
    CHECK(s.r == 0.0);
    if (z < 100.0 || z == 12000.0) continue;  // the profiles' kinks: no centred difference
    // dp/dz = -rho_d (1 + qv) g by centred differences over 4 m (truncation ~ 1e-8).
    const double dp = (pressure_at(z + 2.0) - pressure_at(z - 2.0)) / 4.0;
    CHECK(std::abs(dp / (-s.rho * (1 + s.qv) * grav) - 1) < 1e-7);
  }
  // The near-surface vapour: saturated at the ground (about 16 g/kg at 300 K and 1000 hPa).
  const Sample ground = at(0.0, 0.0, 0.0);
  CHECK(std::abs(ground.qv / qvs_ref(1.0, 300.0) - 1) < 1e-14);
  // The bubble: 3 K at (84 km, 84 km, 1.5 km), 3 cos^2(pi / 4) K half-way out along x, y or z,
  // zero outside; at constant density, with the wind of its height.
  CHECK(std::abs(at(84000.0, 84000.0, 1500.0).t - 3.0) < 1e-12);
  const double half = 3.0 * 0.5;
  CHECK(std::abs(at(89000.0, 84000.0, 1500.0).t - half) < 1e-12);
  CHECK(std::abs(at(84000.0, 79000.0, 1500.0).t - half) < 1e-12);
  CHECK(std::abs(at(84000.0, 84000.0, 2250.0).t - half) < 1e-12);
  CHECK(at(94500.0, 84000.0, 1500.0).t == 0.0);
  CHECK(at(84000.0, 84000.0, 3100.0).t == 0.0);
  CHECK(at(84000.0, 84000.0, 1500.0).r == 0.0);
  CHECK(std::abs(at(84000.0, 84000.0, 1500.0).u - u_ref(1500.0)) < 1e-12);
}

TEST_CASE("supercell: bitwise identical on 1, 2 and 4 ranks and across restarts",
          "[weather][supercell][mpi][restart]") {
  using namespace cb::test;
  const std::string dir = make_temp_dir("cb_weather_supercell_");
  check_decomposition_invariance(dir, "supercell", supercell_case("steps = 12"),
                                 {"[2,1,1]", "[2,2,1]", "[4,1,1]", "[1,4,1]"});
  check_restart(dir, "supercell", supercell_case("steps = 14"), 7, {{2, 2}, {1, 4}, {4, 1}});
  std::filesystem::remove_all(dir);
}

TEST_CASE("bad supercell input exits with code 2 naming the key",
          "[weather][supercell][input][cli]") {
  using namespace cb::test;
  const std::string dir = make_temp_dir("cb_weather_supercell_input_");
  check_bad_overrides(
      dir, supercell_case("steps = 2"),
      {BadOverride{"dry", "--set weather.moisture=false", {"moisture", "case supercell"}},
       BadOverride{
           "passive water", "--set weather.microphysics=\"none\"", {"moisture", "water_dynamics"}},
       BadOverride{"humidity key",
                   "--set weather.relative_humidity=0.5",
                   {"relative_humidity", "own humidity profile"}},
       BadOverride{"bubble key", "--set weather.bubble_cloud=0.001", {"bubble_cloud"}}});
  std::filesystem::remove_all(dir);
}

namespace {

// The squall line at 10 km x 1 km (40 x 20 cells, 2-D) with the case file's diffusion.
std::string squall_case(const std::string& stop) {
  return "[run]\nsolver = \"weather\"\ncase = \"squall_line\"\n" + stop +
         "\n[grid]\ncells = [40, 1, 20]\n[diagnostics]\nevery_steps = 5\n"
         "[weather]\nmoisture = true\ndiffusion = \"constant\"\ndiffusion_k = 500.0\n";
}

}  // namespace

TEST_CASE(
    "squall line: Weisman-Klemp sounding with the 14 g/kg cap, low-level shear, a line "
    "thermal",
    "[weather][supercell]") {
  using namespace kernels::weather;
  const weather::CaseSetup c = weather::case_setup(
      params_of("[run]\nsolver = \"weather\"\ncase = \"squall_line\"\nsteps = 1\n[grid]\n"
                "cells = [40, 8, 20]\n[weather]\nmoisture = true\n"));
  CHECK(c.length[0] == 400000.0);
  const weather::ExnerTable table = weather::make_exner_table(c, -2000.0, 22000.0, 500.0 / 16);
  const auto at = [&](double x, double y, double z) {
    return test::on_device(KOKKOS_LAMBDA() {
      const weather::MoistPoint b = weather::moist_background(c, table, z);
      const weather::PointState s = weather::perturb_case(c, x, y, z, b.rho, b.theta);
      return Kokkos::Array<double, 6>{b.theta, b.qv, weather::table_exner(table, z),
                                      s.u,     s.t,  b.rho};
    });
  };
  // u = 12 min(z / 2.5 km, 1) - 6 m/s; theta as the supercell's; q_v = min(RH q_vs, 14 g/kg).
  for (const double z : {0.0, 1000.0, 2500.0, 4000.0, 9000.0}) {
    INFO("z " << z);
    const auto s = at(0.0, 0.0, z);
    CHECK(std::abs(s[3] - (12.0 * std::min(z / 2500.0, 1.0) - 6.0)) < 1e-12);
    CHECK(std::abs(s[0] - theta_ref(z)) < 1e-12 * s[0]);
    const double qv = humidity_ref(z) * qvs_ref(s[2], s[0]);
    CHECK(std::abs(s[1] - std::min(qv, 0.014)) < 1e-12 * qv);
  }
  CHECK(at(0.0, 0.0, 0.0)[1] == 0.014);          // capped: saturation there is ~16 g/kg
  CHECK(at(0.0, 0.0, 4000.0)[1] < 0.014 * 0.8);  // uncapped aloft
  // Hydrostatic below and above the cap's kink: dp/dz = -rho_d (1 + qv) g (4 m differences).
  for (const double z : {300.0, 6000.0}) {
    auto p = [&](double zz) {
      const auto m = at(0.0, 0.0, zz);
      return pressure(m[5] * m[0] * vapour_factor(m[1]));
    };
    const auto m = at(0.0, 0.0, z);
    CHECK(std::abs((p(z + 2.0) - p(z - 2.0)) / 4.0 / (-m[5] * (1 + m[1]) * grav) - 1) < 1e-7);
  }
  // The thermal: 3 K at (200 km, 1.5 km) whatever y (a line in 3-D), half of it 5 km out.
  CHECK(std::abs(at(200000.0, 0.0, 1500.0)[4] - 3.0) < 1e-12);
  CHECK(at(200000.0, 123456.0, 1500.0)[4] == at(200000.0, 0.0, 1500.0)[4]);
  CHECK(std::abs(at(205000.0, 7000.0, 1500.0)[4] - 1.5) < 1e-12);
  CHECK(at(211000.0, 0.0, 1500.0)[4] == 0.0);
}

TEST_CASE("squall line: bitwise identical on 1, 2 and 4 ranks and across restarts",
          "[weather][supercell][mpi][restart]") {
  using namespace cb::test;
  const std::string dir = make_temp_dir("cb_weather_squall_");
  check_decomposition_invariance(dir, "squall", squall_case("steps = 12"), {"[2,1,1]", "[4,1,1]"});
  check_restart(dir, "squall", squall_case("steps = 14"), 7, {{2, 2}, {1, 4}});
  std::filesystem::remove_all(dir);
}
