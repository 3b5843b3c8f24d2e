// Turbulent diffusion of the weather solver (docs/solvers/weather.md §12), on one rank through
// its C++ API: constant-K diffusion of a Gaussian tracer (2-D, 3-D) and of a Gaussian shear
// flow u(y) (3-D) against the exact spreading Gaussian, with second-order convergence; the
// Smagorinsky K of a uniform flow (0) and of a shear u = s z ((Cs Delta)^2 s); "constant" with
// Straka's K equal to the Straka keys bit for bit. Through the `cloudburst` program: bitwise
// identical on 1, 2 and 4 ranks and across restarts, and bad input (exit 2 naming the key).
#include "bad_input.hpp"
#include "core/decomposition.hpp"
#include "core/timers.hpp"
#include "grid_runs.hpp"
#include "io/case_file.hpp"
#include "solvers/weather/solver.hpp"
#include "weather_api_run.hpp"

#include <catch2/catch_test_macros.hpp>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <functional>
#include <string>
#include <vector>

using namespace cb;

namespace {

using HostState = test::WeatherHostState;

weather::Params params_of(const std::string& text) {
  return test::weather_params(text, "diffusion.toml");
}

// The state component `name` of the solver on the device, set from value(k, j, i, rho_bar).
void set_component(weather::WeatherSolver& solver, const std::string& name,
                   const std::function<double(int, int, int, double)>& value) {
  for (const FieldComponent& f : solver.checkpoint_fields()) {
    if (f.name != name) continue;
    const auto host = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), f.view);
    const auto rho =
        Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), solver.background_density());
    for (int k = 0; k < int(host.extent(1)); ++k)
      for (int j = 0; j < int(host.extent(2)); ++j)
        for (int i = 0; i < int(host.extent(3)); ++i)
          host(f.component, k, j, i) = value(k, j, i, rho(k));
    Kokkos::deep_copy(f.view, host);
  }
}

// Average over [a, a + h] of exp(-(x - x0)^2 / (2 s^2)).
double gaussian_average(double a, double h, double x0, double s) {
  const double r = std::sqrt(2.0) * s;
  return s * std::sqrt(M_PI / 2) * (std::erf((a + h - x0) / r) - std::erf((a - x0) / r)) / h;
}

// A Gaussian, q = A exp(-r^2 / (2 s0^2)), r along x and/or y, of the mixing ratio of a passive
// tracer (rho_qv) or of u (rho_u: a shear flow u(y), no divergence, so no pressure), in a
// resting atmosphere, hv_beta = 0, under constant K diffusion for `time`: the exact solution is
// A (s0 / s)^d exp(-r^2 / (2 s^2)) with s^2 = s0^2 + 2 K t (rho_bar depends on z only, so each
// level solves the heat equation).
struct Spread {
  Int3 cells;
  bool along_x, along_y;
  std::string field;  // "rho_qv" or "rho_u"
};

// The largest error of the cell averages of q (u) at the end, relative to the exact peak.
double gaussian_error(const Spread& spread) {
  const double length = 4000, s0 = 250, k = 250, time = 100, amplitude = 0.01;
  const Int3& n = spread.cells;
  const weather::Params p =
      params_of("case = \"rest\"\n[grid]\ncells = [" + std::to_string(n[0]) + ", " +
                std::to_string(n[1]) + ", " + std::to_string(n[2]) +
                "]\nlo = [0.0, 0.0, 0.0]\nhi = [4000.0, 4000.0, 1000.0]\n"
                "[weather]\nhv_beta = 0.0\nmoisture = true\nmicrophysics = \"none\"\n"
                "diffusion = \"constant\"\ndiffusion_k = 250.0\n");
  Decomposition decomposition(MPI_COMM_WORLD, p.geometry.cells, p.geometry.periodic);
  weather::WeatherSolver solver(p, decomposition);
  const Int3 g = ghost_widths(p.geometry.cells, weather::halo_width);
  const double hx = length / n[0], hy = length / n[1];
  const auto profile = [&](int j, int i, double s) {
    double value = 1;
    if (spread.along_x) value *= gaussian_average((i - g[0]) * hx, hx, length / 2, s);
    if (spread.along_y) value *= gaussian_average((j - g[1]) * hy, hy, length / 2, s);
    return value;
  };
  set_component(solver, spread.field,
                [&](int, int j, int i, double rho) { return rho * amplitude * profile(j, i, s0); });
  test::run_weather_to(solver, time);
  const double s = std::sqrt(s0 * s0 + 2 * k * time);
  const double peak = amplitude * std::pow(s0 / s, int(spread.along_x) + int(spread.along_y));
  int component = 0, dens = 0;
  const HostState q = test::host_component(solver, spread.field, component);
  const HostState rho_pert = test::host_component(solver, "rho_pert", dens);
  const auto rho_bar =
      Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), solver.background_density());
  double worst = 0;
  for (int k = g[2]; k < g[2] + n[2]; ++k)
    for (int j = g[1]; j < g[1] + n[1]; ++j)
      for (int i = g[0]; i < g[0] + n[0]; ++i) {
        const double ratio = q(component, k, j, i) / (rho_pert(dens, k, j, i) + rho_bar(k));
        worst = std::max(worst, std::abs(ratio - peak * profile(j, i, s)) / peak);
      }
  return worst;
}

}  // namespace

TEST_CASE("constant K spreads a Gaussian as the heat equation does, second order",
          "[weather][diffusion][validation]") {
  const auto errors = [](std::vector<Spread> runs) {
    std::vector<double> e;
    for (const Spread& run : runs) e.push_back(gaussian_error(run));
    return e;
  };
  // tracer along x (2-D), tracer along x and y (3-D), u(y) (3-D)
  const std::vector<double> two_d = errors({{{32, 1, 4}, true, false, "rho_qv"},
                                            {{64, 1, 4}, true, false, "rho_qv"},
                                            {{128, 1, 4}, true, false, "rho_qv"}});
  const std::vector<double> three_d =
      errors({{{32, 32, 4}, true, true, "rho_qv"}, {{64, 64, 4}, true, true, "rho_qv"}});
  const std::vector<double> shear = errors({{{4, 32, 4}, false, true, "rho_u"},
                                            {{4, 64, 4}, false, true, "rho_u"},
                                            {{4, 128, 4}, false, true, "rho_u"}});
  INFO("2-D errors " << two_d[0] << " " << two_d[1] << " " << two_d[2] << "; 3-D " << three_d[0]
                     << " " << three_d[1] << "; u(y) " << shear[0] << " " << shear[1] << " "
                     << shear[2]);
  // Measured (double): 2-D and u(y) 7.0e-3, 1.9e-3, 4.8e-4 (ratios 3.7, 3.9); 3-D 1.37e-2,
  // 3.7e-3 (3.7).
  CHECK(two_d[0] < 1e-2);
  CHECK(two_d[2] < 6e-4);
  CHECK(three_d[0] < 2e-2);
  CHECK(three_d[1] < 5e-3);
  CHECK(shear[0] < 1e-2);
  CHECK(shear[2] < 6e-4);
  for (const std::vector<double>* e : {&two_d, &three_d, &shear})
    for (size_t r = 0; r + 1 < e->size(); ++r) CHECK((*e)[r] / (*e)[r + 1] > 3.5);
}

TEST_CASE("Smagorinsky: K = 0 in a uniform flow, (Cs Delta)^2 s in a shear u = s z",
          "[weather][diffusion]") {
  const weather::Params p = params_of(
      "case = \"rest\"\n[grid]\ncells = [8, 8, 8]\n[weather]\ndiffusion = \"smagorinsky\"\n");
  const GridGeometry& geometry = p.geometry;
  const double delta = std::cbrt(geometry.spacing(0) * geometry.spacing(1) * geometry.spacing(2));
  const Int3 g = ghost_widths(geometry.cells, weather::halo_width);
  const auto eddy_after_one_step = [&](const std::function<double(int, double)>& u) {
    Decomposition decomposition(MPI_COMM_WORLD, geometry.cells, geometry.periodic);
    weather::WeatherSolver solver(p, decomposition);
    set_component(solver, "rho_u", [&](int k, int, int, double rho) { return rho * u(k, rho); });
    set_component(solver, "rho_v", [&](int, int, int, double rho) { return rho * 4; });
    PhaseTimer timer;
    solver.step(0, solver.stable_dt(), timer);  // K of the initial state
    return HostState(
        Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), solver.eddy_viscosity()));
  };
  // u = 8, v = 4 m/s everywhere (exact in binary: rho u / rho is 8).
  const HostState uniform = eddy_after_one_step([](int, double) { return 8.0; });
  double largest = 0;
  for (int k = g[2]; k < g[2] + 8; ++k)
    for (int j = g[1]; j < g[1] + 8; ++j)
      for (int i = g[0]; i < g[0] + 8; ++i) largest = std::max(largest, uniform(0, k, j, i));
  CHECK(largest == 0.0);
  // u = s z, s = 0.01 /s: K = (0.18 Delta)^2 s away from the walls (at them the ghost copies
  // the cell's u, so the centred difference there sees half the shear).
  const double s = 0.01, h = geometry.spacing(2);  // u at the cell centres
  const HostState shear =
      eddy_after_one_step([&](int k, double) { return s * (k - g[2] + 0.5) * h; });
  const double expected = 0.18 * delta * 0.18 * delta * s;
  for (int k = g[2] + 1; k < g[2] + 7; ++k)
    for (int j = g[1]; j < g[1] + 8; ++j)
      for (int i = g[0]; i < g[0] + 8; ++i)
        CHECK(std::abs(shear(0, k, j, i) - expected) < 1e-12 * expected);
  CHECK(std::abs(shear(0, g[2], g[1], g[0]) - expected / 2) < 1e-12 * expected);
}

TEST_CASE("diffusion = \"constant\" with Straka's 75 m^2/s is the straka case bit for bit",
          "[weather][diffusion]") {
  const std::string grid = "case = \"straka\"\n[grid]\ncells = [64, 1, 16]\n";
  const auto fields = [](const weather::Params& p) {
    Decomposition decomposition(MPI_COMM_WORLD, p.geometry.cells, p.geometry.periodic);
    weather::WeatherSolver solver(p, decomposition);
    test::run_weather_to(solver, 30.0);
    std::vector<HostState> out;
    for (const FieldComponent& f : solver.checkpoint_fields())
      out.push_back(Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), f.view));
    return out;
  };
  const std::vector<HostState> straka = fields(params_of(grid));
  const std::vector<HostState> constant =
      fields(params_of(grid + "[weather]\ndiffusion = \"constant\"\ndiffusion_k = 75.0\n"));
  REQUIRE(straka.size() == constant.size());
  bool same = true;
  for (size_t f = 0; f < straka.size(); ++f)
    for (size_t n = 0; n < straka[f].size(); ++n)
      same = same && straka[f].data()[n] == constant[f].data()[n];
  CHECK(same);
}

namespace {

std::string diffusion_case(const std::string& name, const std::string& cells,
                           const std::string& stop, const std::string& weather) {
  return "[run]\nsolver = \"weather\"\ncase = \"" + name + "\"\n" + stop +
         "\n[grid]\ncells = " + cells + "\n[diagnostics]\nevery_steps = 5\n[weather]\n" + weather;
}

// Passive water with a sharp cloud edge, so that the tracer diffusion crosses ranks.
const std::string water =
    "moisture = true\nmicrophysics = \"none\"\nrelative_humidity = 0.5\n"
    "bubble_relative_humidity = 0.9\nbubble_cloud = 0.002\n";
const std::string constant = "diffusion = \"constant\"\ndiffusion_k = 200.0\nprandtl = 0.5\n";
const std::string smagorinsky = "diffusion = \"smagorinsky\"\nsmagorinsky_cs = 0.5\n";

}  // namespace

TEST_CASE("diffusion: bitwise identical on 1, 2 and 4 ranks and across restarts",
          "[weather][diffusion][mpi][restart]") {
  using namespace cb::test;
  const std::string dir = make_temp_dir("cb_weather_diffusion_");
  check_decomposition_invariance(
      dir, "constant2d", diffusion_case("thermal", "[64, 1, 32]", "steps = 30", constant + water),
      {"[2,1,1]", "[1,1,2]", "[2,1,2]", "[4,1,1]"});
  check_decomposition_invariance(
      dir, "smagorinsky2d",
      diffusion_case("straka", "[64, 1, 16]", "steps = 30", smagorinsky + water),
      {"[2,1,2]", "[1,1,4]", "[4,1,1]"});
  check_decomposition_invariance(
      dir, "smagorinsky3d", diffusion_case("thermal", "[16, 16, 12]", "steps = 12", smagorinsky),
      {"[2,2,1]", "[1,1,2]"});
  check_restart(dir, "smagorinsky",
                diffusion_case("straka", "[48, 1, 16]", "steps = 14", smagorinsky + water), 7,
                {{2, 2}, {1, 4}});
  check_restart(dir, "constant",
                diffusion_case("thermal", "[48, 1, 24]", "steps = 14", constant + water), 7,
                {{2, 2}});
  std::filesystem::remove_all(dir);
}

TEST_CASE("bad diffusion input exits with code 2 naming the key",
          "[weather][diffusion][input][cli]") {
  using namespace cb::test;
  const std::string dir = make_temp_dir("cb_weather_diffusion_input_");
  const std::string valid = diffusion_case("thermal", "[20, 1, 10]", "steps = 2", constant);
  check_bad_overrides(
      dir, valid,
      {BadOverride{"unknown scheme", "--set weather.diffusion=\"tke\"", {"diffusion"}},
       BadOverride{"K not positive", "--set weather.diffusion_k=0.0", {"diffusion_k"}},
       BadOverride{"Prandtl out of range", "--set weather.prandtl=20.0", {"prandtl", "[0.1, 10]"}},
       BadOverride{"Cs with constant K",
                   "--set weather.smagorinsky_cs=0.2",
                   {"smagorinsky_cs", "needs diffusion = \"smagorinsky\""}},
       BadOverride{"K with Smagorinsky",
                   "--set weather.diffusion=\"smagorinsky\"",
                   {"diffusion_k", "needs diffusion = \"constant\""}},
       BadOverride{"Straka keys with a scheme",
                   "--set weather.viscosity=10.0",
                   {"viscosity", "use diffusion_k and prandtl"}},
       BadOverride{"fixed dt above the diffusion limit",
                   "--set time.dt=1000.0",
                   {"[time] dt", "diffusion limit"}}});
  check_bad_overrides(
      dir, diffusion_case("thermal", "[20, 1, 10]", "steps = 2", smagorinsky),
      {BadOverride{"Cs out of range", "--set weather.smagorinsky_cs=2.0", {"smagorinsky_cs"}},
       BadOverride{"Prandtl not positive", "--set weather.prandtl=0.0", {"prandtl"}}});
  std::filesystem::remove_all(dir);
}
