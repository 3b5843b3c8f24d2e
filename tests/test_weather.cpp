// Weather solver (docs/solvers/weather.md) through its C++ API, on one rank: miniWeather's own
// test value of d_te, mass conservation in every case, mirror symmetry of the
// 2-D bubbles, x <-> y symmetry of the 3-D thermal to within the splitting
// error; and, through the `cloudburst` program, bad [weather] input (exit 2).
#include "bad_input.hpp"
#include "cli_runner.hpp"
#include "core/decomposition.hpp"
#include "core/driver.hpp"
#include "io/case_file.hpp"
#include "precision.hpp"
#include "recording_output.hpp"
#include "solvers/weather/solver.hpp"

#include <catch2/catch_test_macros.hpp>
#include <catch2/matchers/catch_matchers_string.hpp>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <map>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

using namespace cb;
using Catch::Matchers::ContainsSubstring;
using cb::test::real_epsilon;
using cb::test::RecordingOutput;
using cb::test::round_off;

namespace {

// The end of a run: diagnostics rows (start, every N steps, end) and the
// checkpoint fields on the owned cells, index (k * ny + j) * nx + i.
struct WeatherRun {
  Int3 cells{1, 1, 1};
  std::vector<std::map<std::string, double>> rows;
  std::map<std::string, std::vector<double>> fields;
  // sum rho' dV at the start and the end, accumulated in long double: the
  // mass change without the round-off of adding rho' to rho_bar cell by cell.
  double perturbation_mass0 = 0, perturbation_mass = 0;
  double at(const std::string& name, int i, int j, int k) const {
    return fields.at(name)[(size_t(k) * cells[1] + j) * cells[0] + i];
  }
};

std::string cells_text(const Int3& c) {
  return "[" + std::to_string(c[0]) + ", " + std::to_string(c[1]) + ", " + std::to_string(c[2]) +
         "]";
}

// Parameters as the case file `[run] case = NAME`, `[grid] cells = ...` plus
// `extra` (TOML) gives them, so the per-case defaults (domain, walls,
// viscosity) come from the solver's own parser.
weather::Params case_params(const std::string& name, const Int3& cells,
                            const std::string& extra = "") {
  io::CaseFile file =
      io::CaseFile::parse("[run]\nsolver = \"weather\"\ncase = \"" + name +
                              "\"\n[grid]\ncells = " + cells_text(cells) + "\n" + extra,
                          "test_weather.toml");
  return weather::read_params(file);
}

// sum rho' dV of the solver's current state, in long double.
double perturbation_mass(weather::WeatherSolver& solver, const weather::Params& p) {
  double volume = p.geometry.spacing(0) * p.geometry.spacing(2);
  if (p.three_d()) volume *= p.geometry.spacing(1);
  const Int3 g = ghost_widths(p.geometry.cells, weather::halo_width);
  long double sum = 0;
  for (const FieldComponent& f : solver.checkpoint_fields()) {
    if (f.name != "rho_pert") continue;
    const auto host = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), f.view);
    for (int k = g[2]; k < g[2] + p.geometry.cells[2]; ++k) {
      for (int j = g[1]; j < g[1] + p.geometry.cells[1]; ++j) {
        for (int i = g[0]; i < g[0] + p.geometry.cells[0]; ++i) sum += host(f.component, k, j, i);
      }
    }
  }
  return double(sum * volume);
}

// Runs to `end_time` (or for `steps` steps) through the driver.
WeatherRun run(const weather::Params& p, std::optional<double> end_time, std::optional<long> steps,
               long diagnostics_every = 0) {
  Decomposition decomposition(MPI_COMM_WORLD, p.geometry.cells, p.geometry.periodic);
  weather::WeatherSolver solver(p, decomposition);
  RecordingOutput output;
  RunControl control;
  control.end_time = end_time;
  control.steps = steps;
  control.diagnostics_every = diagnostics_every;
  control.checkpoint_at_end = false;
  control.progress_seconds = 1e9;
  Log log(1);  // silent
  Driver driver(solver, output, control, decomposition.comm(), log);
  WeatherRun result;
  result.perturbation_mass0 = perturbation_mass(solver, p);
  RunState state;
  REQUIRE(driver.run(state) == 0);
  if (end_time) REQUIRE(state.time == *end_time);
  result.perturbation_mass = perturbation_mass(solver, p);

  result.cells = p.geometry.cells;
  result.rows = output.rows;
  const Int3 g = ghost_widths(p.geometry.cells, weather::halo_width);
  const Int3& n = decomposition.local_cells();
  for (const FieldComponent& f : solver.checkpoint_fields()) {
    const auto host = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), f.view);
    std::vector<double>& values = result.fields[f.name];
    for (int k = 0; k < n[2]; ++k) {
      for (int j = 0; j < n[1]; ++j) {
        for (int i = 0; i < n[0]; ++i) {
          values.push_back(host(f.component, k + g[2], j + g[1], i + g[0]));
        }
      }
    }
  }
  return result;
}

// Required mass bound (docs/solvers/weather.md, "Validation"): |d_mass| below
// 1e-13 x (cells / 5000), a round-off bound that grows with the number of
// cells; never below 1e-13 (the grids here have at least 5000 cells, where
// both readings agree).
double mass_bound(long long cells) {
  return 1e-13 * std::max(1.0, double(cells) / 5000.0);
}

// max |f(i) - sign f(mirror(i))| / max |f| over all cells.
template <class Mirror>
double relative_asymmetry(const WeatherRun& r, const std::string& name, const std::string& partner,
                          double sign, Mirror mirror) {
  double diff = 0, scale = 0;
  const Int3& c = r.cells;
  for (int k = 0; k < c[2]; ++k) {
    for (int j = 0; j < c[1]; ++j) {
      for (int i = 0; i < c[0]; ++i) {
        const auto [mi, mj] = mirror(i, j);
        diff = std::max(diff, std::abs(r.at(name, i, j, k) - sign * r.at(partner, mi, mj, k)));
        scale = std::max(scale, std::abs(r.at(name, i, j, k)));
      }
    }
  }
  return scale > 0 ? diff / scale : diff;
}

// Mirror symmetry about the vertical mid-plane x = (lo + hi) / 2 of a 2-D run:
// rho', (rho theta)', rho w even, rho u odd. Returns the worst field.
double mirror_asymmetry(const WeatherRun& r, std::string& report) {
  const int nx = r.cells[0];
  const auto mirror = [nx](int i, int j) { return std::pair{nx - 1 - i, j}; };
  double worst = 0;
  std::ostringstream s;
  for (const auto& [name, sign] : {std::pair{"rho_pert", 1.0}, std::pair{"rho_theta_pert", 1.0},
                                   std::pair{"rho_w", 1.0}, std::pair{"rho_u", -1.0}}) {
    const double a = relative_asymmetry(r, name, name, sign, mirror);
    s << name << " " << a << "  ";
    worst = std::max(worst, a);
  }
  report = s.str();
  return worst;
}

// x <-> y symmetry of a 3-D run: f(i, j, k) against f(j, i, k), with rho u
// against rho v. Returns the worst field.
double swap_asymmetry(const WeatherRun& r, std::string& report) {
  const auto swap = [](int i, int j) { return std::pair{j, i}; };
  double worst = 0;
  std::ostringstream s;
  for (const auto& [name, partner] :
       {std::pair{"rho_pert", "rho_pert"}, std::pair{"rho_theta_pert", "rho_theta_pert"},
        std::pair{"rho_w", "rho_w"}, std::pair{"rho_u", "rho_v"}}) {
    const double a = relative_asymmetry(r, name, partner, 1.0, swap);
    s << name << " " << a << "  ";
    worst = std::max(worst, a);
  }
  report = s.str();
  return worst;
}

}  // namespace

TEST_CASE("2-D thermal at 100 x 50, 400 s reproduces miniWeather's d_te", "[weather][validation]") {
  // miniWeather's own test configuration and value: c/CMakeLists.txt TEST_DEFS
  // (NX=100, NZ=50, SIM_TIME=400, DATA_SPEC_THERMAL) and check_output.sh, which
  // expects d_te = -4.141519e-05 (negative, |d_te| < 4.5e-5) and
  // |d_mass| < 1e-13. Required here: 1e-6 relative agreement.
  const WeatherRun r = run(case_params("thermal", {100, 1, 50}), 400.0, std::nullopt);
  const double d_te = r.rows.back().at("d_te"), d_mass = r.rows.back().at("d_mass");
  INFO("d_te = " << d_te << ", d_mass = " << d_mass);
  // d_te = te / te0 - 1 carries the relative round-off of the totals: with
  // float fields that floor (eps = 1.2e-7) is above the 1e-6 agreement.
  CHECK(std::abs(d_te - -4.141519e-05) <= std::max(1e-6 * 4.141519e-05, real_epsilon));
  CHECK(d_te < 0);
  CHECK(std::abs(d_te) < 4.5e-5);
  CHECK(std::abs(d_mass) < round_off(1e-13));
}

TEST_CASE("mass is conserved to round-off in every closed case", "[weather][validation]") {
  // The required mass bound (mass_bound). Grids of at least 5000 cells with dx ~ dz; 150 steps
  // (2-D) and 30 steps (3-D) move every bubble and wave off its start.
  // d_mass (miniWeather's definition, sum (rho' + rho_bar) dV) carries the
  // round-off of adding rho' ~ 1e-3 to rho_bar ~ 1 in every cell and of the
  // running sum: measured 0.3e-14 to 3.2e-14 in 2-D, 0.97e-13 and 1.07e-13 in
  // 3-D (24 x 24 x 12, bound 1.38e-13; it settles there within 4 steps and
  // then stays). The change of sum rho' dV itself, summed in long double, is
  // the conservation of the scheme: measured below 3.2e-19 of the mass; the
  // bound 1e-16 allows the flux-difference round-off of ~1e3 stage updates.
  struct MassCase {
    const char* name;
    Int3 cells;
    long steps;
  };
  for (const MassCase& c :
       {MassCase{"thermal", {100, 1, 50}, 150}, MassCase{"collision", {100, 1, 50}, 150},
        MassCase{"gravity_waves", {100, 1, 50}, 150},
        MassCase{"density_current", {100, 1, 50}, 150},
        MassCase{"straka", {200, 1, 25}, 150},  // 256 m
        MassCase{"robert", {60, 1, 90}, 150},   // 16.7 m
        MassCase{"thermal", {24, 24, 12}, 30}, MassCase{"collision", {24, 24, 12}, 30}}) {
    const weather::Params p = case_params(c.name, c.cells);
    const WeatherRun r = run(p, std::nullopt, c.steps);
    const double d_mass = r.rows.back().at("d_mass");
    const double exact = (r.perturbation_mass - r.perturbation_mass0) / r.rows.front().at("mass");
    const long long cells = p.geometry.total_cells();
    INFO(c.name << " " << cells_text(c.cells) << ": d_mass = " << d_mass << ", bound "
                << mass_bound(cells) << "; sum of rho' change " << exact
                << "; d_te = " << r.rows.back().at("d_te"));
    CHECK(std::abs(d_mass) < round_off(mass_bound(cells)));
    CHECK(std::abs(exact) < round_off(1e-16));
    CHECK(std::isfinite(r.rows.back().at("d_te")));
  }
}

TEST_CASE("injection gains mass through its inflow boundary", "[weather][validation]") {
  // The jet (u = 50 m/s, theta = 298 K in |z - 3 zlen / 4| <= zlen / 16)
  // enters through the left x boundary and nothing balances it (miniWeather's
  // set_halo_values_x overwrites the left ghosts only): d_mass is no round-off
  // check here. The simplest defensible check: the mass grows, d_mass > 0 and
  // increasing. Its rate is bracketed by the jet's own mass flux J = sum over
  // the band of rho_bar 50 m/s dz: the fourth-order interpolation passes J / 2
  // through x = 0 net of its periodic image while the far side is at rest, and
  // the band cannot carry more than J at 50 m/s. Measured (100 x 50, 100 s):
  // 0.72-0.82 J over the three intervals.
  const weather::Params p = case_params("injection", {100, 1, 50});
  const WeatherRun r = run(p, std::nullopt, 150, 50);
  REQUIRE(r.rows.size() == 4);  // steps 0, 50, 100, 150
  const double dz = p.geometry.spacing(2), zlen = p.geometry.hi[2] - p.geometry.lo[2];
  double jet = 0;  // kg / s per metre in y
  for (int k = 0; k < p.geometry.cells[2]; ++k) {
    const double z = (k + 0.5) * dz;
    if (std::abs(z - 3 * zlen / 4) > zlen / 16) continue;
    double rho = 0, theta = 0;
    kernels::weather::background_const_theta(z, rho, theta);
    jet += rho * 50.0 * dz;
  }
  const double mass0 = r.rows[0].at("mass");
  CHECK(r.rows[0].at("d_mass") == 0.0);
  for (size_t n = 1; n < r.rows.size(); ++n) {
    const double gained = (r.rows[n].at("d_mass") - r.rows[n - 1].at("d_mass")) * mass0;
    const double interval = r.rows[n].at("time") - r.rows[n - 1].at("time");
    INFO("t = " << r.rows[n].at("time") << ": d_mass = " << r.rows[n].at("d_mass") << ", gained "
                << gained / (jet * interval) << " J over the interval");
    CHECK(r.rows[n].at("d_mass") > r.rows[n - 1].at("d_mass"));
    CHECK(gained >= 0.5 * jet * interval);
    CHECK(gained <= 1.0 * jet * interval);
  }
}

TEST_CASE("2-D thermal and robert stay mirror-symmetric for 100 s", "[weather][validation]") {
  // Required symmetry: both bubbles sit on the vertical mid-plane of the
  // domain (thermal x = 10 km periodic; robert x = 500 m between walls) and
  // the scheme is centred, so only round-off breaks the mirror symmetry:
  // 1e-10 relative for the first 100 s.
  for (const auto& [name, cells] :
       {std::pair{"thermal", Int3{100, 1, 50}}, std::pair{"robert", Int3{40, 1, 60}}}) {
    const WeatherRun r = run(case_params(name, cells), 100.0, std::nullopt);
    std::string report;
    const double asymmetry = mirror_asymmetry(r, report);
    INFO(name << " at 100 s: " << report);
    CHECK(asymmetry <= round_off(1e-10));
  }
}

TEST_CASE("3-D thermal is x <-> y symmetric to within the splitting error",
          "[weather][validation]") {
  // Symmetry, as required above. Mirroring x or y alone is a symmetry of every sweep,
  // so it holds to round-off. Swapping x and y is a symmetry of the equations
  // but not of one step (x is swept before y), so f(i, j, k) - f(j, i, k) is a
  // splitting error and must shrink with dt. At the default cfl 1.5 the
  // acoustic Courant number of each sweep is 1.5: the y sweep sees a pressure
  // the x sweep has already relaxed by a cell's worth of sound travel, so the
  // acoustic part of the momentum is split at O(1) (rho u vs rho v differ by
  // 87% of max |rho u| there); from cfl 0.75 down the error falls at about
  // second order. Measured (20 x 20 x 10, 60 s), worst over rho', (rho theta)',
  // rho w and rho u <-> rho v, relative to each field's maximum:
  //   cfl 1.5: 0.868 (rho u)   0.146 ((rho theta)')
  //   cfl 0.75: 0.101 (rho u)  1.29e-3 ((rho theta)')
  //   cfl 0.375: 0.0179 (rho u) 2.66e-5 ((rho theta)')
  // The bounds below keep a factor 2-4 of margin over these.
  constexpr int n = 20;
  // The x and y mirror asymmetries are round-off alone (measured 2e-12 with
  // double fields, 3e-4 with float): each run's own is the floor added to the
  // splitting-error bounds below.
  std::vector<double> worst, thermodynamic, noise;
  for (double cfl : {1.5, 0.75, 0.375}) {
    const WeatherRun r =
        run(case_params("thermal", {n, n, 10}, "[time]\ncfl = " + std::to_string(cfl) + "\n"), 60.0,
            std::nullopt);
    const auto mirror_x = [](int i, int j) { return std::pair{n - 1 - i, j}; };
    const auto mirror_y = [](int i, int j) { return std::pair{i, n - 1 - j}; };
    const auto swap_xy = [](int i, int j) { return std::pair{j, i}; };
    double mirrors = 0;
    for (const char* name : {"rho_pert", "rho_theta_pert", "rho_w", "rho_u", "rho_v"}) {
      const double x_sign = std::string(name) == "rho_u" ? -1.0 : 1.0;
      const double y_sign = std::string(name) == "rho_v" ? -1.0 : 1.0;
      mirrors = std::max({mirrors, relative_asymmetry(r, name, name, x_sign, mirror_x),
                          relative_asymmetry(r, name, name, y_sign, mirror_y)});
    }
    std::string report;
    worst.push_back(swap_asymmetry(r, report));
    double t = 0;
    for (const char* name : {"rho_pert", "rho_theta_pert", "rho_w"}) {
      t = std::max(t, relative_asymmetry(r, name, name, 1.0, swap_xy));
    }
    thermodynamic.push_back(t);
    WARN("3-D thermal " << n << " x " << n << " x 10, 60 s, cfl " << cfl
                        << ": max |f(i,j,k) - f(j,i,k)| / max |f|: " << report
                        << "; x and y mirrors: " << mirrors);
    CHECK(mirrors <= round_off(1e-10));
    noise.push_back(mirrors);
  }
  WARN("x <-> y asymmetry at cfl 1.5, 0.75, 0.375: "
       << worst[0] << ", " << worst[1] << ", " << worst[2] << "; ratios " << worst[1] / worst[0]
       << ", " << worst[2] / worst[1]);
  CHECK(worst[1] / worst[0] < 1.0);
  CHECK(worst[2] / worst[1] < 0.5);  // second order would give 0.25
  CHECK(thermodynamic[1] / thermodynamic[0] < 1.0);
  CHECK(thermodynamic[2] / thermodynamic[1] < 0.5);
  CHECK(worst[0] < 1.5 + noise[0]);
  CHECK(worst[1] < 0.25 + noise[1]);
  CHECK(worst[2] < 0.05 + noise[2]);
  CHECK(thermodynamic[0] < 0.3 + noise[0]);
  CHECK(thermodynamic[1] < 3e-3 + noise[1]);
  CHECK(thermodynamic[2] < 1e-4 + noise[2]);
}

TEST_CASE("bad [weather] input exits with code 2 and a clear message", "[weather][input][cli]") {
  using namespace cb::test;
  const std::string dir = make_temp_dir("cb_weather_input_");
  const std::string valid =
      "[run]\nsolver = \"weather\"\ncase = \"thermal\"\nsteps = 2\n"  // lines 1-4
      "[grid]\ncells = [20, 1, 10]\n"                                 // 5-6
      "[weather]\nhv_beta = 0.05\n";                                  // 7-8
  check_bad_overrides(
      dir, valid,
      {BadOverride{"misspelt key",
                   "--set weather.hv_bta=0.05",
                   {"unknown key 'hv_bta'", "did you mean 'hv_beta'"}},
       BadOverride{"hv_beta out of [0, 1]", "--set weather.hv_beta=2.0", {"hv_beta", "[0, 1]"}},
       BadOverride{"two cells in y", "--set grid.cells=[100,2,50]", {"cells", "ny must be 1"}}});
  check_misspelt_key(dir, valid, "hv_beta", "hv_bta", 8);
  std::filesystem::remove_all(dir);
}
