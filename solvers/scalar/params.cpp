#include "solvers/scalar/params.hpp"

#include "io/run_params.hpp"

#include <algorithm>
#include <cmath>

namespace cb::scalar {

namespace {

void read_numerics(io::CaseFile& file, Params& p) {
  p.cfl = io::read_cfl(file, 0.8, io::Bounds::open_closed(0.0, 1.0));
  p.velocity = file.get<std::array<double, 3>>("scalar", "velocity", {1.0, 0.0, 0.0});
  p.diffusivity = file.get<double>("scalar", "diffusivity", 0.0, io::Bounds::non_negative());
  const std::string limiter =
      file.choice("scalar", "limiter", {"none", "minmod", "van_leer"}, std::string("none"));
  p.limiter = limiter == "minmod"     ? kernels::Limiter::minmod
              : limiter == "van_leer" ? kernels::Limiter::van_leer
                                      : kernels::Limiter::none;
  const std::string rk =
      file.choice("scalar", "integrator", {"ssp_rk2", "ssp_rk3"}, std::string("ssp_rk3"));
  p.integrator =
      rk == "ssp_rk2" ? kernels::TimeIntegrator::ssp_rk2 : kernels::TimeIntegrator::ssp_rk3;
  for (int d = 0; d < 3; ++d) {
    if (p.geometry.cells[d] == 1 && p.velocity[d] != 0.0) {
      file.fail("scalar", "velocity", "velocity must be 0 along an axis with one cell");
    }
  }
  if (p.velocity == Real3{0.0, 0.0, 0.0} && p.diffusivity == 0.0) {
    file.fail("scalar", "velocity", "velocity and diffusivity are both zero: nothing to solve");
  }
}

void read_profile(io::CaseFile& file, Params& p) {
  p.mean = file.get<double>("initial", "mean", 1.0);
  p.amplitude = file.get<double>("initial", "amplitude", 0.5);
  if (p.profile == Profile::sine) {
    Int3 fallback{};
    for (int d = 0; d < 3; ++d) fallback[d] = p.geometry.cells[d] > 1 ? 1 : 0;
    p.waves = file.get<Int3>("initial", "waves", fallback);
    for (int d = 0; d < 3; ++d) {
      if (p.geometry.cells[d] == 1 && p.waves[d] != 0) {
        file.fail("initial", "waves", "waves must be 0 along an axis with one cell");
      }
    }
    return;
  }
  Real3 middle{};
  for (int d = 0; d < 3; ++d) middle[d] = 0.5 * (p.geometry.lo[d] + p.geometry.hi[d]);
  p.center = file.get<std::array<double, 3>>("initial", "center", middle);
  double shortest = 1e300;
  for (int d = 0; d < 3; ++d) {
    if (p.geometry.cells[d] > 1) shortest = std::min(shortest, p.geometry.hi[d] - p.geometry.lo[d]);
  }
  p.width = file.get<double>("initial", "width", 0.05 * shortest, io::Bounds::positive());
  if (p.width > 0.15 * shortest) {
    file.fail("initial", "width",
              "width must be at most 0.15 of the shortest domain side "
              "so that the periodic images stay negligible");
  }
}

}  // namespace

Params read_params(io::CaseFile& file) {
  Params p;
  p.case_name = file.choice("run", "case", {"sine", "gaussian"});
  p.profile = p.case_name == "gaussian" ? Profile::gaussian : Profile::sine;
  p.geometry = io::read_grid(file, {0.0, 0.0, 0.0}, {1.0, 1.0, 1.0});
  p.geometry.periodic = {true, true, true};
  read_numerics(file, p);
  read_profile(file, p);
  return p;
}

double stable_dt(const Params& params) {
  double rate = 0.0;
  for (int d = 0; d < 3; ++d) {
    if (params.geometry.cells[d] == 1) continue;
    const double dx = params.geometry.spacing(d);
    rate += std::abs(params.velocity[d]) / dx + 2.0 * params.diffusivity / (dx * dx);
  }
  return params.cfl / rate;
}

}  // namespace cb::scalar
