// Time stepping of the CFD solver. Three kernels per RK stage; memory traffic
// per owned cell and stage in 3-D, double precision (8 B), stencil neighbours
// assumed cached, Euler and Navier-Stokes alike (the viscous terms read only the
// primitive array):
//   cfd::primitives     read U (40 B), write W (40 B)                       80 B
//   cfd::face_fluxes    read W (40 B), write the x, y, z fluxes (120 B)    160 B
//   cfd::update_stage   read U, U^n and the three fluxes (200 B), write U
//                       (40 B); stage 1 writes U^n instead of reading it   240 B
// Total 480 B per cell per stage (2-D: 400 B, 1-D: 320 B), plus the ghost
// layers of the primitive kernel and the halo exchange; the step-start copy is
// folded into stage 1. CPU caches that allocate on write also read every
// written line first (+200 B per cell and stage).
#include "kernels/cfd/fourth_order.hpp"
#include "kernels/quadrature.hpp"
#include "solvers/cfd/fluxes.hpp"

#include <mpi.h>

namespace cb::cfd {
namespace {

using kernels::cfd::Primitive;
using kernels::cfd::Reconstruction;
using kernels::cfd::RiemannSolver;

// The initial U of cell (k, j, i): the mean over the product Gauss rule with
// nodes.x/y/z (1: the centre; 3: kernels/cfd/fourth_order.hpp) points per axis.
KOKKOS_INLINE_FUNCTION kernels::cfd::Conserved cell_state(const CaseSetup& c, const LocalGrid& grid,
                                                          const Index3& nodes, int k, int j, int i,
                                                          real gamma) {
  using kernels::gauss3_node, kernels::gauss3_weight;
  const int n[3] = {nodes.x, nodes.y, nodes.z}, cell[3] = {i, j, k};
  real sum[kernels::cfd::variables] = {0, 0, 0, 0, 0};
  for (int qz = 0; qz < n[2]; ++qz) {
    for (int qy = 0; qy < n[1]; ++qy) {
      for (int qx = 0; qx < n[0]; ++qx) {
        const int q[3] = {qx, qy, qz};
        double weight = 1.0, at[3];
        for (int a = 0; a < 3; ++a) {
          const bool gauss = n[a] == 3;
          weight *= gauss ? gauss3_weight(q[a]) : 1.0;
          at[a] = grid.center(a, cell[a]) + (gauss ? gauss3_node(q[a]) : 0.0) * grid.h[a];
        }
        const kernels::cfd::Conserved u =
            kernels::cfd::to_conserved(initial_state(c, at[0], at[1], at[2]), gamma);
        const real values[5] = {u.rho, u.mom[0], u.mom[1], u.mom[2], u.energy};
        for (int v = 0; v < kernels::cfd::variables; ++v) sum[v] += real(weight) * values[v];
      }
    }
  }
  return {sum[0], {sum[1], sum[2], sum[3]}, sum[4]};
}

// The face fluxes of the finite-volume schemes (reconstruction R, Riemann
// solver S) and of the finite-difference WENO5 scheme, for launch_fluxes.
template <Reconstruction R, RiemannSolver S>
struct FiniteVolumeFace {
  template <int Axis>
  KOKKOS_FORCEINLINE_FUNCTION static kernels::cfd::Conserved flux(const Field& prim, int k, int j,
                                                                  int i, const FluxParams& p,
                                                                  bool& fallback) {
    return face_flux<Axis, R, S>(prim, k, j, i, p, fallback);
  }
};

struct FiniteDifferenceFace {
  template <int Axis>
  KOKKOS_FORCEINLINE_FUNCTION static kernels::cfd::Conserved flux(const Field& prim, int k, int j,
                                                                  int i, const FluxParams& p,
                                                                  bool&) {
    return finite_difference_flux<Axis>(prim, k, j, i, p);
  }
};

template <int Axis, class Face>
KOKKOS_FORCEINLINE_FUNCTION long long store_face_flux(const Field& prim, const Field& flux, int k,
                                                      int j, int i, const FluxParams& p,
                                                      const FaceRanges& r) {
  bool fallback = false;
  kernels::cfd::store_conserved(flux, k, j, i,
                                Face::template flux<Axis>(prim, k, j, i, p, fallback));
  const int face = Axis == 0 ? i : Axis == 1 ? j : k;
  return fallback && face < r.count_end[Axis] ? 1 : 0;
}

// The Views the flux kernel reads and writes.
struct Fluxes {
  Field prim, x, y, z;
  Counter fallback_faces;
};

// The low-face fluxes of every used axis in one kernel (the primitive state of
// a cell is read once for the three axes).
template <class Face>
void launch_fluxes(const Fluxes& f, const FluxParams& p, const CellPolicy& cells,
                   const FaceRanges& r) {
  const Field prim = f.prim, fx = f.x, fy = f.y, fz = f.z;
  const Counter fallback_faces = f.fallback_faces;
  Kokkos::parallel_for(
      "cfd::face_fluxes", cells, KOKKOS_LAMBDA(int k, int j, int i) {
        const bool in_i = i < r.owned_end[0], in_j = j < r.owned_end[1], in_k = k < r.owned_end[2];
        long long fallbacks = 0;
        if (p.active[0] && in_j && in_k)
          fallbacks += store_face_flux<0, Face>(prim, fx, k, j, i, p, r);
        if (p.active[1] && in_i && in_k)
          fallbacks += store_face_flux<1, Face>(prim, fy, k, j, i, p, r);
        if (p.active[2] && in_i && in_j)
          fallbacks += store_face_flux<2, Face>(prim, fz, k, j, i, p, r);
        if (fallbacks) Kokkos::atomic_add(&fallback_faces(), fallbacks);
      });
}

template <Reconstruction R>
void launch_fluxes(RiemannSolver s, const Fluxes& f, const FluxParams& p, const CellPolicy& cells,
                   const FaceRanges& r) {
  switch (s) {
    case RiemannSolver::hllc:
      return launch_fluxes<FiniteVolumeFace<R, RiemannSolver::hllc>>(f, p, cells, r);
    case RiemannSolver::hll:
      return launch_fluxes<FiniteVolumeFace<R, RiemannSolver::hll>>(f, p, cells, r);
    case RiemannSolver::rusanov:
      return launch_fluxes<FiniteVolumeFace<R, RiemannSolver::rusanov>>(f, p, cells, r);
  }
}

}  // namespace

CfdSolver::CfdSolver(const Params& params, const Decomposition& decomposition,
                     const RunContext& context)
    : params_(params),
      decomposition_(decomposition),
      halo_(decomposition, params.halo(), kernels::cfd::variables, context.comm),
      ghost_(ghost_widths(params.geometry.cells, params.halo())),
      fallback_faces_("cfd::fallback_faces") {
  const Int3& n = decomposition.local_cells();
  const int vars = kernels::cfd::variables;
  state_ = padded_field("cfd::state", vars, n, ghost_);
  state0_ = padded_field("cfd::state0", vars, n, ghost_);
  primitive_ = padded_field("cfd::primitive", vars, n, ghost_);
  const char* flux_labels[3] = {"cfd::flux_x", "cfd::flux_y", "cfd::flux_z"};
  for (int a = 0; a < 3; ++a) {
    flux_[a] = active(a) ? padded_field(flux_labels[a], vars, n, ghost_)
                         : Field(std::string(flux_labels[a]), vars, 1, 1, 1);
  }
  derived_ = padded_field("cfd::derived", 5, n, ghost_);
  if (params.fourth_order) {
    average_primitive_ = padded_field("cfd::average_primitive", vars, n, ghost_);
    face_state_ = padded_field("cfd::face_state", 2 * vars, n, ghost_);
    point_flux_ = padded_field("cfd::point_flux", vars + 1, n, ghost_);
  }
  initialize_state();
  if (has_bodies()) setup_bodies();
  const Real3* points[2] = {&params.probes.from, &params.probes.to};
  for (int p = 0; params.probes.enabled && p < 2; ++p)
    pressure_probe_[p] =
        locate_probe(*points[p], local_grid(), n, ghost_, cut_.volume, decomposition.comm());
}

// Point values at the cell centres (the usual finite-volume start of these
// benchmarks; it gives the Taylor-Green E_k(0) = 0.125 exactly on any grid);
// with [cfd] fourth_order, cell averages of U by the three-point Gauss rule
// on each used axis (sixth order).
void CfdSolver::initialize_state() {
  const LocalGrid grid = local_grid();
  const CaseSetup c = params_.setup;
  const Field s = state_;
  const real gamma = real(params_.gamma);
  Index3 nodes{1, 1, 1};
  if (params_.fourth_order) nodes = {active(0) ? 3 : 1, active(1) ? 3 : 1, active(2) ? 3 : 1};
  Kokkos::parallel_for(
      "cfd::initial_state", owned_cells(decomposition_.local_cells(), ghost_),
      KOKKOS_LAMBDA(int k, int j, int i) {
        kernels::cfd::store_conserved(s, k, j, i, cell_state(c, grid, nodes, k, j, i, gamma));
      });
}

// Largest sum over axes of (|u_d| + c) / h_d + 2 nu_eff / h_d^2 over the owned
// cells (nu_eff = mu / rho max(4/3, gamma / Pr)), reduced exactly (max).
double CfdSolver::max_signal_rate() {
  const Field s = state_;
  const real gamma = real(params_.gamma);
  const kernels::cfd::Viscosity visc = params_.viscosity;
  const bool viscous = params_.viscous();
  real inv_h[3];
  for (int a = 0; a < 3; ++a) inv_h[a] = active(a) ? real(1.0 / params_.geometry.spacing(a)) : 0;
  const real ih0 = inv_h[0], ih1 = inv_h[1], ih2 = inv_h[2];
  const real diffusive_factor =
      math::max(real(4.0 / 3.0), real(params_.gamma / params_.viscosity.prandtl));
  const bool bodies = has_bodies();
  const NodeView fraction = cut_.volume;
  double rate = 0;
  Kokkos::parallel_reduce(
      "cfd::max_signal_rate", owned_cells(decomposition_.local_cells(), ghost_),
      KOKKOS_LAMBDA(int k, int j, int i, double& m) {
        using namespace kernels::cfd;
        if (bodies && fraction(k, j, i) == 0.0) return;  // covered: inert
        const Primitive w = to_primitive(load_conserved(s, k, j, i), gamma);
        const real c = sound_speed(w, gamma);
        real r = (math::fabs(w.vel[0]) + c) * ih0 + (math::fabs(w.vel[1]) + c) * ih1 +
                 (math::fabs(w.vel[2]) + c) * ih2;
        if (viscous) {
          const real nu = dynamic_viscosity(visc, temperature(w)) / w.rho * diffusive_factor;
          r += real(2) * nu * (ih0 * ih0 + ih1 * ih1 + ih2 * ih2);
        }
        m = math::max(m, double(r));
      },
      Kokkos::Max<double>(rate));
  double global = 0;
  MPI_Allreduce(&rate, &global, 1, MPI_DOUBLE, MPI_MAX, decomposition_.comm());
  return global;
}

double CfdSolver::stable_dt() {
  return params_.cfl / max_signal_rate();
}

// One SSP Runge-Kutta step; stage s uses the boundary data at the time of
// its state, t + c_s dt (c = 0, 1 for RK2; 0, 1, 1/2 for RK3).
// The first stage's update also saves the step-start state.
void CfdSolver::step(double time, double dt, PhaseTimer& timer) {
  Kokkos::deep_copy(fallback_faces_, 0LL);
  const kernels::SspScheme scheme = kernels::ssp_scheme(params_.integrator);
  double stage_time = 0.0;
  std::array<double, 5> given{0.0, 0.0, 0.0, 0.0, 0.0};  // momentum, heat, work of the walls
  for (int s = 0; s < scheme.stages; ++s) {
    fill_ghosts(state_, time + stage_time * dt, timer);
    compute_primitives(state_);
    if (has_bodies() && params_.viscous()) compute_wall_gradients();
    compute_fluxes();
    if (has_bodies()) {
      // The walls' share of this stage's momentum, heat and work, weighted as the update is.
      const WallExchange x = wall_exchange(primitive_);
      const double rate[5] = {x.momentum[0], x.momentum[1], x.momentum[2], x.heat, x.work};
      for (int d = 0; d < 5; ++d)
        given[d] = scheme.stage[s].a1 * given[d] + scheme.stage[s].b * dt * rate[d];
      compute_cut_divergence();
      compute_excess();
      update_cut_stage(scheme.stage[s], dt, s == 0);
    } else {
      update_stage(scheme.stage[s], dt, s == 0);
    }
    stage_time = scheme.stage[s].a1 * stage_time + scheme.stage[s].b;
  }
  for (int d = 0; d < 3; ++d) wall_impulse_[d] += given[d];
  wall_heat_ += given[3];
  wall_work_ += given[4];
}

// The halo exchange fills rank and periodic ghosts on every axis; then the
// physical boundaries, axis by axis over all padded cells of the other axes,
// so that edges and corners hold the same values on any rank count.
void CfdSolver::fill_ghosts(const Field& state, double time, PhaseTimer& timer) {
  {
    ScopedPhase halo_phase(timer, Phase::halo, "cfd::halo");
    halo_.exchange(state);
  }
  for (int axis = 0; axis < 3; ++axis) {
    if (active(axis) && !params_.geometry.periodic[axis]) apply_boundaries(state, axis, time);
  }
}

// Primitive variables of every padded cell (ghosts filled), for the fluxes.
// Viscous flow around bodies: covered cells take the no-slip wall's velocity
// (0, or a moving wall's) for the tangential derivatives of the faces beside them.
void CfdSolver::compute_primitives(const Field& state) {
  const Field s = state, w = primitive_;
  const real gamma = real(params_.gamma);
  const bool no_slip = has_bodies() && params_.viscous();
  const bool moving = no_slip && params_.bodies.moving();
  const NodeView fraction = cut_.volume;
  const AreaView wall_velocity = wall_velocity_;
  const CellPolicy all({0, 0, 0}, {int(s.extent(1)), int(s.extent(2)), int(s.extent(3))});
  Kokkos::parallel_for(
      "cfd::primitives", all, KOKKOS_LAMBDA(int k, int j, int i) {
        using namespace kernels::cfd;
        Primitive p = to_primitive(load_conserved(s, k, j, i), gamma);
        if (no_slip && fraction(k, j, i) == 0.0)
          for (int d = 0; d < 3; ++d) p.vel[d] = moving ? real(wall_velocity(k, j, i, d)) : real(0);
        store_primitive(w, k, j, i, p);
      });
}

FluxParams make_flux_params(const Params& params) {
  FluxParams p{};
  p.gamma = real(params.gamma);
  p.limiter = params.limiter;
  p.low_mach = params.low_mach;
  p.low_mach_normal_only = params.low_mach_normal_only;
  p.viscous = params.viscous();
  p.viscosity = params.viscosity;
  p.bodies = false;
  for (int a = 0; a < 3; ++a) {
    p.active[a] = params.geometry.cells[a] > 1 ? 1 : 0;
    p.inv_h[a] = p.active[a] ? real(1.0 / params.geometry.spacing(a)) : real(0);
  }
  return p;
}

FaceRanges make_face_ranges(const Decomposition& decomposition, const Int3& ghost) {
  FaceRanges r{};
  for (int a = 0; a < 3; ++a) {
    r.owned_end[a] = ghost[a] + decomposition.local_cells()[a];
    // Count a face once: the top face of a block belongs to the next rank,
    // except at a physical (non-periodic) boundary.
    r.count_end[a] = r.owned_end[a] + (decomposition.at_physical_boundary(a, 1) ? 1 : 0);
  }
  return r;
}

// The fused flux kernel runs over the owned cells and one more layer above on
// each used axis; the flux along an axis is computed where the other two
// indices are owned cells.
void CfdSolver::compute_fluxes() {
  if (params_.fourth_order) return compute_fourth_order_fluxes();
  FluxParams p = make_flux_params(params_);
  const FaceRanges r = make_face_ranges(decomposition_, ghost_);
  const Int3& g = ghost_;
  Kokkos::Array<int, 3> end{};
  for (int a = 0; a < 3; ++a) end[a] = r.owned_end[a] + p.active[a];
  const CellPolicy cells({g[2], g[1], g[0]}, {end[2], end[1], end[0]});
  p.bodies = has_bodies();
  for (int a = 0; a < 3; ++a) p.aperture[a] = cut_.aperture[a];
  p.volume = cut_.volume;
  p.wall_fits = p.bodies && p.viscous;
  if (p.wall_fits) p.walls = wall_gradients();
  const Fluxes f{primitive_, flux_[0], flux_[1], flux_[2], fallback_faces_};
  if (params_.finite_difference) return launch_fluxes<FiniteDifferenceFace>(f, p, cells, r);
  switch (params_.reconstruction) {
    case Reconstruction::constant:
      return launch_fluxes<Reconstruction::constant>(params_.riemann, f, p, cells, r);
    case Reconstruction::muscl:
      return launch_fluxes<Reconstruction::muscl>(params_.riemann, f, p, cells, r);
    case Reconstruction::weno5:
      return launch_fluxes<Reconstruction::weno5>(params_.riemann, f, p, cells, r);
  }
}

// u = a0 u^n + a1 u + b dt L(u), L(u) = -sum_axes (F_high - F_low) / h. The
// first stage starts from u^n = u and stores it as the step-start state.
void CfdSolver::update_stage(const kernels::SspStage& stage, double dt, bool first_stage) {
  const Field s = state_, s0 = state0_;
  const Field fx = flux_[0], fy = flux_[1], fz = flux_[2];
  const int ax = active(0), ay = active(1), az = active(2);
  const real hx = real(params_.geometry.spacing(0)), hy = real(params_.geometry.spacing(1)),
             hz = real(params_.geometry.spacing(2));
  const real step = real(dt);
  Kokkos::parallel_for(
      "cfd::update_stage", owned_cells(decomposition_.local_cells(), ghost_),
      KOKKOS_LAMBDA(int k, int j, int i) {
        for (int v = 0; v < kernels::cfd::variables; ++v) {
          real rhs = 0;
          if (ax) rhs -= (fx(v, k, j, i + 1) - fx(v, k, j, i)) / hx;
          if (ay) rhs -= (fy(v, k, j + 1, i) - fy(v, k, j, i)) / hy;
          if (az) rhs -= (fz(v, k + 1, j, i) - fz(v, k, j, i)) / hz;
          const real u = s(v, k, j, i);
          if (first_stage) s0(v, k, j, i) = u;
          const real u0 = first_stage ? u : s0(v, k, j, i);
          s(v, k, j, i) = kernels::ssp_update(stage, u0, u, rhs, step);
        }
      });
}

}  // namespace cb::cfd
