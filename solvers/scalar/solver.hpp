// Scalar transport solver: linear advection-diffusion of one scalar q on a
// periodic grid, finite volume, MUSCL advection + central diffusion, SSP-RK.
// The tutorial solver: docs/writing-a-solver.md walks through this file.
#pragma once

#include "core/decomposition.hpp"
#include "core/halo.hpp"
#include "core/solver.hpp"
#include "solvers/scalar/exact.hpp"
#include "solvers/scalar/params.hpp"

namespace cb::scalar {

// Cell-centre coordinates of padded indices (k, j, i) on this rank, computed
// from the global cell index so that every decomposition gives the same bits.
struct CellGeometry {
  double lo[3];  // domain origin
  double h[3];   // spacing
  int shift[3];  // global index = padded index + shift (offset - ghost)
  KOKKOS_INLINE_FUNCTION void center(int k, int j, int i, double x[3]) const {
    x[0] = lo[0] + (i + shift[0] + 0.5) * h[0];
    x[1] = lo[1] + (j + shift[1] + 0.5) * h[1];
    x[2] = lo[2] + (k + shift[2] + 0.5) * h[2];
  }
};

class ScalarSolver : public Solver {
 public:
  ScalarSolver(const Params& params, const Decomposition& decomposition);

  std::string name() const override { return "scalar"; }
  std::string case_name() const override { return params_.case_name; }
  double stable_dt() override { return scalar::stable_dt(params_); }
  void step(double time, double dt, PhaseTimer& timer) override;
  std::vector<Diagnostic> diagnostics(double time) override;
  std::string locate_non_finite() override;
  std::vector<FieldComponent> output_fields() override { return {{"q", q_, 0}}; }
  std::vector<FieldComponent> checkpoint_fields() override { return {{"q", q_, 0}}; }
  const GridGeometry& geometry() const override { return params_.geometry; }
  int halo() const override { return halo_width; }
  double work_per_step() const override { return double(params_.geometry.total_cells()); }

  // Sets q to the exact cell averages at `time` (the initial condition at 0).
  void set_exact(double time);
  const Field& q() const { return q_; }
  ExactSolution exact_solution() const;
  CellGeometry cell_geometry() const;

  // Kernel launch sites. Public only because CUDA does not allow an extended
  // (__host__ __device__) lambda inside a private member function.
  void compute_rhs();
  void stage_update(const kernels::SspStage& stage, double dt);

 private:
  Params params_;
  const Decomposition& decomposition_;
  HaloExchange halo_;
  Int3 ghost_;
  Field q_;    // the state, with ghost cells
  Field q0_;   // the state at the start of the step (SSP-RK)
  Field rhs_;  // L(q) = -div(flux), owned cells
};

// Bytes of device memory the solver's fields take on one rank of `ranks`.
double field_bytes(const Params& params, int ranks);

}  // namespace cb::scalar
