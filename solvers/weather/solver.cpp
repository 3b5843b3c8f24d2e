#include "solvers/weather/solver.hpp"

#include "kernels/quadrature.hpp"
#include "kernels/weather/sponge.hpp"
#include "solvers/weather/tendencies.hpp"

namespace cb::weather {
namespace {

using kernels::weather::Var;

using kernels::gauss3_node, kernels::gauss3_weight;

}  // namespace

double field_bytes(const Params& params, int ranks) {
  const int vars = params.variables();
  // state, state_tmp, flux (vars each), the derived output fields, the tracer factors, Exner,
  // the surface rain and the eddy viscosity
  const int extra = params.tracers() + (params.moisture.kessler ? 3 : 0) +
                    (params.turbulence.smagorinsky() ? 1 : 0);
  return (3.0 * vars + vars + extra) * padded_global_cells(params.geometry, halo_width) *
         sizeof(real) / ranks;
}

WeatherSolver::WeatherSolver(const Params& params, const Decomposition& decomposition,
                             const RunContext& context)
    : params_(params),
      decomposition_(decomposition),
      halo_(decomposition, halo_width, params.variables(), context.comm),
      ghost_(ghost_widths(params.geometry.cells, halo_width)),
      setup_(case_setup(params)) {
  const Int3& n = decomposition.local_cells();
  const int vars = params.variables();
  state_ = padded_field("weather::state", vars, n, ghost_);
  state_tmp_ = padded_field("weather::state_tmp", vars, n, ghost_);
  flux_ = padded_field("weather::flux", vars, n, ghost_);
  derived_ = padded_field("weather::derived", vars + (writes_theta_e(params) ? 1 : 0), n, ghost_);
  const int nk = n[2] + 2 * ghost_[2];
  hy_dens_cell_ = Column("weather::hy_dens_cell", nk);
  hy_dens_theta_cell_ = Column("weather::hy_dens_theta_cell", nk);
  hy_dens_int_ = Column("weather::hy_dens_int", nk + 1);
  hy_dens_theta_int_ = Column("weather::hy_dens_theta_int", nk + 1);
  hy_pressure_int_ = Column("weather::hy_pressure_int", nk + 1);
  hy_water_cell_ = WaterColumns("weather::hy_water_cell", moist_tracers, nk);
  hy_water_ratio_ = WaterColumns("weather::hy_water_ratio", moist_tracers, nk);
  if (params.tracers() > 0) {
    tracer_factor_ = padded_field("weather::tracer_factor", params.tracers(), n, ghost_);
    Kokkos::deep_copy(tracer_factor_, real(1));  // wall ghosts keep 1 (no flux crosses walls)
    factor_halo_ =
        std::make_unique<HaloExchange>(decomposition, halo_width, params.tracers(), context.comm);
  }
  if (params.moisture.kessler) {
    exner_ = padded_field("weather::exner", 1, n, ghost_);
    surface_ = padded_field("weather::surface_rain", 2, n, ghost_);
  }
  face_pressure_ =
      padded_field("weather::face_pressure", params_.moisture.exact ? 2 : 1, n, ghost_);
  if (params.turbulence.smagorinsky()) {
    eddy_ = padded_field("weather::eddy_viscosity", 1, n, ghost_);  // wall ghosts stay 0
    eddy_halo_ = std::make_unique<HaloExchange>(decomposition, halo_width, 1, context.comm);
  }
  if (params.moisture.dynamics) {
    initialize_moist_background();
    initialize_moist_state();
  } else {
    initialize_background();
    initialize_state();
  }
  const auto [mass, te] = mass_and_energy();
  mass0_ = mass;
  te0_ = te;
  if (params.tracers() > 0) water0_ = water_mass().first;
}

// Background columns, as miniWeather computes them: cell values from the
// centre height (summed with the quadrature weights), interface values exact.
void WeatherSolver::initialize_background() {
  const LocalGrid grid = local_grid();
  const CaseSetup c = setup_;
  const Column r_cell = hy_dens_cell_, rt_cell = hy_dens_theta_cell_;
  const Column r_int = hy_dens_int_, rt_int = hy_dens_theta_int_, p_int = hy_pressure_int_;
  Kokkos::parallel_for(
      "weather::background", Kokkos::RangePolicy<ExecSpace>(0, int(r_int.extent(0))),
      KOKKOS_LAMBDA(int k) {
        double hr = 0, ht = 0;
        if (k < int(r_cell.extent(0))) {
          const double zc = grid.center(2, k);
          double sum_r = 0, sum_rt = 0;
          for (int kk = 0; kk < 3; ++kk) {
            background(c, zc, hr, ht);
            sum_r += hr * gauss3_weight(kk);
            sum_rt += hr * ht * gauss3_weight(kk);
          }
          r_cell(k) = sum_r;
          rt_cell(k) = sum_rt;
        }
        background(c, (k + grid.shift[2]) * grid.h[2], hr, ht);
        r_int(k) = hr;
        rt_int(k) = hr * ht;
        p_int(k) = kernels::weather::pressure(hr * ht);
      });
}

// Cell averages by 3-point Gauss-Legendre quadrature per axis in use.
void WeatherSolver::initialize_state() {
  const LocalGrid grid = local_grid();
  const CaseSetup c = setup_;
  const Field s = state_;
  const int ny_points = params_.three_d() ? 3 : 1;
  const int nvars = params_.dynamic_variables(), ntracers = params_.tracers();
  Kokkos::parallel_for(
      "weather::initial_state", owned_cells(decomposition_.local_cells(), ghost_),
      KOKKOS_LAMBDA(int k, int j, int i) {
        double sum[5] = {0, 0, 0, 0, 0}, water[moist_tracers] = {0, 0, 0};
        for (int kk = 0; kk < 3; ++kk) {
          for (int jj = 0; jj < ny_points; ++jj) {
            for (int ii = 0; ii < 3; ++ii) {
              const double x = grid.center(0, i) + gauss3_node(ii) * grid.h[0];
              const double y = ny_points > 1 ? grid.center(1, j) + gauss3_node(jj) * grid.h[1]
                                             : grid.center(1, j);
              const double z = grid.center(2, k) + gauss3_node(kk) * grid.h[2];
              const double w = ny_points > 1
                                   ? gauss3_weight(ii) * gauss3_weight(jj) * gauss3_weight(kk)
                                   : gauss3_weight(ii) * gauss3_weight(kk);
              const PointState p = sample_case(c, x, y, z);
              sum[Var::dens] += p.r * w;
              sum[Var::umom] += (p.r + p.hr) * p.u * w;
              sum[Var::wmom] += (p.r + p.hr) * p.w * w;
              sum[Var::rhot] += ((p.r + p.hr) * (p.t + p.ht) - p.hr * p.ht) * w;
              sum[Var::vmom] += (p.r + p.hr) * p.v * w;
              if (ntracers > 0) {
                const PointWater q = sample_water(c, p);
                water[0] += (p.r + p.hr) * q.qv * w;
                water[1] += (p.r + p.hr) * q.qc * w;
                water[2] += (p.r + p.hr) * q.qr * w;
              }
            }
          }
        }
        for (int v = 0; v < nvars; ++v) s(v, k, j, i) = sum[v];
        for (int t = 0; t < ntracers; ++t) s(nvars + t, k, j, i) = water[t];
      });
  Kokkos::deep_copy(state_tmp_, state_);
}

// One time step: three RK stages per direction, directions in alternating
// order (x, y, z then z, y, x): Strang-like splitting, second order in time.
void WeatherSolver::step(double /*time*/, double dt, PhaseTimer& timer) {
  int order[3] = {0, 1, 2};
  if (!direction_switch_) order[0] = 2, order[2] = 0;
  if (params_.turbulence.smagorinsky()) update_eddy_viscosity(dt, timer);
  for (int axis : order) {
    if (axis == 1 && !params_.three_d()) continue;
    semi_discrete_step(state_, state_, state_tmp_, dt / 3, axis, timer);
    semi_discrete_step(state_, state_tmp_, state_tmp_, dt / 2, axis, timer);
    semi_discrete_step(state_, state_tmp_, state_, dt / 1, axis, timer);
  }
  direction_switch_ = 1 - direction_switch_;
  if (params_.sponge.enabled()) apply_sponge(dt);
  if (params_.moisture.kessler) {
    Kokkos::fence();  // so that the timer sees the microphysics alone
    Kokkos::Timer timer_physics;
    Kokkos::Profiling::pushRegion("weather::microphysics");
    apply_microphysics(dt);
    Kokkos::Profiling::popRegion();
    Kokkos::fence();
    physics_seconds_ += timer_physics.seconds();
  }
}

// The absorbing layer's damping of rho w, once per step after the dynamics (Klemp et al.
// 2008 damp w at the end of each acoustic step; this solver has no acoustic sub-steps).
void WeatherSolver::apply_sponge(double dt) {
  const LocalGrid grid = local_grid();
  const Field s = state_;
  const double top = params_.geometry.hi[2], depth = params_.sponge.depth;
  const double gamma = params_.sponge.rate;
  Kokkos::parallel_for(
      "weather::sponge", owned_cells(decomposition_.local_cells(), ghost_),
      KOKKOS_LAMBDA(int k, int j, int i) {
        const double rate = kernels::weather::sponge_rate(grid.center(2, k), top, depth, gamma);
        if (rate > 0.0) {
          s(Var::wmom, k, j, i) =
              kernels::weather::damped_vertical_momentum(s(Var::wmom, k, j, i), rate, dt);
        }
      });
}

// out = init + dt * rhs_axis(forcing)
void WeatherSolver::semi_discrete_step(const Field& init, const Field& forcing, const Field& out,
                                       double dt, int axis, PhaseTimer& timer) {
  fill_ghosts(forcing, axis, timer);
  compute_fluxes(forcing, axis, dt);
  if (params_.tracers() > 0) {
    limit_tracer_fluxes(init, axis, dt);
    ScopedPhase halo_phase(timer, Phase::halo, "weather::halo");
    factor_halo_->exchange(tracer_factor_, axis);
  }
  apply_tendencies(init, forcing, out, axis, dt);
  if (params_.tracers() > 0) apply_tracer_tendencies(init, out, axis, dt);
}

void WeatherSolver::fill_ghosts(const Field& state, int axis, PhaseTimer& timer) {
  {
    ScopedPhase halo_phase(timer, Phase::halo, "weather::halo");
    halo_.exchange(state, axis);
  }
  if (!params_.geometry.periodic[axis]) apply_wall_ghosts(state, axis);
  if (axis == 0 && setup_.kind == Case::injection && decomposition_.offset()[0] == 0) {
    apply_injection(state);
  }
}

// The Smagorinsky K of the step, from the state at its start: every axis's ghosts, then K in
// the owned cells, then K's halo so that each face has both of its cells'.
void WeatherSolver::update_eddy_viscosity(double dt, PhaseTimer& timer) {
  for (int axis = 0; axis < 3; ++axis) {
    if (axis != 1 || params_.three_d()) fill_ghosts(state_, axis, timer);
  }
  compute_eddy_viscosity(dt);
  ScopedPhase halo_phase(timer, Phase::halo, "weather::halo");
  eddy_halo_->exchange(eddy_);
}

}  // namespace cb::weather
