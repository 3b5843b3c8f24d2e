// Parameters of the scalar transport solver, read from the case file:
// [grid] cells, lo, hi; [time] cfl; [scalar] velocity, diffusivity, limiter,
// integrator; [initial] the profile of the chosen case.
#pragma once

#include "core/solver.hpp"
#include "io/case_file.hpp"
#include "kernels/limiters.hpp"
#include "kernels/rk.hpp"

#include <string>

namespace cb::scalar {

enum class Profile : int { sine, gaussian };

struct Params {
  std::string case_name;
  Profile profile = Profile::sine;
  GridGeometry geometry;  // periodic on every axis
  double cfl = 0.8;
  Real3 velocity{1.0, 0.0, 0.0};
  double diffusivity = 0.0;
  kernels::Limiter limiter = kernels::Limiter::none;
  kernels::TimeIntegrator integrator = kernels::TimeIntegrator::ssp_rk3;
  // Initial profile: mean + amplitude * shape, shape = sin(2 pi waves . x / L)
  // for `sine`, a periodic Gaussian of standard deviation `width` at `center`
  // for `gaussian`.
  double mean = 1.0;
  double amplitude = 0.5;
  Int3 waves{1, 0, 0};
  Real3 center{0.5, 0.5, 0.5};
  double width = 0.05;
};

constexpr int halo_width = 2;  // MUSCL needs two upwind cells

Params read_params(io::CaseFile& file);

// Reads [grid] cells, lo, hi (shared by grid solvers; `periodic` set by caller).

// Largest stable dt: cfl / (sum |u_d|/dx_d + 2 kappa sum 1/dx_d^2), the usual
// combined advective-diffusive limit for explicit finite volumes.
double stable_dt(const Params& params);

}  // namespace cb::scalar
