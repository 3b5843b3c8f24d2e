#include "solvers/weather/params.hpp"

#include "io/run_params.hpp"
#include "kernels/weather/diffusion.hpp"

#include <algorithm>
#include <limits>
#include <optional>

namespace cb::weather {
namespace {

const std::vector<std::string> case_names = {
    "thermal", "collision", "gravity_waves", "density_current", "injection",  "straka",
    "robert",  "rest",      "bryan_fritsch", "supercell",       "squall_line"};

// Domain and lateral boundaries of each case (miniWeather: 20 km x 10 km,
// periodic in x; 3-D adds y with the extent of x). x, y, z in metres.
struct CaseDefaults {
  Real3 lo, hi;
  bool walls_x;
  double viscosity;
};

CaseDefaults defaults_for(Case kind) {
  switch (kind) {
    case Case::straka:
      return {{-25600.0, -25600.0, 0.0}, {25600.0, 25600.0, 6400.0}, true, 75.0};
    case Case::robert:
      return {{0.0, 0.0, 0.0}, {1000.0, 1000.0, 1500.0}, true, 0.0};
    case Case::bryan_fritsch:
      return {{0.0, 0.0, 0.0}, {20000.0, 20000.0, 10000.0}, true, 0.0};
    case Case::supercell:  // the Cartesian DCMIP2016 supercell, doubly periodic
      return {{0.0, 0.0, 0.0}, {168000.0, 168000.0, 20000.0}, false, 0.0};
    case Case::squall_line:  // 2-D, periodic, wide enough that the cold pools meet late
      return {{0.0, 0.0, 0.0}, {400000.0, 400000.0, 20000.0}, false, 0.0};
    default:
      return {{0.0, 0.0, 0.0}, {20000.0, 20000.0, 10000.0}, false, 0.0};
  }
}

void read_grid(io::CaseFile& file, Params& p, const CaseDefaults& d) {
  p.geometry = io::read_grid(file, d.lo, d.hi);
  GridGeometry& g = p.geometry;
  if (g.cells[0] < 4 || g.cells[2] < 4) {
    file.fail("grid", "cells",
              "[grid] cells: the weather solver needs at least 4 cells in x and z");
  }
  if (g.cells[1] > 1 && g.cells[1] < 4) {
    file.fail("grid", "cells", "[grid] cells: ny must be 1 (2-D, x-z plane) or at least 4 (3-D)");
  }
  if (g.lo[2] != 0.0) file.fail("grid", "lo", "[grid] lo: the ground must be at z = 0");
  const std::string lateral = file.choice("weather", "lateral_boundary", {"periodic", "wall"},
                                          std::string(d.walls_x ? "wall" : "periodic"));
  const bool periodic = lateral == "periodic";
  g.periodic = {periodic, periodic, false};
}

// [weather] moisture and the initial water; the water keys need moisture = true.
void read_moisture(io::CaseFile& file, Moisture& m) {
  m.enabled = file.get<bool>("weather", "moisture", false);
  if (!m.enabled) {
    for (const char* key : {"microphysics", "water_dynamics", "water_inertia", "thermodynamics",
                            "relative_humidity", "bubble_relative_humidity", "bubble_cloud"}) {
      if (file.has("weather", key))
        file.fail("weather", key,
                  std::string("[weather] ") + key + ": needs moisture = true (a dry run)");
    }
    return;
  }
  const std::string scheme = file.choice("weather", "microphysics",
                                         {"kessler", "saturation", "none"}, std::string("kessler"));
  m.kessler = scheme != "none";
  m.rain = scheme == "kessler";
  m.dynamics = file.get<bool>("weather", "water_dynamics", m.kessler);
  m.exact = file.choice("weather", "thermodynamics", {"approximate", "exact"},
                        std::string("approximate")) == "exact";
  if (m.exact && !(m.dynamics && m.kessler))
    file.fail("weather", "thermodynamics",
              "[weather] thermodynamics = \"exact\": needs microphysics (\"kessler\" or "
              "\"saturation\") with water_dynamics");
  m.inertia = file.get<bool>("weather", "water_inertia", m.exact);
  if (m.inertia && !m.dynamics)
    file.fail(
        "weather", "water_inertia",
        "[weather] water_inertia: needs water_dynamics (the water must weigh to have inertia)");
  if (m.exact && !m.inertia)
    file.fail("weather", "water_inertia",
              "[weather] water_inertia: thermodynamics = \"exact\" includes the water's inertia");
  m.relative_humidity =
      file.get<double>("weather", "relative_humidity", 0.0, io::Bounds::closed(0.0, 1.5));
  m.bubble_relative_humidity = file.get<double>("weather", "bubble_relative_humidity",
                                                m.relative_humidity, io::Bounds::closed(0.0, 1.5));
  m.bubble_cloud = file.get<double>("weather", "bubble_cloud", 0.0, io::Bounds::closed(0.0, 0.05));
}

// [weather] diffusion and its keys; the Straka keys viscosity and diffusivity belong to
// diffusion = "none" (the case default), diffusion_k to "constant", smagorinsky_cs to
// "smagorinsky".
void read_diffusion(io::CaseFile& file, Params& p, const CaseDefaults& d) {
  const std::vector<std::string> schemes = {"none", "constant", "smagorinsky"};
  const std::string scheme = file.choice("weather", "diffusion", schemes, std::string("none"));
  Turbulence& t = p.turbulence;
  t.scheme =
      static_cast<Diffusion>(std::find(schemes.begin(), schemes.end(), scheme) - schemes.begin());
  const auto refuse = [&](const char* key, const std::string& why) {
    if (file.has("weather", key)) file.fail("weather", key, std::string("[weather] ") + key + why);
  };
  if (t.scheme != Diffusion::constant) refuse("diffusion_k", ": needs diffusion = \"constant\"");
  if (!t.smagorinsky()) refuse("smagorinsky_cs", ": needs diffusion = \"smagorinsky\"");
  if (t.scheme == Diffusion::none) {
    refuse("prandtl", ": needs diffusion = \"constant\" or \"smagorinsky\"");
    p.viscosity = file.get<double>("weather", "viscosity", d.viscosity, io::Bounds::non_negative());
    p.diffusivity =
        file.get<double>("weather", "diffusivity", d.viscosity, io::Bounds::non_negative());
    return;
  }
  for (const char* key : {"viscosity", "diffusivity"})
    refuse(key, ": not with diffusion = \"" + scheme + "\" (use diffusion_k and prandtl)");
  t.prandtl = file.get<double>("weather", "prandtl", 1.0, io::Bounds::closed(0.1, 10.0));
  if (t.smagorinsky()) {
    t.cs = file.get<double>("weather", "smagorinsky_cs", 0.18, io::Bounds::open_closed(0.0, 1.0));
    return;
  }
  t.k = file.require<double>("weather", "diffusion_k", io::Bounds::positive());
  p.viscosity = t.k;
  p.diffusivity = p.tracer_diffusivity = t.k / t.prandtl;
}

// The longest dt that keeps the run's constant diffusion stable, K dt / h^2 <= 1/4 per
// directional step (keeps the three-stage RK well inside its stability interval on the real
// axis); infinite without one.
double diffusion_dt_limit(const Params& p) {
  const double nu = std::max({p.viscosity, p.diffusivity, p.tracer_diffusivity});
  return nu > 0.0 ? kernels::weather::diffusion_k_limit(min_spacing(p), 1.0) / nu
                  : std::numeric_limits<double>::infinity();
}

// The supercell and the squall line set their own humidity profile and bubble, and need their
// water in the dynamics.
void check_sounding_case(io::CaseFile& file, const Params& p) {
  if (!p.moisture.dynamics)
    file.fail(
        "weather", "moisture",
        "[weather] moisture: case " + p.case_name + " needs moisture = true and water_dynamics");
  for (const char* key : {"relative_humidity", "bubble_relative_humidity", "bubble_cloud"}) {
    if (file.has("weather", key))
      file.fail("weather", key,
                std::string("[weather] ") + key + ": case " + p.case_name +
                    " has its own humidity profile and bubble (remove the key)");
  }
}

// [weather] sponge_depth (m, up to the domain's height) and, with a layer, its sponge_rate
// (1/s, required: the best rate depends on the stratification, §15).
void read_sponge(io::CaseFile& file, Params& p) {
  const double height = p.geometry.hi[2] - p.geometry.lo[2];
  p.sponge.depth =
      file.get<double>("weather", "sponge_depth", 0.0, io::Bounds::closed(0.0, height));
  if (!p.sponge.enabled()) {
    if (file.has("weather", "sponge_rate"))
      file.fail("weather", "sponge_rate", "[weather] sponge_rate: needs sponge_depth > 0");
    return;
  }
  p.sponge.rate = file.require<double>("weather", "sponge_rate", io::Bounds::positive());
}

}  // namespace

double min_spacing(const Params& p) {
  double h = std::min(p.geometry.spacing(0), p.geometry.spacing(2));
  return p.three_d() ? std::min(h, p.geometry.spacing(1)) : h;
}

Params read_params(io::CaseFile& file) {
  Params p;
  p.case_name = file.choice("run", "case", case_names);
  p.kind = static_cast<Case>(std::find(case_names.begin(), case_names.end(), p.case_name) -
                             case_names.begin());
  const CaseDefaults d = defaults_for(p.kind);
  read_grid(file, p, d);
  p.cfl = io::read_cfl(file, 1.5, io::Bounds::open_closed(0.0, 2.0));
  p.max_speed = file.get<double>("weather", "max_speed", 450.0, io::Bounds::positive());
  p.hv_beta = file.get<double>("weather", "hv_beta", 0.05, io::Bounds::closed(0.0, 1.0));
  read_diffusion(file, p, d);
  read_moisture(file, p.moisture);
  read_sponge(file, p);
  // A fixed dt must keep the explicit diffusion stable (Smagorinsky's K is clipped instead).
  const std::optional<double> dt = file.find<double>("time", "dt", io::Bounds::positive());
  if (p.turbulence.scheme == Diffusion::constant && dt && *dt > diffusion_dt_limit(p)) {
    file.fail("time", "dt",
              "[time] dt: above the diffusion limit K dt / h^2 <= 1/4 (dt <= " +
                  std::to_string(diffusion_dt_limit(p)) + " s)");
  }
  if (p.kind == Case::bryan_fritsch && p.moisture.enabled && !p.moisture.dynamics)
    file.fail("weather", "moisture",
              "[weather] moisture: case bryan_fritsch with water needs water_dynamics (without "
              "moisture it is their dry bubble)");
  if (on_supercell_sounding(p.kind)) check_sounding_case(file, p);
  p.bubble = file.get<bool>("weather", "bubble", true);
  if (!p.bubble &&
      (p.kind == Case::gravity_waves || p.kind == Case::injection || p.kind == Case::rest)) {
    file.fail("weather", "bubble", "[weather] bubble: case " + p.case_name + " has no bubble");
  }
  return p;
}

double stable_dt(const Params& p) {
  const double h = min_spacing(p);
  const double acoustic = h / p.max_speed * p.cfl;  // miniWeather's order of operations
  return std::min(acoustic, diffusion_dt_limit(p));
}

CaseSetup case_setup(const Params& p) {
  CaseSetup c{};
  c.kind = p.kind;
  c.three_d = p.three_d() ? 1 : 0;
  for (int a = 0; a < 3; ++a) {
    c.lo[a] = p.geometry.lo[a];
    c.length[a] = p.geometry.hi[a] - p.geometry.lo[a];
  }
  c.relative_humidity = p.moisture.relative_humidity;
  c.bubble_relative_humidity = p.moisture.bubble_relative_humidity;
  c.bubble_cloud = p.moisture.bubble_cloud;
  c.water_dynamics = p.moisture.dynamics ? 1 : 0;
  c.exact_thermo = p.moisture.exact ? 1 : 0;
  c.bubble = p.bubble ? 1 : 0;
  return c;
}

}  // namespace cb::weather
