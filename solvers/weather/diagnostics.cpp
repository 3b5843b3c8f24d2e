// Diagnostics of the weather solver with miniWeather's definitions: mass =
// sum rho dV, total energy = sum [rho (u^2 + v^2 + w^2) + rho cv T] dV (no 1/2
// on the kinetic term, as in miniWeather, so the figures compare), reported as
// relative changes d_mass and d_te; plus extrema of theta' and w. Also the
// derived output fields and the checkpoint contents.
#include "core/non_finite.hpp"
#include "solvers/weather/solver.hpp"

#include <mpi.h>
#include <climits>
#include <cstdio>

namespace cb::weather {
namespace {

using kernels::weather::Var;

// Full density, velocity and potential temperature of cell (k, j, i).
struct CellState {
  double r, u, v, w, theta;
};

KOKKOS_INLINE_FUNCTION CellState cell_state(const Field& s, const Column& hy_r, const Column& hy_rt,
                                            int nvars, int k, int j, int i) {
  CellState c;
  c.r = s(Var::dens, k, j, i) + hy_r(k);
  c.u = s(Var::umom, k, j, i) / c.r;
  c.v = nvars > 4 ? s(Var::vmom, k, j, i) / c.r : 0.0;
  c.w = s(Var::wmom, k, j, i) / c.r;
  c.theta = (s(Var::rhot, k, j, i) + hy_rt(k)) / c.r;
  return c;
}

double global_reduce(double local, MPI_Op op, MPI_Comm comm) {
  double global = 0;
  MPI_Allreduce(&local, &global, 1, MPI_DOUBLE, op, comm);
  return global;
}

}  // namespace

std::pair<double, double> WeatherSolver::mass_and_energy() {
  using namespace kernels::weather;
  const Field s = state_;
  const Column hy_r = hy_dens_cell_, hy_rt = hy_dens_theta_cell_;
  const int nvars = params_.variables();
  double volume = params_.geometry.spacing(0) * params_.geometry.spacing(2);
  if (params_.three_d()) volume *= params_.geometry.spacing(1);
  const Sums<2> local = sums_.sum_cells<2>(
      "weather::mass_and_energy", decomposition_.local_cells(), ghost_,
      KOKKOS_LAMBDA(int k, int j, int i, double* sum) {
        const CellState c = cell_state(s, hy_r, hy_rt, nvars, k, j, i);
        const double p = pressure(c.r * c.theta);
        const double temperature = c.theta / math::pow(p0 / p, rd / cp);
        const double ke = c.r * (c.u * c.u + c.v * c.v + c.w * c.w);
        sum[0] += (s(Var::dens, k, j, i) + hy_r(k)) * volume;
        sum[1] += (ke + c.r * cv * temperature) * volume;
      });
  double global[2];
  MPI_Allreduce(local.value, global, 2, MPI_DOUBLE, MPI_SUM, decomposition_.comm());
  return {global[0], global[1]};
}

std::vector<Diagnostic> WeatherSolver::diagnostics(double /*time*/) {
  const auto [mass, te] = mass_and_energy();
  const Field s = state_;
  const Column hy_r = hy_dens_cell_, hy_rt = hy_dens_theta_cell_;
  const int nvars = params_.variables();
  const CellPolicy cells = owned_cells(decomposition_.local_cells(), ghost_);
  double theta_min = 0, theta_max = 0, w_max = 0;
  Kokkos::parallel_reduce(
      "weather::theta_min", cells,
      KOKKOS_LAMBDA(int k, int j, int i, double& m) {
        const double t = cell_state(s, hy_r, hy_rt, nvars, k, j, i).theta - hy_rt(k) / hy_r(k);
        m = math::min(m, t);
      },
      Kokkos::Min<double>(theta_min));
  Kokkos::parallel_reduce(
      "weather::theta_max", cells,
      KOKKOS_LAMBDA(int k, int j, int i, double& m) {
        const double t = cell_state(s, hy_r, hy_rt, nvars, k, j, i).theta - hy_rt(k) / hy_r(k);
        m = math::max(m, t);
      },
      Kokkos::Max<double>(theta_max));
  Kokkos::parallel_reduce(
      "weather::w_max", cells,
      KOKKOS_LAMBDA(int k, int j, int i, double& m) {
        m = math::max(m, math::fabs(cell_state(s, hy_r, hy_rt, nvars, k, j, i).w));
      },
      Kokkos::Max<double>(w_max));
  const MPI_Comm comm = decomposition_.comm();
  return {{"mass", mass},
          {"total_energy", te},
          {"d_mass", (mass - mass0_) / mass0_},
          {"d_te", (te - te0_) / te0_},
          {"theta_pert_min", global_reduce(theta_min, MPI_MIN, comm)},
          {"theta_pert_max", global_reduce(theta_max, MPI_MAX, comm)},
          {"w_max", global_reduce(w_max, MPI_MAX, comm)}};
}

std::vector<std::string> WeatherSolver::summary_lines() {
  const auto [mass, te] = mass_and_energy();
  char line[2][64];
  std::snprintf(line[0], sizeof line[0], "d_mass: %.6e", (mass - mass0_) / mass0_);
  std::snprintf(line[1], sizeof line[1], "d_te:   %.6e", (te - te0_) / te0_);
  return {line[0], line[1]};
}

std::string WeatherSolver::locate_non_finite() {
  std::vector<std::string> names = {"rho_pert", "rho_u", "rho_w", "rho_theta_pert", "rho_v"};
  names.resize(params_.variables());
  return first_non_finite(state_, names, decomposition_, ghost_);
}

void WeatherSolver::compute_derived() {
  const Field s = state_, d = derived_;
  const Column hy_r = hy_dens_cell_, hy_rt = hy_dens_theta_cell_;
  const int nvars = params_.variables();
  Kokkos::parallel_for(
      "weather::derived", owned_cells(decomposition_.local_cells(), ghost_),
      KOKKOS_LAMBDA(int k, int j, int i) {
        const CellState c = cell_state(s, hy_r, hy_rt, nvars, k, j, i);
        d(0, k, j, i) = c.u;
        d(1, k, j, i) = c.w;
        d(2, k, j, i) = c.theta - hy_rt(k) / hy_r(k);
        d(3, k, j, i) = s(Var::dens, k, j, i);
        if (nvars > 4) d(4, k, j, i) = c.v;
      });
}

// The output fields in output order, with their component of derived_
// (compute_derived); "v" only in 3-D.
struct DerivedField {
  const char* name;
  int component;
};
constexpr DerivedField derived_fields[] = {
    {"theta_pert", 2}, {"u", 0}, {"w", 1}, {"rho_pert", 3}, {"v", 4}};

std::vector<std::string> output_field_names(const Params& params) {
  const int count = params.three_d() ? 5 : 4;
  std::vector<std::string> names;
  for (int n = 0; n < count; ++n) names.push_back(derived_fields[n].name);
  return names;
}

std::vector<FieldComponent> WeatherSolver::output_fields() {
  compute_derived();
  std::vector<FieldComponent> fields;
  const std::size_t count = output_field_names(params_).size();
  for (std::size_t n = 0; n < count; ++n)
    fields.push_back({derived_fields[n].name, derived_, derived_fields[n].component});
  return fields;
}

std::vector<FieldComponent> WeatherSolver::checkpoint_fields() {
  std::vector<FieldComponent> fields = {{"rho_pert", state_, Var::dens},
                                        {"rho_u", state_, Var::umom},
                                        {"rho_w", state_, Var::wmom},
                                        {"rho_theta_pert", state_, Var::rhot}};
  if (params_.three_d()) fields.push_back({"rho_v", state_, Var::vmom});
  return fields;
}

std::vector<std::pair<std::string, double>> WeatherSolver::checkpoint_scalars() const {
  return {{"direction_switch", double(direction_switch_)}, {"mass0", mass0_}, {"te0", te0_}};
}

void WeatherSolver::restore(const std::vector<std::pair<std::string, double>>& scalars) {
  for (const auto& [name, value] : scalars) {
    if (name == "direction_switch") direction_switch_ = int(value);
    if (name == "mass0") mass0_ = value;
    if (name == "te0") te0_ = value;
  }
}

}  // namespace cb::weather
