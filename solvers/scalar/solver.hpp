// Scalar transport solver: linear advection-diffusion of one scalar q on a
// periodic grid, finite volume, MUSCL advection + central diffusion, SSP-RK.
// The tutorial solver: docs/writing-a-solver.md walks through this file.
#pragma once

#include "core/decomposition.hpp"
#include "core/halo.hpp"
#include "core/local_grid.hpp"
#include "core/ordered_sum.hpp"
#include "core/solver.hpp"
#include "solvers/scalar/exact.hpp"
#include "solvers/scalar/params.hpp"

namespace cb::scalar {

class ScalarSolver : public GridSolver {
 public:
  ScalarSolver(const Params& params, const Decomposition& decomposition,
               const RunContext& context = {});

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
  LocalGrid cell_geometry() const;

  // Kernel launch sites. Public only because CUDA does not allow an extended
  // (__host__ __device__) lambda inside a private member function.
  void compute_rhs();
  void stage_update(const kernels::SspStage& stage, double dt);

 private:
  Params params_;
  const Decomposition& decomposition_;
  HaloExchange halo_;
  Int3 ghost_;
  Field q_;          // the state, with ghost cells
  Field q0_;         // the state at the start of the step (SSP-RK)
  Field rhs_;        // L(q) = -div(flux), owned cells
  OrderedSum sums_;  // diagnostics, the same on every thread count
};

// Bytes of device memory the solver's fields take on one rank of `ranks`.
double field_bytes(const Params& params, int ranks);

// The fields [output] fields may name.
std::vector<std::string> output_field_names();

}  // namespace cb::scalar
