// Parameters of the weather solver: [grid], [time] cfl, [weather].
#pragma once

#include "core/solver.hpp"
#include "io/case_file.hpp"
#include "solvers/weather/cases.hpp"

#include <string>

namespace cb::weather {

constexpr int moist_tracers = 3;  // water vapour, cloud, rain

// [weather] moisture = true adds the densities of water vapour, cloud and rain (rho q, q the
// mixing ratio per unit mass of dry air) as conserved tracers. Initial water: vapour at a
// relative humidity of the (Kessler) saturation mixing ratio of the background, another one
// and a cloud mixing ratio inside the case's perturbation (where theta' != 0).
struct Moisture {
  bool enabled = false;
  // [weather] microphysics = "kessler" (default) | "saturation" (Kessler without rain: the
  // saturation adjustment alone) | "none" (passive water)
  bool kessler = false;
  bool rain = false;
  // [weather] water_dynamics: vapour in the equation of state and water loading in the
  // buoyancy, about a moist hydrostatic background (docs/solvers/weather.md §10). Default: on
  // with microphysics ("kessler", "saturation"), off with "none" (passive water: the dry
  // fields bit for bit).
  bool dynamics = false;
  // [weather] water_inertia (needs water_dynamics; default false): the water's inertia in the
  // momentum equations, the pressure gradient and gravity acting on the total mass (§10).
  bool inertia = false;
  // [weather] thermodynamics = "approximate" (default: Kessler's constant L and the dry cp) |
  // "exact" (kernels/weather/exact_thermo.hpp; needs microphysics and water dynamics, turns the
  // water's inertia on): docs/solvers/weather.md §16.
  bool exact = false;
  double relative_humidity = 0.0;
  double bubble_relative_humidity = 0.0;
  double bubble_cloud = 0.0;  // kg/kg
};

// [weather] diffusion (docs/solvers/weather.md §12): "none"; "constant", an eddy viscosity
// diffusion_k on u, v, w; "smagorinsky", K = (Cs Delta)^2 |S| per cell and step (Smagorinsky
// 1963, Lilly 1967). theta' and the moist tracers take K / prandtl.
enum class Diffusion { none, constant, smagorinsky };

struct Turbulence {
  Diffusion scheme = Diffusion::none;
  double k = 0.0;        // m^2/s, "constant"
  double prandtl = 1.0;  // K / K_scalars
  double cs = 0.18;      // Smagorinsky constant
  bool smagorinsky() const { return scheme == Diffusion::smagorinsky; }
};

// [weather] sponge_depth > 0: the w-damping layer of Klemp, Dudhia & Hassiotis (2008) in the
// top sponge_depth metres, rate sponge_rate (1/s) at the top (docs/solvers/weather.md §15).
struct Sponge {
  double depth = 0.0;  // m; 0: no layer
  double rate = 0.0;   // 1/s, at the top
  bool enabled() const { return depth > 0.0; }
};

struct Params {
  std::string case_name;
  Case kind = Case::thermal;
  GridGeometry geometry;            // x, y periodic or walled; z always walled
  double cfl = 1.5;                 // dt = cfl min(dx, dy, dz) / max_speed
  double max_speed = 450.0;         // m/s, assumed maximum wave speed
  double hv_beta = 0.05;            // hyperviscosity strength in [0, 1]
  double viscosity = 0.0;           // m^2/s, on the velocity (Straka et al. 1993)
  double diffusivity = 0.0;         // m^2/s, on potential temperature
  double tracer_diffusivity = 0.0;  // m^2/s, on the moist tracers' mixing ratios
  Turbulence turbulence;            // [weather] diffusion and its keys
  Moisture moisture;                // [weather] moisture and its initial water
  Sponge sponge;                    // [weather] sponge_depth, sponge_rate
  bool bubble = true;               // false: the case's background alone (a balance test)
  bool three_d() const { return geometry.cells[1] > 1; }
  // rho', rho u, rho w, (rho theta)' [, rho v]: the dynamics.
  int dynamic_variables() const { return three_d() ? 5 : 4; }
  // rho qv, rho qc, rho qr after the dynamic variables in moist runs.
  int tracers() const { return moisture.enabled ? moist_tracers : 0; }
  int variables() const { return dynamic_variables() + tracers(); }
};

constexpr int halo_width = 2;  // four-cell interpolation stencil

Params read_params(io::CaseFile& file);
double min_spacing(const Params& params);  // the smallest spacing of the axes in use
double stable_dt(const Params& params);
CaseSetup case_setup(const Params& params);

}  // namespace cb::weather
