// Parameters of the CFD solver: [grid], [time] cfl, [cfd], [viscosity],
// [boundary] and [initial] (names: shared brief cfd_schema.md, docs/solvers/cfd.md).
#pragma once

#include "core/solver.hpp"
#include "io/case_file.hpp"
#include "kernels/cfd/reconstruction.hpp"
#include "kernels/cfd/riemann.hpp"
#include "kernels/cfd/viscous.hpp"
#include "kernels/rk.hpp"
#include "solvers/cfd/cases.hpp"
#include "solvers/cfd/cut_cells.hpp"

#include <string>

namespace cb::cfd {

enum class BoundaryKind : int {
  periodic,
  outflow,             // zero gradient
  slip_wall,           // reflecting
  no_slip_wall,        // velocity 2 u_wall - u mirrored; adiabatic or isothermal
  inflow,              // fixed state
  far_field,           // the free stream as a fixed state, for the outer faces of external flows
  velocity_inlet,      // subsonic: density and velocity imposed, pressure from the interior
  pressure_outlet,     // subsonic: pressure imposed, density and velocity from the interior
  double_mach_bottom,  // Woodward & Colella (1984): post-shock for x < 1/6, else reflecting
  double_mach_top      // Woodward & Colella (1984): the exact moving Mach 10 shock
};

// One face of the domain, by value for device code.
struct FaceBoundary {
  BoundaryKind kind = BoundaryKind::outflow;
  real wall_velocity[3] = {0, 0, 0};
  real wall_temperature = 0;  // > 0: isothermal no-slip wall; else adiabatic
  // inflow: imposed; far_field: free stream; velocity_inlet: rho and velocity;
  // pressure_outlet: p
  kernels::cfd::Primitive outer_state{1, {0, 0, 0}, 1};
  // Parabolic inlet: the velocity times 4 s (1 - s) along each tangential axis with a
  // width > 0, s = (x - profile_lo) / profile_width (channel flows; docs/solvers/cfd.md §3).
  bool parabolic = false;
  real profile_lo[3] = {0, 0, 0}, profile_width[3] = {0, 0, 0};
};

struct Boundaries {
  FaceBoundary face[3][2];  // [axis][side]
};

// [forces]: force coefficients F . e / (rho U^2 A / 2) of the bodies along the drag and lift
// directions (docs/solvers/cfd.md §7); off while the reference area is 0.
struct ForceReference {
  double area = 0.0, density = 1.0, speed = 1.0;
  double length = 0.0;                             // of the Strouhal number (0: none)
  Real3 drag{1.0, 0.0, 0.0}, lift{0.0, 1.0, 0.0};  // unit vectors
  Real3 moment_center{0.0, 0.0, 0.0};              // of the moments
  double dynamic_pressure_area() const { return 0.5 * density * speed * speed * area; }
};

// [probes]: the pressure difference p(from) - p(to) between two points of the flow, each
// sampled at a cell (solvers/cfd/probes.hpp; diagnostics column dp).
struct PressureProbes {
  bool enabled = false;
  Real3 from{0.0, 0.0, 0.0}, to{0.0, 0.0, 0.0};
};

struct Params {
  std::string case_name;
  Case kind = Case::sod;
  GridGeometry geometry;
  double cfl = 0.4;
  double gamma = 1.4;
  kernels::cfd::Reconstruction reconstruction = kernels::cfd::Reconstruction::muscl;
  kernels::Limiter limiter = kernels::Limiter::van_leer;
  kernels::cfd::RiemannSolver riemann = kernels::cfd::RiemannSolver::hllc;
  kernels::TimeIntegrator integrator = kernels::TimeIntegrator::ssp_rk3;
  bool low_mach = false;
  bool low_mach_normal_only = false;  // scale the normal velocity jump only
  bool fourth_order = false;          // WENO5 with fourth-order average <-> point conversions
  bool finite_difference = false;     // WENO5 on point values (Shu-Osher conservative FD)
  kernels::cfd::Viscosity viscosity{kernels::cfd::ViscosityLaw::none, 0, 0.72, 1, 0.3831};
  Boundaries boundaries;
  BodyProgram bodies;  // [[geometry]]: cut cells (docs/solvers/cfd.md §7)
  ForceReference forces;
  PressureProbes probes;
  CaseSetup setup{};
  bool viscous() const { return viscosity.law != kernels::cfd::ViscosityLaw::none; }
  // The fourth-order conversions read one more layer (cell averages -> points).
  // Bodies: flux redistribution reads the conservative update two cells away.
  int halo() const {
    const int stencil = kernels::cfd::stencil_halo(reconstruction) + (fourth_order ? 1 : 0);
    return bodies.empty() || stencil >= 2 ? stencil : 2;
  }
};

Params read_params(io::CaseFile& file);
double field_bytes(const Params& params, int ranks);
std::vector<std::string> output_field_names();

}  // namespace cb::cfd
