// Weather solver: dry, compressible, stratified, non-hydrostatic flow in 2-D
// (x-z) or 3-D, the numerics of miniWeather (M. Norman, ORNL): finite volumes,
// fourth-order interface interpolation, fourth-order hyperviscosity, a 3-stage
// Runge-Kutta (dt/3, dt/2, dt) per direction with dimensional splitting whose
// order alternates every step. Decomposed over MPI in every direction.
#pragma once

#include "core/decomposition.hpp"
#include "core/halo.hpp"
#include "core/local_grid.hpp"
#include "core/ordered_sum.hpp"
#include "core/solver.hpp"
#include "solvers/weather/moist_background.hpp"
#include "solvers/weather/params.hpp"

#include <memory>

namespace cb::weather {

using Column = Kokkos::View<double*, MemSpace>;  // background profile over padded k
// Background water densities rho_bar q_bar (vapour, cloud, rain) over padded k.
using WaterColumns = Kokkos::View<double**, MemSpace>;

class WeatherSolver : public GridSolver {
 public:
  WeatherSolver(const Params& params, const Decomposition& decomposition,
                const RunContext& context = {});

  std::string name() const override { return "weather"; }
  std::string case_name() const override { return params_.case_name; }
  double stable_dt() override { return weather::stable_dt(params_); }
  void step(double time, double dt, PhaseTimer& timer) override;
  std::vector<Diagnostic> diagnostics(double time) override;
  std::string locate_non_finite() override;
  std::vector<FieldComponent> output_fields() override;
  std::vector<FieldComponent> checkpoint_fields() override;
  std::vector<std::pair<std::string, double>> checkpoint_scalars() const override;
  void restore(const std::vector<std::pair<std::string, double>>& scalars) override;
  std::vector<std::string> summary_lines() override;
  const GridGeometry& geometry() const override { return params_.geometry; }
  int halo() const override { return halo_width; }
  double work_per_step() const override { return double(params_.geometry.total_cells()); }

  LocalGrid local_grid() const { return make_local_grid(params_.geometry, decomposition_, ghost_); }
  // Global mass and total energy (miniWeather's definitions).
  std::pair<double, double> mass_and_energy();
  // Global mass of water (moist runs), kg: (vapour + cloud + rain in the air, rain fallen out).
  std::pair<double, double> water_mass();
  void append_water_diagnostics(std::vector<Diagnostic>& rows);
  void append_theta_e(std::vector<Diagnostic>& rows);
  void append_surface_rain(std::vector<FieldComponent>& fields, bool ground_layer);
  double cell_volume() const;

  // Kernel launch sites. Public only because CUDA does not allow an extended
  // (__host__ __device__) lambda inside a private member function.
  void initialize_state();
  void initialize_background();
  void initialize_moist_background();
  void initialize_moist_state();
  void apply_wall_ghosts(const Field& state, int axis);
  void apply_injection(const Field& state);
  void compute_fluxes(const Field& state, int axis, double dt);
  void apply_tendencies(const Field& init, const Field& forcing, const Field& out, int axis,
                        double dt);
  void limit_tracer_fluxes(const Field& init, int axis, double dt);
  void apply_microphysics(double dt);
  void apply_sponge(double dt);
  void apply_tracer_tendencies(const Field& init, const Field& out, int axis, double dt);
  void compute_derived();
  void compute_eddy_viscosity(double dt);
  // The background density rho_bar at the cell centres, over padded k.
  const Column& background_density() const { return hy_dens_cell_; }
  // Smagorinsky runs: the eddy viscosity K of the last step's cells (m^2/s).
  const Field& eddy_viscosity() const { return eddy_; }

 private:
  void semi_discrete_step(const Field& init, const Field& forcing, const Field& out, double dt,
                          int axis, PhaseTimer& timer);
  void fill_ghosts(const Field& state, int axis, PhaseTimer& timer);
  void update_eddy_viscosity(double dt, PhaseTimer& timer);

  Params params_;
  const Decomposition& decomposition_;
  HaloExchange halo_;
  Int3 ghost_;
  CaseSetup setup_;
  Field state_, state_tmp_, flux_, derived_;
  // Moist runs: per cell and tracer, the factor on its outgoing fluxes of a stage (Skamarock
  // 2006), exchanged along the sweep so each face takes its upwind cell's.
  Field tracer_factor_;
  // The pressure in each face's momentum flux, of one sweep; with exact thermodynamics also
  // the face's normal velocity (component 1).
  Field face_pressure_;
  std::unique_ptr<HaloExchange> factor_halo_;
  // Kessler runs: the Exner function before the microphysics; at the lowest owned level, the
  // surface precipitation rate (kg/(m^2 s)) and the rain accumulated since the start (kg/m^2).
  Field exner_, surface_;
  // Smagorinsky runs: the eddy viscosity K of each cell over the step, with its halo.
  Field eddy_;
  std::unique_ptr<HaloExchange> eddy_halo_;
  Column hy_dens_cell_, hy_dens_theta_cell_;                  // cell centres
  Column hy_dens_int_, hy_dens_theta_int_, hy_pressure_int_;  // low faces
  // Water-dynamics runs: the background's water densities at cell centres, its mixing ratios
  // as the state's would be at rest (wall ghosts by the ghosts' rule), and its Exner table.
  WaterColumns hy_water_cell_, hy_water_ratio_;
  ExnerTable exner_table_;
  int direction_switch_ = 1;  // 1: x (y) z this step, 0: z (y) x
  double mass0_ = 0.0, te0_ = 0.0, water0_ = 0.0;
  double physics_seconds_ = 0.0;  // wall time in the microphysics, this run
  OrderedSum sums_;               // diagnostics, the same on every thread count
};

double field_bytes(const Params& params, int ranks);

// The fields [output] fields may name (derived from the state at output time).
std::vector<std::string> output_field_names(const Params& params);
// Moist Bryan & Fritsch runs output theta_e' (a derived field after the mixing ratios).
bool writes_theta_e(const Params& params);

}  // namespace cb::weather
