#include "solvers/cfd/params.hpp"

#include "solvers/cfd/geometry_params.hpp"

#include "core/local_grid.hpp"
#include "io/run_params.hpp"

#include <algorithm>
#include <cmath>

namespace cb::cfd {
namespace {

using kernels::cfd::Primitive;

const std::vector<std::string> case_names = {"sod",
                                             "lax",
                                             "toro123",
                                             "blast",
                                             "riemann2d",
                                             "double_mach",
                                             "isentropic_vortex",
                                             "kelvin_helmholtz",
                                             "taylor_green",
                                             "cavity",
                                             "uniform"};
const std::vector<std::string> boundary_names = {"periodic",       "outflow",        "slip_wall",
                                                 "no_slip_wall",   "inflow",         "far_field",
                                                 "velocity_inlet", "pressure_outlet"};
const char* const face_names[3][2] = {{"x_lo", "x_hi"}, {"y_lo", "y_hi"}, {"z_lo", "z_hi"}};

template <class Enum>
Enum index_of(const std::vector<std::string>& names, const std::string& name) {
  return static_cast<Enum>(std::find(names.begin(), names.end(), name) - names.begin());
}

bool is_riemann_1d(Case kind) {
  return kind == Case::sod || kind == Case::lax || kind == Case::toro123 || kind == Case::blast;
}

// Domain, boundaries and gas of each case (1-D Riemann problems: Toro's [0, 1]).
struct CaseDefaults {
  Real3 lo{0.0, 0.0, 0.0}, hi{1.0, 1.0, 1.0};
  BoundaryKind face[3][2];
  double gamma = 1.4;
};

CaseDefaults defaults_for(Case kind) {
  CaseDefaults d;
  BoundaryKind all = BoundaryKind::outflow;
  if (kind == Case::isentropic_vortex || kind == Case::kelvin_helmholtz ||
      kind == Case::taylor_green) {
    all = BoundaryKind::periodic;
  }
  if (kind == Case::cavity) all = BoundaryKind::no_slip_wall;
  for (auto& axis : d.face) axis[0] = axis[1] = all;
  if (kind == Case::double_mach) {
    d.hi = {4.0, 1.0, 1.0};
    d.face[0][0] = BoundaryKind::inflow;
    d.face[1][0] = BoundaryKind::double_mach_bottom;
    d.face[1][1] = BoundaryKind::double_mach_top;
  } else if (kind == Case::isentropic_vortex) {
    d.lo = {-10.0, -10.0, 0.0};
    d.hi = {10.0, 10.0, 1.0};
  } else if (kind == Case::taylor_green) {
    d.lo = {-math::pi, -math::pi, -math::pi};
    d.hi = {math::pi, math::pi, math::pi};
  }
  if (kind == Case::kelvin_helmholtz) d.gamma = 5.0 / 3.0;
  return d;
}

void read_numerics(io::CaseFile& file, Params& p, const CaseDefaults& d) {
  using namespace kernels::cfd;
  p.cfl = io::read_cfl(file, 0.4, io::Bounds::open_closed(0.0, 1.0));
  p.gamma = file.get<double>("cfd", "gamma", d.gamma, io::Bounds{1.0, 10.0, false, true});
  p.reconstruction = index_of<Reconstruction>(
      {"constant", "muscl", "weno5"},
      file.choice("cfd", "reconstruction", {"constant", "muscl", "weno5"}, std::string("muscl")));
  const std::vector<std::string> limiters = {"none", "minmod", "van_leer", "mc"};
  // Used by MUSCL only; accepted with the other reconstructions so that one
  // case file can be rerun with --set cfd.reconstruction=...
  p.limiter =
      index_of<kernels::Limiter>(limiters, file.choice("cfd", "limiter", limiters, "van_leer"));
  const std::vector<std::string> solvers = {"hllc", "hll", "rusanov"};
  p.riemann = index_of<RiemannSolver>(solvers, file.choice("cfd", "riemann", solvers, "hllc"));
  const std::vector<std::string> integrators = {"ssp_rk2", "ssp_rk3"};
  p.integrator = index_of<kernels::TimeIntegrator>(
      integrators, file.choice("cfd", "integrator", integrators, "ssp_rk3"));
  p.low_mach = file.get<bool>("cfd", "low_mach", false);
  const std::vector<std::string> jumps = {"all", "normal"};
  p.low_mach_normal_only = file.choice("cfd", "low_mach_jumps", jumps, "all") == "normal";
  p.fourth_order = file.get<bool>("cfd", "fourth_order", false);
  if (p.fourth_order && p.reconstruction != Reconstruction::weno5) {
    file.fail("cfd", "fourth_order", "[cfd] fourth_order needs reconstruction = \"weno5\"");
  }
  p.finite_difference = file.get<bool>("cfd", "finite_difference", false);
  if (p.finite_difference && (p.reconstruction != Reconstruction::weno5 || p.fourth_order)) {
    file.fail("cfd", "finite_difference",
              "[cfd] finite_difference needs reconstruction = \"weno5\" and no fourth_order");
  }
  if (p.finite_difference && p.low_mach) {
    file.fail("cfd", "finite_difference",
              "[cfd] finite_difference has no Riemann solver for low_mach to correct");
  }
}

// [initial] pulse_amplitude (relative to p; 0: none), pulse_half_width, pulse_center (default
// the domain's centre) of the uniform case's acoustic pulse (cases.hpp).
void read_pulse(io::CaseFile& file, const Params& p, CaseSetup& c) {
  c.pulse[0] = file.get<double>("initial", "pulse_amplitude", 0.0, io::Bounds::closed(-0.5, 0.5));
  const GridGeometry& g = p.geometry;
  c.pulse[1] = file.get<double>("initial", "pulse_half_width", 0.1 * (g.hi[0] - g.lo[0]),
                                io::Bounds::positive());
  const std::array<double, 3> middle = {0.5 * (g.lo[0] + g.hi[0]), 0.5 * (g.lo[1] + g.hi[1]),
                                        0.5 * (g.lo[2] + g.hi[2])};
  const auto centre = file.get<std::array<double, 3>>("initial", "pulse_center", middle);
  for (int a = 0; a < 3; ++a) c.pulse[2 + a] = centre[a];
}

// [initial]: only the keys of the chosen case are known; others are rejected.
void read_initial(io::CaseFile& file, Params& p) {
  CaseSetup& c = p.setup;
  c.kind = p.kind;
  c.gamma = p.gamma;
  c.orientation = 0;
  c.interface = 0.5;
  c.mach = 0.1;
  c.vortex_strength = 5.0;
  if (is_riemann_1d(p.kind)) {
    const std::vector<std::string> axes = {"x", "y", "z"};
    c.orientation = int(index_of<Case>(axes, file.choice("initial", "orientation", axes, "x")));
    if (p.geometry.cells[c.orientation] < 2) {
      file.fail("initial", "orientation",
                "[initial] orientation: the grid has one cell along " + axes[c.orientation]);
    }
  }
  if (is_riemann_1d(p.kind) || p.kind == Case::riemann2d) {
    c.interface = file.get<double>("initial", "interface", 0.5);
  }
  if (p.kind == Case::isentropic_vortex) {
    c.vortex_strength = file.get<double>("initial", "strength", 5.0, io::Bounds::non_negative());
  }
  if (p.kind == Case::taylor_green || p.kind == Case::cavity) {
    const double re = p.kind == Case::taylor_green ? 1600.0 : 100.0;
    const double reynolds = file.get<double>("initial", "reynolds", re, io::Bounds::positive());
    c.mach = file.get<double>("initial", "mach", 0.1, io::Bounds::open_closed(0.0, 10.0));
    p.viscosity.mu = real(1.0 / reynolds);  // rho0 V0 L / Re with rho0 = V0 = L = 1
  }
  if (p.kind == Case::uniform) {  // a gas at rest or in uniform motion (bodies in a stream)
    c.uniform[0] = file.get<double>("initial", "density", 1.0, io::Bounds::positive());
    const auto velocity = file.get<std::vector<double>>("initial", "velocity", {0.0, 0.0, 0.0});
    if (velocity.size() != 3) file.fail("initial", "velocity", "[initial] velocity: 3 numbers");
    for (int a = 0; a < 3; ++a) c.uniform[1 + a] = velocity[a];
    c.uniform[4] = file.get<double>("initial", "pressure", 1.0, io::Bounds::positive());
    read_pulse(file, p, c);
  }
}

void read_viscosity(io::CaseFile& file, Params& p) {
  using kernels::cfd::ViscosityLaw;
  const bool from_reynolds = p.kind == Case::taylor_green || p.kind == Case::cavity;
  const std::vector<std::string> laws = {"none", "constant", "sutherland"};
  p.viscosity.law = index_of<ViscosityLaw>(
      laws, file.choice("viscosity", "law", laws, from_reynolds ? "constant" : "none"));
  if (!p.viscous()) {
    for (const char* key : {"mu", "prandtl", "sutherland_t_ref", "sutherland_s"}) {
      if (file.has("viscosity", key)) {
        file.fail(
            "viscosity", key,
            std::string("[viscosity] ") + key + " needs law = " + "\"constant\" or \"sutherland\"");
      }
    }
    return;
  }
  if (from_reynolds) {
    p.viscosity.mu =
        real(file.get<double>("viscosity", "mu", p.viscosity.mu, io::Bounds::positive()));
  } else {
    p.viscosity.mu = real(file.require<double>("viscosity", "mu", io::Bounds::positive()));
  }
  const double prandtl = p.kind == Case::taylor_green ? 0.71 : 0.72;  // HiOCFD C3.5: Pr 0.71
  p.viscosity.prandtl =
      real(file.get<double>("viscosity", "prandtl", prandtl, io::Bounds::positive()));
  if (p.viscosity.law == ViscosityLaw::sutherland) {
    p.viscosity.t_ref =
        real(file.get<double>("viscosity", "sutherland_t_ref", 1.0, io::Bounds::positive()));
    // 110.4 K over a 288.15 K reference temperature (air)
    p.viscosity.s = real(
        file.get<double>("viscosity", "sutherland_s", 110.4 / 288.15, io::Bounds::non_negative()));
  }
}

Primitive read_state(io::CaseFile& file, const std::string& key, bool required,
                     const Primitive& fallback) {
  std::vector<double> v;
  if (required) {
    v = file.require<std::vector<double>>("boundary", key);
  } else {
    v = file.get<std::vector<double>>("boundary", key, {});
    if (v.empty()) return fallback;
  }
  if (v.size() != 5 || !(v[0] > 0.0) || !(v[4] > 0.0)) {
    file.fail("boundary", key,
              "[boundary] " + key + ": expected [rho, u, v, w, p] with rho > 0 and p > 0");
  }
  return {real(v[0]), {real(v[1]), real(v[2]), real(v[3])}, real(v[4])};
}

// Keys that belong to one kind of face only: naming another kind is an error.
void refuse_unless(io::CaseFile& file, bool kind_matches, const std::string& key,
                   const std::string& face, const char* kind) {
  if (!kind_matches && file.has("boundary", key))
    file.fail("boundary", key, "[boundary] " + key + " needs " + face + " = \"" + kind + "\"");
}

void read_subsonic_face(io::CaseFile& file, FaceBoundary& b, const std::string& face) {
  const bool inlet = b.kind == BoundaryKind::velocity_inlet;
  const bool outlet = b.kind == BoundaryKind::pressure_outlet;
  const std::string velocity = "inlet_velocity_" + face, density = "inlet_density_" + face,
                    profile = "inlet_profile_" + face, pressure = "outlet_pressure_" + face;
  for (const std::string& key : {velocity, density, profile})
    refuse_unless(file, inlet, key, face, "velocity_inlet");
  refuse_unless(file, outlet, pressure, face, "pressure_outlet");
  if (inlet) {
    const Real3 v = file.require<std::array<double, 3>>("boundary", velocity);
    b.outer_state.rho = real(file.require<double>("boundary", density, io::Bounds::positive()));
    for (int d = 0; d < 3; ++d) b.outer_state.vel[d] = real(v[d]);
    b.parabolic =
        file.choice("boundary", profile, {"uniform", "parabolic"}, "uniform") == "parabolic";
  }
  if (outlet)
    b.outer_state.p = real(file.require<double>("boundary", pressure, io::Bounds::positive()));
}

void read_face(io::CaseFile& file, Params& p, const CaseDefaults& d, int axis, int side) {
  const std::string face = face_names[axis][side];
  FaceBoundary& b = p.boundaries.face[axis][side];
  const BoundaryKind fallback = d.face[axis][side];
  const bool special =
      fallback == BoundaryKind::double_mach_bottom || fallback == BoundaryKind::double_mach_top;
  if (special && !file.has("boundary", face)) {
    b.kind = fallback;
  } else {
    const std::string name = special ? "outflow" : boundary_names[int(fallback)];
    b.kind =
        index_of<BoundaryKind>(boundary_names, file.choice("boundary", face, boundary_names, name));
  }
  const bool no_slip = b.kind == BoundaryKind::no_slip_wall;
  Real3 lid{0.0, 0.0, 0.0};
  if (p.kind == Case::cavity && axis == 1 && side == 1) lid[0] = 1.0;  // the moving lid
  const std::string velocity_key = "wall_velocity_" + face;
  const std::string temperature_key = "wall_temperature_" + face;
  const bool fixed_state = b.kind == BoundaryKind::inflow || b.kind == BoundaryKind::far_field;
  const std::string state_key =
      (b.kind == BoundaryKind::far_field ? "far_field_" : "inflow_") + face;
  for (const std::string& key : {velocity_key, temperature_key})
    refuse_unless(file, no_slip, key, face, "no_slip_wall");
  for (const char* kind : {"inflow", "far_field"}) {
    const std::string key = std::string(kind) + "_" + face;
    refuse_unless(file, key == state_key && fixed_state, key, face, kind);
  }
  if (no_slip) {
    const Real3 v = file.get<std::array<double, 3>>("boundary", velocity_key, lid);
    for (int d3 = 0; d3 < 3; ++d3) b.wall_velocity[d3] = real(v[d3]);
    if (v[axis] != 0.0) {
      file.fail("boundary", velocity_key,
                "[boundary] " + velocity_key + ": a wall moves only along itself");
    }
    b.wall_temperature =
        real(file.get<double>("boundary", temperature_key, 0.0, io::Bounds::non_negative()));
  }
  if (fixed_state) {
    const bool post_shock = p.kind == Case::double_mach && axis == 0 && side == 0;
    b.outer_state = read_state(file, state_key, !post_shock, double_mach_post_shock());
  }
  read_subsonic_face(file, b, face);
}

// A parabolic inlet spans the tangential axes that have walls: more than one cell, not
// periodic. The velocity given is the one at the channel's middle.
void shape_inlet(io::CaseFile& file, FaceBoundary& b, int axis, int side, const GridGeometry& g) {
  int shaped = 0;
  for (int d = 0; d < 3; ++d) {
    if (d == axis || g.cells[d] < 2 || g.periodic[d]) continue;
    b.profile_lo[d] = real(g.lo[d]);
    b.profile_width[d] = real(g.hi[d] - g.lo[d]);
    ++shaped;
  }
  const std::string key = std::string("inlet_profile_") + face_names[axis][side];
  if (shaped == 0)
    file.fail("boundary", key, "[boundary] " + key + ": no tangential axis with walls to span");
}

void read_boundaries(io::CaseFile& file, Params& p, const CaseDefaults& d) {
  for (int axis = 0; axis < 3; ++axis) {
    for (int side = 0; side < 2; ++side) read_face(file, p, d, axis, side);
    const bool lo = p.boundaries.face[axis][0].kind == BoundaryKind::periodic;
    const bool hi = p.boundaries.face[axis][1].kind == BoundaryKind::periodic;
    if (lo != hi) {
      file.fail("boundary", face_names[axis][lo ? 1 : 0],
                std::string("[boundary] ") + face_names[axis][0] + " and " + face_names[axis][1] +
                    ": periodic on both faces or on neither");
    }
    p.geometry.periodic[axis] = lo;
  }
  for (int axis = 0; axis < 3; ++axis)
    for (int side = 0; side < 2; ++side)
      if (p.boundaries.face[axis][side].parabolic)
        shape_inlet(file, p.boundaries.face[axis][side], axis, side, p.geometry);
}

// The cut-cell scheme (docs/solvers/cfd.md §7) is second-order finite volume:
// what it does not cover yet is refused, naming the key.
void refuse_with_bodies(io::CaseFile& file, const Params& p) {
  const std::string with =
      " is not supported with [[geometry]] bodies yet (cut cells: constant or MUSCL "
      "reconstruction)";
  if (p.fourth_order) file.fail("cfd", "fourth_order", "[cfd] fourth_order" + with);
  if (p.finite_difference) file.fail("cfd", "finite_difference", "[cfd] finite_difference" + with);
  if (p.reconstruction == kernels::cfd::Reconstruction::weno5)
    file.fail("cfd", "reconstruction", "[cfd] reconstruction = \"weno5\"" + with);
}

// Slip walls (no [viscosity] law) have no wall conditions: refused, naming the table and key.
void refuse_slip_wall_conditions(io::CaseFile& file, const Params& p) {
  for (std::size_t t = 1; !p.viscous() && t <= file.tables("geometry"); ++t) {
    const std::string section = "geometry[" + std::to_string(t) + "]";
    for (const char* key : {"wall_temperature", "wall_velocity", "wall_angular_velocity"})
      if (file.has(section, key))
        file.fail(section, key,
                  std::string("[[geometry]] ") + key +
                      " needs no-slip walls: a [viscosity] law (slip walls pass no heat and "
                      "no shear)");
  }
}

Real3 unit(io::CaseFile& file, const char* key, const Real3& v) {
  const double norm = std::sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
  if (!(norm > 0.0)) file.fail("forces", key, std::string("[forces] ") + key + ": a zero vector");
  return {v[0] / norm, v[1] / norm, v[2] / norm};
}

// [forces] (with bodies): reference area, density and speed of the force coefficients, and
// the drag and lift directions, and the centre of the moments (default: the first body's first
// table's `center`). The uniform case's stream gives the density, the speed and the drag
// direction by default; lift defaults to z x drag (the 2-D convention).
ForceReference read_forces(io::CaseFile& file, const Params& p) {
  ForceReference f;
  const char* keys[] = {"reference_area",   "reference_density", "reference_speed",
                        "reference_length", "drag_direction",    "lift_direction",
                        "moment_center"};
  if (p.bodies.empty()) {
    for (const char* key : keys)
      if (file.has("forces", key))
        file.fail("forces", key, std::string("[forces] ") + key + " needs [[geometry]] bodies");
    return f;
  }
  const bool stream = p.kind == Case::uniform;
  const double* u = p.setup.uniform;
  const double speed = stream ? std::sqrt(u[1] * u[1] + u[2] * u[2] + u[3] * u[3]) : 0.0;
  const double* first_center = p.bodies.walls.front().center;
  f.moment_center = file.get<Real3>("forces", "moment_center",
                                    {first_center[0], first_center[1], first_center[2]});
  f.area = file.get<double>("forces", "reference_area", 0.0, io::Bounds::non_negative());
  if (f.area == 0.0) {
    for (const char* key : keys)
      if (file.has("forces", key) && std::string(key) != "reference_area" &&
          std::string(key) != "moment_center")
        file.fail("forces", key, std::string("[forces] ") + key + " needs reference_area > 0");
    return f;
  }
  const auto positive = io::Bounds::positive();
  f.density = stream ? file.get<double>("forces", "reference_density", u[0], positive)
                     : file.require<double>("forces", "reference_density", positive);
  f.speed = speed > 0.0 ? file.get<double>("forces", "reference_speed", speed, positive)
                        : file.require<double>("forces", "reference_speed", positive);
  // 2-D: the area is the length times the domain's depth.
  const GridGeometry& g = p.geometry;
  const double depth = g.cells[2] == 1 ? g.hi[2] - g.lo[2] : 0.0;
  f.length = file.get<double>("forces", "reference_length", depth > 0.0 ? f.area / depth : 0.0,
                              io::Bounds::non_negative());
  const Real3 along = speed > 0.0 ? Real3{u[1], u[2], u[3]} : Real3{1.0, 0.0, 0.0};
  f.drag = unit(file, "drag_direction", file.get<Real3>("forces", "drag_direction", along));
  const Real3 z_cross_drag{-f.drag[1], f.drag[0], 0.0};
  if (z_cross_drag[0] == 0.0 && z_cross_drag[1] == 0.0 && !file.has("forces", "lift_direction"))
    file.fail("forces", "lift_direction", "[forces] lift_direction: required, drag is along z");
  f.lift = unit(file, "lift_direction", file.get<Real3>("forces", "lift_direction", z_cross_drag));
  const double dot = f.drag[0] * f.lift[0] + f.drag[1] * f.lift[1] + f.drag[2] * f.lift[2];
  if (std::abs(dot) > 1e-9)
    file.fail("forces", "lift_direction", "[forces] lift_direction: not perpendicular to drag");
  return f;
}

// A point of [probes] inside the domain (its faces included).
Real3 read_probe_point(io::CaseFile& file, const char* key, const GridGeometry& g) {
  const Real3 x = file.require<Real3>("probes", key);
  for (int a = 0; a < 3; ++a) {
    if (!(x[a] >= g.lo[a] && x[a] <= g.hi[a]))
      file.fail("probes", key,
                std::string("[probes] ") + key + ": outside the domain along " + "xyz"[a] + " [" +
                    std::to_string(g.lo[a]) + ", " + std::to_string(g.hi[a]) + "]");
  }
  return x;
}

PressureProbes read_probes(io::CaseFile& file, const GridGeometry& g) {
  PressureProbes probes;
  const bool from = file.has("probes", "pressure_from"), to = file.has("probes", "pressure_to");
  if (from != to) file.fail_missing("probes", from ? "pressure_to" : "pressure_from");
  if (!from) return probes;
  probes.enabled = true;
  probes.from = read_probe_point(file, "pressure_from", g);
  probes.to = read_probe_point(file, "pressure_to", g);
  return probes;
}

}  // namespace

Params read_params(io::CaseFile& file) {
  Params p;
  p.case_name = file.choice("run", "case", case_names);
  p.kind = index_of<Case>(case_names, p.case_name);
  const CaseDefaults d = defaults_for(p.kind);
  p.geometry = io::read_grid(file, d.lo, d.hi);
  read_numerics(file, p, d);
  read_initial(file, p);
  read_viscosity(file, p);
  read_boundaries(file, p, d);
  refuse_slip_wall_conditions(file, p);
  p.bodies = read_geometry(file, p.geometry);
  if (!p.bodies.empty()) refuse_with_bodies(file, p);
  p.forces = read_forces(file, p);
  p.probes = read_probes(file, p.geometry);
  for (int a = 0; a < 3; ++a) {
    const int n = p.geometry.cells[a];
    if (n > 1 && n < p.halo()) {
      file.fail("grid", "cells",
                "[grid] cells: at least " + std::to_string(p.halo()) +
                    " cells per used axis for this reconstruction");
    }
  }
  return p;
}

double field_bytes(const Params& params, int ranks) {
  int axes = 0;
  for (int a = 0; a < 3; ++a) axes += params.geometry.cells[a] > 1;
  // state, stage start, primitives, one face-flux array per used axis, derived output
  // fields; fourth order: averaged primitives, face states (2), point fluxes (+ flag)
  double vars = kernels::cfd::variables * (3.0 + axes + 1.0);
  if (params.fourth_order) vars += kernels::cfd::variables * 4.0 + 1.0;
  // bodies: the conservative update and the redistributed mass (5 + 5); the
  // fraction, 3 apertures, A n_b and |A|, the wall distance, the fluid centroid,
  // the redistribution weight, the surface point (16 doubles; moving walls 3
  // more), the body index (4 B) and phi at the 2^3 refined nodes per cell;
  // viscous: the fitted gradients (13 doubles) and their band (4 B)
  if (!params.bodies.empty()) {
    const double viscous = params.viscous() ? 13.0 + 0.5 : 0.0;
    vars += 2.0 * kernels::cfd::variables +
            (16.0 + (params.bodies.moving() ? 3.0 : 0.0) + 0.5 + 8.0 + viscous) * sizeof(double) /
                sizeof(real);
  }
  return vars * padded_global_cells(params.geometry, params.halo()) * sizeof(real) / ranks;
}

std::vector<std::string> output_field_names() {
  return {"rho", "mom_x", "mom_y", "mom_z", "energy", "u", "v", "w", "p", "mach"};
}

}  // namespace cb::cfd
