#include "solvers/scalar/solver.hpp"

#include "kernels/scalar/transport.hpp"

#include <mpi.h>
#include <climits>
#include <cmath>

namespace cb::scalar {
namespace {

// What the flux kernel needs, by value.
struct FluxParams {
  int active[3];
  real velocity[3];
  real dx[3];
  real kappa;
  kernels::Limiter limiter;
};

// Total (advective + diffusive) flux through the low face of cell (k, j, i)
// along `axis`, from the four cells around that face.
KOKKOS_INLINE_FUNCTION real low_face_flux(const Field& q, int k, int j, int i, int axis,
                                          const FluxParams& p) {
  const int di = axis == 0, dj = axis == 1, dk = axis == 2;
  const real q_m2 = q(0, k - 2 * dk, j - 2 * dj, i - 2 * di);
  const real q_m1 = q(0, k - dk, j - dj, i - di);
  const real q_p0 = q(0, k, j, i);
  const real q_p1 = q(0, k + dk, j + dj, i + di);
  return kernels::advective_flux_muscl(q_m2, q_m1, q_p0, q_p1, p.velocity[axis], p.limiter) +
         kernels::diffusive_flux_central(q_m1, q_p0, p.kappa, p.dx[axis]);
}

// L(q) = -sum_axes (F_high - F_low) / dx in cell (k, j, i).
KOKKOS_INLINE_FUNCTION real divergence_rhs(const Field& q, int k, int j, int i,
                                           const FluxParams& p) {
  real rhs = 0;
  for (int axis = 0; axis < 3; ++axis) {
    if (!p.active[axis]) continue;
    const real low = low_face_flux(q, k, j, i, axis, p);
    const real high = low_face_flux(q, k + (axis == 2), j + (axis == 1), i + (axis == 0), axis, p);
    rhs -= (high - low) / p.dx[axis];
  }
  return rhs;
}

}  // namespace

double field_bytes(const Params& params, int ranks) {
  return 3.0 * padded_global_cells(params.geometry, halo_width) * sizeof(real) /
         ranks;  // q, q0, rhs
}

ScalarSolver::ScalarSolver(const Params& params, const Decomposition& decomposition,
                           const RunContext& context)
    : params_(params),
      decomposition_(decomposition),
      halo_(decomposition, halo_width, 1, context.comm),
      ghost_(ghost_widths(params.geometry.cells, halo_width)) {
  const Int3& n = decomposition.local_cells();
  q_ = padded_field("scalar::q", 1, n, ghost_);
  q0_ = padded_field("scalar::q0", 1, n, ghost_);
  rhs_ = padded_field("scalar::rhs", 1, n, ghost_);
  set_exact(0.0);
}

ExactSolution ScalarSolver::exact_solution() const {
  const Params& p = params_;
  ExactSolution e{};
  e.gaussian = p.profile == Profile::gaussian ? 1 : 0;
  for (int d = 0; d < 3; ++d) {
    e.active[d] = p.geometry.cells[d] > 1 ? 1 : 0;
    e.lo[d] = p.geometry.lo[d];
    e.length[d] = p.geometry.hi[d] - p.geometry.lo[d];
    e.velocity[d] = p.velocity[d];
    e.wavenumber[d] = 2.0 * math::pi * p.waves[d] / e.length[d];
    e.center[d] = p.center[d];
  }
  e.kappa = p.diffusivity;
  e.mean = p.mean;
  e.amplitude = p.amplitude;
  e.width = p.width;
  return e;
}

LocalGrid ScalarSolver::cell_geometry() const {
  return make_local_grid(params_.geometry, decomposition_, ghost_);
}

void ScalarSolver::set_exact(double time) {
  const ExactSolution exact = exact_solution();
  const LocalGrid cell = cell_geometry();
  const Field q = q_;
  Kokkos::parallel_for(
      "scalar::set_exact", owned_cells(decomposition_.local_cells(), ghost_),
      KOKKOS_LAMBDA(int k, int j, int i) {
        double xc[3];
        cell.center(k, j, i, xc);
        q(0, k, j, i) = real(exact_cell_average(exact, xc, cell.h, time));
      });
}

void ScalarSolver::compute_rhs() {
  FluxParams p{};
  for (int d = 0; d < 3; ++d) {
    p.active[d] = params_.geometry.cells[d] > 1 ? 1 : 0;
    p.velocity[d] = real(params_.velocity[d]);
    p.dx[d] = real(params_.geometry.spacing(d));
  }
  p.kappa = real(params_.diffusivity);
  p.limiter = params_.limiter;
  const Field q = q_, rhs = rhs_;
  Kokkos::parallel_for(
      "scalar::rhs", owned_cells(decomposition_.local_cells(), ghost_),
      KOKKOS_LAMBDA(int k, int j, int i) { rhs(0, k, j, i) = divergence_rhs(q, k, j, i, p); });
}

void ScalarSolver::stage_update(const kernels::SspStage& stage, double dt) {
  const Field q = q_, q0 = q0_, rhs = rhs_;
  const real step = real(dt);
  Kokkos::parallel_for(
      "scalar::ssp_stage", owned_cells(decomposition_.local_cells(), ghost_),
      KOKKOS_LAMBDA(int k, int j, int i) {
        q(0, k, j, i) =
            kernels::ssp_update(stage, q0(0, k, j, i), q(0, k, j, i), rhs(0, k, j, i), step);
      });
}

void ScalarSolver::step(double /*time*/, double dt, PhaseTimer& timer) {
  Kokkos::deep_copy(q0_, q_);
  const kernels::SspScheme scheme = kernels::ssp_scheme(params_.integrator);
  for (int s = 0; s < scheme.stages; ++s) {
    {
      ScopedPhase halo_phase(timer, Phase::halo, "scalar::halo");
      halo_.exchange(q_);
    }
    compute_rhs();
    stage_update(scheme.stage[s], dt);
  }
}

std::vector<std::string> output_field_names() {
  return {"q"};
}

}  // namespace cb::scalar
