// Parameters of the weather solver: [grid], [time] cfl, [weather].
#pragma once

#include "core/solver.hpp"
#include "io/case_file.hpp"
#include "solvers/weather/cases.hpp"

#include <string>

namespace cb::weather {

struct Params {
  std::string case_name;
  Case kind = Case::thermal;
  GridGeometry geometry;     // x, y periodic or walled; z always walled
  double cfl = 1.5;          // dt = cfl min(dx, dy, dz) / max_speed
  double max_speed = 450.0;  // m/s, assumed maximum wave speed
  double hv_beta = 0.05;     // hyperviscosity strength in [0, 1]
  double viscosity = 0.0;    // m^2/s, on the velocity (Straka et al. 1993)
  double diffusivity = 0.0;  // m^2/s, on potential temperature
  bool three_d() const { return geometry.cells[1] > 1; }
  int variables() const { return three_d() ? 5 : 4; }
};

constexpr int halo_width = 2;  // four-cell interpolation stencil

Params read_params(io::CaseFile& file);
double stable_dt(const Params& params);
CaseSetup case_setup(const Params& params);

}  // namespace cb::weather
