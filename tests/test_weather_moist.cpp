// Moist weather runs (docs/solvers/weather.md §9-10) through the solver's C++ API on one rank:
// the water tracers are conserved to round-off and never negative (Skamarock's renormalisation),
// and, while they do not act on the dynamics, leave the dry fields bit for bit as they were;
// with water dynamics, the moist hydrostatic background is in balance and a resting moist
// atmosphere stays at rest to round-off and the water changes the flow;
// through the `cloudburst` program, bad moisture input exits 2 naming the key. Decomposition
// invariance and exact restart of moist runs are rows of tests/test_grid_solvers.cpp.
#include "bad_input.hpp"
#include "core/decomposition.hpp"
#include "core/driver.hpp"
#include "device_eval.hpp"
#include "io/case_file.hpp"
#include "precision.hpp"
#include "recording_output.hpp"
#include "solvers/weather/solver.hpp"

#include <catch2/catch_test_macros.hpp>

#include <cmath>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

using namespace cb;
using cb::test::RecordingOutput;
using cb::test::round_off;

namespace {

struct MoistRun {
  std::vector<std::map<std::string, double>> rows;
  std::map<std::string, std::vector<double>> fields;  // checkpoint fields, owned cells
};

weather::Params params(const std::string& text) {
  io::CaseFile file = io::CaseFile::parse(text, "test_weather_moist.toml");
  return weather::read_params(file);
}

MoistRun run(const weather::Params& p, long steps, std::optional<double> fixed_dt = {}) {
  Decomposition decomposition(MPI_COMM_WORLD, p.geometry.cells, p.geometry.periodic);
  weather::WeatherSolver solver(p, decomposition);
  RecordingOutput output;
  RunControl control;
  control.steps = steps;
  control.fixed_dt = fixed_dt;
  control.diagnostics_every = 10;
  control.checkpoint_at_end = false;
  control.progress_seconds = 1e9;
  Log log(1);
  Driver driver(solver, output, control, decomposition.comm(), log);
  RunState state;
  REQUIRE(driver.run(state) == 0);
  MoistRun r;
  r.rows = output.rows;
  const Int3 g = ghost_widths(p.geometry.cells, weather::halo_width);
  const Int3& n = decomposition.local_cells();
  for (const FieldComponent& f : solver.checkpoint_fields()) {
    const auto host = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), f.view);
    for (int k = 0; k < n[2]; ++k)
      for (int j = 0; j < n[1]; ++j)
        for (int i = 0; i < n[0]; ++i)
          r.fields[f.name].push_back(host(f.component, k + g[2], j + g[1], i + g[0]));
  }
  return r;
}

// microphysics "" is a dry run.
std::string moist_case(const std::string& name, const std::string& cells,
                       const std::string& microphysics) {
  std::string text = "[run]\nsolver = \"weather\"\ncase = \"" + name +
                     "\"\nsteps = 1\n[grid]\ncells = " + cells + "\n";
  // Vapour at 50 % (90 % in the bubble) and a cloud of 2 g/kg with a sharp edge on the
  // bubble: the fourth-order fluxes would undershoot below zero there without the limiter.
  if (microphysics == "none")
    text +=
        "[weather]\nmoisture = true\nmicrophysics = \"none\"\nrelative_humidity = 0.5\n"
        "bubble_relative_humidity = 0.9\nbubble_cloud = 0.002\n";
  // A saturated bubble holding 4 g/kg of cloud, touching the ground: autoconversion makes rain
  // at once and some of it falls out through the ground within the run.
  if (microphysics == "kessler")
    text +=
        "[weather]\nmoisture = true\nrelative_humidity = 0.8\n"
        "bubble_relative_humidity = 1.0\nbubble_cloud = 0.004\n";
  return text;
}

}  // namespace

TEST_CASE("moist tracers: water conserved to round-off, no negative mixing ratio",
          "[weather][moist]") {
  struct MoistCase {
    const char* name;
    const char* cells;
    long steps;
  };
  // Periodic sides (thermal), walls on every side (straka), 3-D.
  for (const MoistCase& c :
       {MoistCase{"thermal", "[100, 1, 50]", 150}, MoistCase{"straka", "[128, 1, 16]", 150},
        MoistCase{"thermal", "[24, 24, 12]", 30}}) {
    const MoistRun r = run(params(moist_case(c.name, c.cells, "none")), c.steps);
    INFO(c.name << " " << c.cells);
    for (const auto& row : r.rows) {
      INFO("d_water " << row.at("d_water") << " qc_min " << row.at("qc_min") << " qr_min "
                      << row.at("qr_min"));
      // Measured up to 2.7e-15 (1.8e-15 with Kessler, below); the bound is round-off.
      CHECK(std::abs(row.at("d_water")) < round_off(1e-14));
      CHECK(row.at("qv_min") >= 0);
      CHECK(row.at("qc_min") >= 0);
      CHECK(row.at("qr_min") >= 0);
    }
    // The cloud is still there. The renormalisation is positive-definite, not monotone: the
    // fourth-order fluxes overshoot the 2 g/kg edge (measured 6 % to 10 %).
    CHECK(r.rows.back().at("qc_max") > 0.001);
  }
}

TEST_CASE("passive moist tracers leave the dry fields bit for bit", "[weather][moist]") {
  for (const char* cells : {"[64, 1, 32]", "[16, 16, 12]"}) {
    const MoistRun dry = run(params(moist_case("thermal", cells, "")), 20);
    const MoistRun moist = run(params(moist_case("thermal", cells, "none")), 20);
    for (const auto& [name, values] : dry.fields) {
      INFO(cells << " " << name);
      CHECK(moist.fields.at(name) == values);
    }
    CHECK(moist.fields.count("rho_qv") == 1);
    CHECK(dry.fields.count("rho_qv") == 0);
  }
}

TEST_CASE("Kessler runs: water in the air plus fallen rain conserved, rain reaches the ground",
          "[weather][moist]") {
  for (const char* cells : {"[100, 1, 50]", "[24, 24, 12]"}) {
    const MoistRun r = run(params(moist_case("thermal", cells, "kessler")), 150);
    INFO(cells);
    for (const auto& row : r.rows) {
      INFO("d_water " << row.at("d_water") << " rain_fallen " << row.at("rain_fallen"));
      CHECK(std::abs(row.at("d_water")) < round_off(1e-14));
      CHECK(row.at("qv_min") >= 0);
      CHECK(row.at("qc_min") >= 0);
      CHECK(row.at("qr_min") >= 0);
    }
    const auto& last = r.rows.back();
    CHECK(last.at("qr_max") > 1e-4);
    CHECK(last.at("rain_fallen") > 0);
    CHECK(last.at("precip_rate_max") > 0);
  }
}

TEST_CASE("bad moisture input exits with code 2 naming the key", "[weather][moist][input][cli]") {
  using namespace cb::test;
  const std::string dir = make_temp_dir("cb_weather_moist_input_");
  const std::string valid =
      "[run]\nsolver = \"weather\"\ncase = \"thermal\"\nsteps = 2\n"
      "[grid]\ncells = [20, 1, 10]\n[weather]\nmoisture = true\n";
  check_bad_overrides(
      dir, valid,
      {BadOverride{"humidity on a dry run",
                   "--set weather.moisture=false --set weather.relative_humidity=0.5",
                   {"relative_humidity", "moisture = true"}},
       BadOverride{"humidity out of range",
                   "--set weather.relative_humidity=2.0",
                   {"relative_humidity", "[0, 1.5]"}},
       BadOverride{"negative cloud", "--set weather.bubble_cloud=-0.001", {"bubble_cloud"}},
       BadOverride{"microphysics on a dry run",
                   "--set weather.moisture=false --set weather.microphysics=\"kessler\"",
                   {"microphysics", "moisture = true"}},
       BadOverride{"water dynamics on a dry run",
                   "--set weather.moisture=false --set weather.water_dynamics=true",
                   {"water_dynamics", "moisture = true"}},
       BadOverride{"bryan_fritsch with passive water",
                   "--set run.case=\"bryan_fritsch\" --set weather.microphysics=\"none\"",
                   {"bryan_fritsch", "water_dynamics"}},
       BadOverride{"unknown scheme", "--set weather.microphysics=\"wsm6\"", {"microphysics"}},
       BadOverride{"inertia of passive water",
                   "--set weather.microphysics=\"none\" --set weather.water_inertia=true",
                   {"water_inertia", "water_dynamics"}},
       BadOverride{"no bubble to remove",
                   "--set run.case=\"rest\" --set weather.bubble=false",
                   {"bubble", "rest"}},
       BadOverride{"columns split in z", "--set parallel.ranks=[1,1,2]", {"ranks", "along z"}}});
  std::filesystem::remove_all(dir);
}

namespace {

// Water dynamics (docs/solvers/weather.md §10) on the named case: vapour at `humidity` outside
// the case's perturbation, 95 % and 2 g/kg of cloud inside it, no microphysics unless asked.
std::string water_dynamics_case(const std::string& name, const std::string& cells, double humidity,
                                bool kessler) {
  return "[run]\nsolver = \"weather\"\ncase = \"" + name +
         "\"\nsteps = 1\n[grid]\ncells = " + cells +
         "\n[weather]\nmoisture = true\nwater_dynamics = true\nmicrophysics = \"" +
         (kessler ? "kessler" : "none") + "\"\nrelative_humidity = " + std::to_string(humidity) +
         "\nbubble_relative_humidity = 0.95\nbubble_cloud = 0.002\n";
}

double max_w(const MoistRun& r) {
  double w = 0;
  for (const auto& row : r.rows) w = std::max(w, row.at("w_max"));
  return w;
}

}  // namespace

TEST_CASE("the moist hydrostatic background: dry without vapour, in balance with it",
          "[weather][moist]") {
  using namespace kernels::weather;
  weather::CaseSetup c = weather::case_setup(params(moist_case("rest", "[20, 1, 10]", "none")));
  const double dz = 10000.0 / 10 / 16;
  for (const double humidity : {0.0, 0.9}) {
    c.relative_humidity = humidity;
    const weather::ExnerTable t = weather::make_exner_table(c, -4000.0, 14000.0, dz);
    // Points between the table's nodes, on the host (the table lives on the device).
    const auto table = t;
    for (const double z : {-1234.5, 0.0, 777.7, 5000.3, 9999.9, 12345.6}) {
      INFO("humidity " << humidity << " z " << z);
      const auto b =
          test::on_device(KOKKOS_LAMBDA() { return weather::moist_background(c, table, z); });
      if (humidity == 0.0) {
        // pi = 1 - g z / (cp theta0) is linear, which RK4 and the Hermite cubic reproduce.
        double rho = 0, theta = 0;
        background_const_theta(z, rho, theta);
        CHECK(b.qv == 0.0);
        CHECK(std::abs(b.rho / rho - 1) < 1e-13);
        continue;
      }
      // dp/dz = -rho_d (1 + qv) g by centred differences over 4 m: truncation (2 m / H)^2 / 6
      // ~ 1e-8 relative for the scale height H ~ 8.5 km (over 100 m it was the 6e-6 measured).
      auto p_at = [&](double zz) {
        const auto m =
            test::on_device(KOKKOS_LAMBDA() { return weather::moist_background(c, table, zz); });
        return pressure(m.rho * m.theta * vapour_factor(m.qv));
      };
      const double dp = (p_at(z + 2.0) - p_at(z - 2.0)) / 4.0;
      CHECK(b.qv > 0.0);
      CHECK(std::abs(dp / (-b.rho * (1 + b.qv) * grav) - 1) < 1e-7);
    }
  }
}

TEST_CASE("the Bryan-Fritsch background: saturated, q_t = 0.02, neutral for the model, in balance",
          "[weather][moist]") {
  // theta_e = 320 K at the ground; above it theta follows the model's saturated adiabat: the
  // saturation adjustment's heating dtheta = -L / (cp pi) dqv (kernels/weather/kessler.hpp)
  // holds along the column, checked by centred differences over 4 m.
  using namespace kernels::weather;
  weather::CaseSetup c = weather::case_setup(params(moist_case("rest", "[20, 1, 10]", "none")));
  c.kind = weather::Case::bryan_fritsch;
  const weather::ExnerTable table = weather::make_exner_table(c, -4000.0, 14000.0, 62.5);
  auto at = [&](double z) {
    return test::on_device(KOKKOS_LAMBDA() {
      const weather::MoistPoint b = weather::moist_background(c, table, z);
      const double exner = weather::table_exner(table, z);
      // Saturation evaluated beside the state: a device's exp may differ from the host's in
      // the last bit, and the background is saturated by the device's own arithmetic.
      return Kokkos::Array<double, 6>{b.rho, b.theta, b.qv,
                                      b.qc,  exner,   weather::saturation_vapour(exner, b.theta)};
    });
  };
  CHECK(std::abs(weather::bryan_fritsch::equivalent_theta(at(0.0)[4], at(0.0)[1]) - 320.0) < 1e-9);
  for (const double z : {0.0, 777.7, 5000.3, 9999.9}) {
    INFO("z " << z);
    const auto b = at(z), up = at(z + 2.0), down = at(z - 2.0);
    CHECK(b[2] == b[5]);
    CHECK(std::abs(b[2] + b[3] - 0.02) < 1e-15);
    const double heating = -weather::bryan_fritsch::latent_heat / (cp * b[4]) * (up[2] - down[2]);
    CHECK(std::abs((up[1] - down[1]) / heating - 1) < 1e-6);
    auto p_of = [](const Kokkos::Array<double, 6>& m) {
      return pressure(m[0] * m[1] * vapour_factor(m[2]));
    };
    const double dp = (p_of(up) - p_of(down)) / 4.0;
    CHECK(std::abs(dp / (-b[0] * 1.02 * grav) - 1) < 1e-7);
  }
}

TEST_CASE("water dynamics: a resting moist atmosphere stays at rest to round-off",
          "[weather][moist]") {
  // 200 steps of 2-D and 3-D rest, vapour at 90 %, with and without Kessler (subsaturated: the
  // microphysics does nothing). The dry rest run's max |w| is the round-off scale. Measured:
  // exactly 0, dry and moist (rho (rho theta / rho) gives rho theta back, so p' = 0).
  struct RestCase {
    const char* cells;
    long steps;
  };
  for (const RestCase& c : {RestCase{"[40, 1, 40]", 200}, RestCase{"[12, 12, 12]", 50}}) {
    const double dry = max_w(run(params(moist_case("rest", c.cells, "")), c.steps));
    for (const bool kessler : {false, true}) {
      const MoistRun moist =
          run(params(water_dynamics_case("rest", c.cells, 0.9, kessler)), c.steps);
      INFO(c.cells << " kessler " << kessler << " dry max|w| " << dry << " moist max|w| "
                   << max_w(moist));
      CHECK(max_w(moist) < round_off(1e-10));
      CHECK(max_w(moist) < 100 * dry + round_off(1e-13));
    }
  }
}

TEST_CASE("the Bryan-Fritsch background without its bubble stays at rest for 1000 s",
          "[weather][moist]") {
  // The balance test of the moist neutral state: the case file's setup (saturation
  // adjustment, water dynamics) at 400 m, 750 steps of 1.33 s. Measured max |w| at 1000 s:
  // 2.4e-13 m/s at 400 m and 4.8e-13 m/s at 200 m (`cloudburst run
  // cases/weather/bryan_fritsch_2d.toml --set weather.bubble=false`); with the bubble the same
  // grid has w ~ 1 m/s within 40 steps. The same with exact thermodynamics (§16): 1.2e-12 m/s
  // at 1000 s, 400 m.
  for (const std::string thermodynamics : {"approximate", "exact"}) {
    const std::string text =
        "[run]\nsolver = \"weather\"\ncase = \"bryan_fritsch\"\nsteps = 1\n[grid]\n"
        "cells = [50, 1, 25]\n[weather]\nmoisture = true\nmicrophysics = \"saturation\"\n"
        "thermodynamics = \"" +
        thermodynamics + "\"\n";
    const MoistRun rest = run(params(text + "bubble = false\n"), 750);
    INFO(thermodynamics << ": max |w| " << max_w(rest));
    CHECK(max_w(rest) < round_off(1e-9));
    CHECK(max_w(run(params(text), 40)) > 0.5);
  }
}

TEST_CASE("water inertia: the bubble's first acceleration is its buoyancy over the total mass",
          "[weather][moist]") {
  // Bryan-Fritsch at 400 m (q_v + q_c = 0.02 everywhere), one step of 0.01 s from rest at
  // constant pressure: rho_d dw/dt = (rho_d / rho_t) (-(rho_t - rho_t_bar) g) with the
  // inertia, -(rho_t - rho_t_bar) g without, so max w is 1 / 1.02 times smaller. Measured:
  // 0.9803922 against 1 / 1.02 = 0.98039216 (0.9812 after one step of the case's 1.33 s,
  // where the pressure has begun to answer). The neutral background stays at rest with it.
  const std::string text =
      "[run]\nsolver = \"weather\"\ncase = \"bryan_fritsch\"\nsteps = 1\n[grid]\n"
      "cells = [50, 1, 25]\n[weather]\nmoisture = true\nmicrophysics = \"saturation\"\n";
  const double without = max_w(run(params(text), 1, 0.01));
  const double with = max_w(run(params(text + "water_inertia = true\n"), 1, 0.01));
  INFO("max w " << with << " with inertia, " << without << " without");
  CHECK(std::abs(with / without - 1.0 / 1.02) < round_off(1e-6));
  // 300 steps of 1.33 s: max |w| at round-off, as without the inertia.
  const MoistRun rest = run(params(text + "water_inertia = true\nbubble = false\n"), 300);
  INFO("at rest: max |w| " << max_w(rest));
  CHECK(max_w(rest) < round_off(1e-9));
}

TEST_CASE("water dynamics: the water changes the flow of a moist bubble", "[weather][moist]") {
  const std::string cells = "[64, 1, 32]";
  std::string passive = water_dynamics_case("thermal", cells, 0.5, false);
  passive.replace(passive.find("water_dynamics = true"), 21, "water_dynamics = false");
  const MoistRun on = run(params(water_dynamics_case("thermal", cells, 0.5, false)), 20);
  const MoistRun off = run(params(passive), 20);
  CHECK(on.fields.at("rho_w") != off.fields.at("rho_w"));
  // The measure of the rest test sees motion: the bubble rises (w_max ~ 1 m/s by 20 steps).
  CHECK(max_w(on) > 0.1);
}

TEST_CASE("Bryan-Fritsch: the moist bubble rises like its dry counterpart", "[weather][moist]") {
  // Their argument (section 4): with consistent equations the saturated bubble of theta_rho' =
  // 2 K evolves much like the dry one of theta' = 2 K. Measured max w at 1000 s, moist against
  // dry (cases/weather/bryan_fritsch_2d.toml and bryan_fritsch_dry_2d.toml): 12.02 against
  // 10.53 m/s at 400 m, 13.25 against 12.00 at 200 m, 13.34 against 12.52 at 100 m, 15.32
  // against 13.56 at 50 m: 7-14 % faster with the model's approximate thermodynamics; held here
  // at 200 m to 15 %. The previous version (constant theta_e background, bubble missing from
  // rho and rho theta) gave 20.9 against 12.5 at 100 m. With exact thermodynamics (§16) the
  // moist bubble is slower, closer to the dry one: 11.55, 12.90, 13.18 m/s at 400, 200, 100 m
  // (5-10 % faster than dry); held here at 200 m to 10 % and below the approximate run's.
  const std::string common =
      "[run]\nsolver = \"weather\"\ncase = \"bryan_fritsch\"\nsteps = 1\n"
      "[grid]\ncells = [100, 1, 50]\n";
  const MoistRun dry = run(params(common), 1500);
  const MoistRun moist =
      run(params(common + "[weather]\nmoisture = true\nmicrophysics = \"saturation\"\n"), 1500);
  const auto& start = moist.rows.front();
  CHECK(start.at("theta_pert_max") > 1.0);  // the bubble is in rho theta, not only in the water
  CHECK(std::abs(start.at("theta_e_pert_min")) < round_off(1e-10));  // background: zero
  const double w_dry = dry.rows.back().at("w_max"), w_moist = moist.rows.back().at("w_max");
  INFO("t " << moist.rows.back().at("time") << " max w dry " << w_dry << " moist " << w_moist);
  CHECK(std::abs(moist.rows.back().at("time") - 1000.0) < 1e-6);
  CHECK(w_dry > 10.0);
  CHECK(std::abs(w_moist / w_dry - 1) < 0.15);
  const MoistRun exact =
      run(params(common + "[weather]\nmoisture = true\nmicrophysics = \"saturation\"\n"
                          "thermodynamics = \"exact\"\n"),
          1500);
  const double w_exact = exact.rows.back().at("w_max");
  INFO("max w exact " << w_exact);
  CHECK(std::abs(exact.rows.front().at("theta_e_pert_min")) < round_off(1e-10));
  CHECK(std::abs(w_exact / w_dry - 1) < 0.10);
  CHECK(w_exact < w_moist);
}
