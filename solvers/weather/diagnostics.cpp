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

// Checkpoint names of the moist tracers (densities, kg/m^3).
constexpr const char* tracer_names[moist_tracers] = {"rho_qv", "rho_qc", "rho_qr"};

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

double WeatherSolver::cell_volume() const {
  double volume = params_.geometry.spacing(0) * params_.geometry.spacing(2);
  if (params_.three_d()) volume *= params_.geometry.spacing(1);
  return volume;
}

std::pair<double, double> WeatherSolver::mass_and_energy() {
  using namespace kernels::weather;
  const Field s = state_;
  const Column hy_r = hy_dens_cell_, hy_rt = hy_dens_theta_cell_;
  const int nvars = params_.dynamic_variables();
  const double volume = cell_volume();
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
  const int nvars = params_.dynamic_variables();
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
  std::vector<Diagnostic> rows = {{"mass", mass},
                                  {"total_energy", te},
                                  {"d_mass", (mass - mass0_) / mass0_},
                                  {"d_te", (te - te0_) / te0_},
                                  {"theta_pert_min", global_reduce(theta_min, MPI_MIN, comm)},
                                  {"theta_pert_max", global_reduce(theta_max, MPI_MAX, comm)},
                                  {"w_max", global_reduce(w_max, MPI_MAX, comm)}};
  if (params_.tracers() > 0) append_water_diagnostics(rows);
  return rows;
}

// Water in the air and, with microphysics, the rain that fell out (kg; per metre of y in 2-D).
std::pair<double, double> WeatherSolver::water_mass() {
  const Field s = state_, surface = surface_;
  const int first = params_.dynamic_variables();
  const bool rain = params_.moisture.kessler;
  const Sums<2> local = sums_.sum_cells<2>(
      "weather::water_mass", decomposition_.local_cells(), ghost_,
      KOKKOS_LAMBDA(int k, int j, int i, double* sum) {
        for (int t = 0; t < moist_tracers; ++t) sum[0] += s(first + t, k, j, i);
        if (rain) sum[1] += surface(1, k, j, i);  // 0 above the lowest level
      });
  double global[2];
  MPI_Allreduce(local.value, global, 2, MPI_DOUBLE, MPI_SUM, decomposition_.comm());
  const double volume = cell_volume();
  return {global[0] * volume, global[1] * volume / params_.geometry.spacing(2)};
}

// Moist runs: water mass (kg), its relative change, the smallest mixing ratio of each species
// (never negative) and the largest cloud and rain mixing ratios.
void WeatherSolver::append_water_diagnostics(std::vector<Diagnostic>& rows) {
  const Field s = state_;
  const Column hy_r = hy_dens_cell_;
  const int first = params_.dynamic_variables();
  const CellPolicy cells = owned_cells(decomposition_.local_cells(), ghost_);
  const MPI_Comm comm = decomposition_.comm();
  const auto [air, fallen] = water_mass();
  rows.push_back({"water", air + fallen});  // the budget: in the air plus fallen out
  rows.push_back({"d_water", (air + fallen - water0_) / water0_});
  if (params_.moisture.kessler) {
    rows.push_back({"rain_fallen", fallen});
    const Field surface = surface_;
    const int bottom = ghost_[2];
    double rate_max = 0;
    Kokkos::parallel_reduce(
        "weather::precip_rate_max", cells,
        KOKKOS_LAMBDA(int k, int j, int i, double& m) {
          if (k == bottom) m = math::max(m, double(surface(0, k, j, i)));
        },
        Kokkos::Max<double>(rate_max));
    rows.push_back({"precip_rate_max", global_reduce(rate_max, MPI_MAX, comm)});
  }
  const char* names[moist_tracers] = {"qv", "qc", "qr"};
  for (int t = 0; t < moist_tracers; ++t) {
    const int v = first + t;
    double q_min = 0, q_max = 0;
    Kokkos::parallel_reduce(
        "weather::water_min", cells,
        KOKKOS_LAMBDA(int k, int j, int i, double& m) {
          m = math::min(m, s(v, k, j, i) / (s(Var::dens, k, j, i) + hy_r(k)));
        },
        Kokkos::Min<double>(q_min));
    rows.push_back({std::string(names[t]) + "_min", global_reduce(q_min, MPI_MIN, comm)});
    if (t == 0) continue;
    Kokkos::parallel_reduce(
        "weather::water_max", cells,
        KOKKOS_LAMBDA(int k, int j, int i, double& m) {
          m = math::max(m, s(v, k, j, i) / (s(Var::dens, k, j, i) + hy_r(k)));
        },
        Kokkos::Max<double>(q_max));
    rows.push_back({std::string(names[t]) + "_max", global_reduce(q_max, MPI_MAX, comm)});
  }
  if (setup_.kind == Case::bryan_fritsch) append_theta_e(rows);
}

namespace {

// theta_e - theta_e_bar of a cell of a moist Bryan & Fritsch run: the equivalent potential
// temperature of the model's thermodynamics (moist_background.hpp) less the background's.
KOKKOS_INLINE_FUNCTION double theta_e_pert(const Field& s, const Column& hy_r, const Column& hy_rt,
                                           const WaterColumns& hy_water, int qv_var, bool exact,
                                           int k, int j, int i) {
  const double rho = s(Var::dens, k, j, i) + hy_r(k), rho_theta = s(Var::rhot, k, j, i) + hy_rt(k);
  const double water = s(qv_var, k, j, i) + s(qv_var + 1, k, j, i) + s(qv_var + 2, k, j, i);
  const double water_bar = hy_water(0, k) + hy_water(1, k) + hy_water(2, k);
  return bryan_fritsch::cell_equivalent_theta(rho, rho_theta, s(qv_var, k, j, i) / rho, water / rho,
                                              exact) -
         bryan_fritsch::cell_equivalent_theta(hy_r(k), hy_rt(k), hy_water(0, k) / hy_r(k),
                                              water_bar / hy_r(k), exact);
}

}  // namespace

bool writes_theta_e(const Params& params) {
  return params.kind == Case::bryan_fritsch && params.moisture.enabled;
}

// Bryan & Fritsch runs: the range of theta_e' (zero at the start outside the bubble).
void WeatherSolver::append_theta_e(std::vector<Diagnostic>& rows) {
  const Field s = state_;
  const Column hy_r = hy_dens_cell_, hy_rt = hy_dens_theta_cell_;
  const WaterColumns hy_water = hy_water_cell_;
  const int qv = params_.dynamic_variables();
  const bool exact = params_.moisture.exact;
  const CellPolicy cells = owned_cells(decomposition_.local_cells(), ghost_);
  double lo = 0, hi = 0;
  Kokkos::parallel_reduce(
      "weather::theta_e_pert_min", cells,
      KOKKOS_LAMBDA(int k, int j, int i, double& m) {
        m = math::min(m, theta_e_pert(s, hy_r, hy_rt, hy_water, qv, exact, k, j, i));
      },
      Kokkos::Min<double>(lo));
  Kokkos::parallel_reduce(
      "weather::theta_e_pert_max", cells,
      KOKKOS_LAMBDA(int k, int j, int i, double& m) {
        m = math::max(m, theta_e_pert(s, hy_r, hy_rt, hy_water, qv, exact, k, j, i));
      },
      Kokkos::Max<double>(hi));
  const MPI_Comm comm = decomposition_.comm();
  rows.push_back({"theta_e_pert_min", global_reduce(lo, MPI_MIN, comm)});
  rows.push_back({"theta_e_pert_max", global_reduce(hi, MPI_MAX, comm)});
}

std::vector<std::string> WeatherSolver::summary_lines() {
  const auto [mass, te] = mass_and_energy();
  char line[2][64];
  std::snprintf(line[0], sizeof line[0], "d_mass: %.6e", (mass - mass0_) / mass0_);
  std::snprintf(line[1], sizeof line[1], "d_te:   %.6e", (te - te0_) / te0_);
  if (!params_.moisture.kessler) return {line[0], line[1]};
  // Per-rank wall time; the rest of the compute phase is the dynamics.
  char physics[96];
  std::snprintf(physics, sizeof physics, "microphysics: %.3f s of the compute time (rank 0)",
                physics_seconds_);
  return {line[0], line[1], physics};
}

std::string WeatherSolver::locate_non_finite() {
  std::vector<std::string> names = {"rho_pert", "rho_u", "rho_w", "rho_theta_pert", "rho_v"};
  names.resize(params_.dynamic_variables());
  for (int t = 0; t < params_.tracers(); ++t) names.push_back(tracer_names[t]);
  return first_non_finite(state_, names, decomposition_, ghost_);
}

void WeatherSolver::compute_derived() {
  const Field s = state_, d = derived_;
  const Column hy_r = hy_dens_cell_, hy_rt = hy_dens_theta_cell_;
  const int nvars = params_.dynamic_variables(), ntracers = params_.tracers();
  Kokkos::parallel_for(
      "weather::derived", owned_cells(decomposition_.local_cells(), ghost_),
      KOKKOS_LAMBDA(int k, int j, int i) {
        const CellState c = cell_state(s, hy_r, hy_rt, nvars, k, j, i);
        d(0, k, j, i) = c.u;
        d(1, k, j, i) = c.w;
        d(2, k, j, i) = c.theta - hy_rt(k) / hy_r(k);
        d(3, k, j, i) = s(Var::dens, k, j, i);
        if (nvars > 4) d(4, k, j, i) = c.v;
        for (int t = nvars; t < nvars + ntracers; ++t) d(t, k, j, i) = s(t, k, j, i) / c.r;
      });
  if (!writes_theta_e(params_)) return;
  const WaterColumns hy_water = hy_water_cell_;
  const int last = nvars + ntracers;
  const bool exact = params_.moisture.exact;
  Kokkos::parallel_for(
      "weather::derived_theta_e", owned_cells(decomposition_.local_cells(), ghost_),
      KOKKOS_LAMBDA(int k, int j, int i) {
        d(last, k, j, i) = theta_e_pert(s, hy_r, hy_rt, hy_water, nvars, exact, k, j, i);
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

// Moist runs add the mixing ratios (kg/kg of dry air), components after the dynamic ones.
constexpr const char* mixing_ratio_names[moist_tracers] = {"qv", "qc", "qr"};

std::vector<std::string> output_field_names(const Params& params) {
  const int count = params.three_d() ? 5 : 4;
  std::vector<std::string> names;
  for (int n = 0; n < count; ++n) names.push_back(derived_fields[n].name);
  for (int t = 0; t < params.tracers(); ++t) names.push_back(mixing_ratio_names[t]);
  if (params.moisture.kessler) names.insert(names.end(), {"precip_rate", "rain_accumulated"});
  if (writes_theta_e(params)) names.push_back("theta_e_pert");
  return names;
}

std::vector<FieldComponent> WeatherSolver::output_fields() {
  compute_derived();
  std::vector<FieldComponent> fields;
  const int count = params_.dynamic_variables();
  for (int n = 0; n < count; ++n)
    fields.push_back({derived_fields[n].name, derived_, derived_fields[n].component});
  for (int t = 0; t < params_.tracers(); ++t)
    fields.push_back({mixing_ratio_names[t], derived_, count + t});
  append_surface_rain(fields, true);
  if (writes_theta_e(params_))
    fields.push_back({"theta_e_pert", derived_, count + params_.tracers()});
  return fields;
}

std::vector<FieldComponent> WeatherSolver::checkpoint_fields() {
  std::vector<FieldComponent> fields = {{"rho_pert", state_, Var::dens},
                                        {"rho_u", state_, Var::umom},
                                        {"rho_w", state_, Var::wmom},
                                        {"rho_theta_pert", state_, Var::rhot}};
  if (params_.three_d()) fields.push_back({"rho_v", state_, Var::vmom});
  for (int t = 0; t < params_.tracers(); ++t)
    fields.push_back({tracer_names[t], state_, params_.dynamic_variables() + t});
  append_surface_rain(fields, false);
  return fields;
}

// Surface rain of Kessler runs, kept at the lowest level of a 3-D field (zero above): the
// precipitation rate in kg/(m^2 s) (= mm/s) and the rain accumulated since t = 0 in kg/m^2
// (mm). Field output writes the ground layer alone (a [1][ny][nx] dataset, surface.xmf);
// checkpoints keep the whole field.
void WeatherSolver::append_surface_rain(std::vector<FieldComponent>& fields, bool ground_layer) {
  if (!params_.moisture.kessler) return;
  fields.push_back({"precip_rate", surface_, 0, ground_layer});
  fields.push_back({"rain_accumulated", surface_, 1, ground_layer});
}

std::vector<std::pair<std::string, double>> WeatherSolver::checkpoint_scalars() const {
  std::vector<std::pair<std::string, double>> scalars = {
      {"direction_switch", double(direction_switch_)}, {"mass0", mass0_}, {"te0", te0_}};
  if (params_.tracers() > 0) scalars.push_back({"water0", water0_});
  return scalars;
}

void WeatherSolver::restore(const std::vector<std::pair<std::string, double>>& scalars) {
  for (const auto& [name, value] : scalars) {
    if (name == "direction_switch") direction_switch_ = int(value);
    if (name == "mass0") mass0_ = value;
    if (name == "te0") te0_ = value;
    if (name == "water0") water0_ = value;
  }
}

}  // namespace cb::weather
