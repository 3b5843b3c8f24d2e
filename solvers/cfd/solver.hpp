// CFD solver: 3-D compressible Euler / Navier-Stokes on a uniform Cartesian
// grid; finite volumes, reconstruction of primitive variables (constant, MUSCL,
// WENO5), approximate Riemann fluxes (HLLC, HLL, Rusanov), second-order central
// viscous fluxes, SSP Runge-Kutta in time; optionally conservative finite
// differences with split-flux WENO5 (docs/solvers/cfd.md). Decomposed
// over MPI in every direction; bitwise identical on any rank count because each
// face flux is computed once, from the same cells, whichever rank owns it.
#pragma once

#include "core/decomposition.hpp"
#include "core/halo.hpp"
#include "core/local_grid.hpp"
#include "core/ordered_sum.hpp"
#include "core/solver.hpp"
#include "solvers/cfd/cut_gradients.hpp"
#include "solvers/cfd/params.hpp"
#include "solvers/cfd/probes.hpp"
#include "solvers/cfd/shedding.hpp"

#include <array>

namespace cb::cfd {

using Counter = Kokkos::View<long long, MemSpace>;

// What the walls give the fluid per unit time (CfdSolver::wall_exchange).
struct WallExchange {
  double momentum[3] = {0, 0, 0}, heat = 0, work = 0, moment[3] = {0, 0, 0};
  double viscous_momentum[3] = {0, 0, 0};  // the shear stress's part of momentum
};

class CfdSolver : public GridSolver {
 public:
  CfdSolver(const Params& params, const Decomposition& decomposition,
            const RunContext& context = {});

  std::string name() const override { return "cfd"; }
  std::string case_name() const override { return params_.case_name; }
  double stable_dt() override;
  void step(double time, double dt, PhaseTimer& timer) override;
  std::vector<Diagnostic> diagnostics(double time) override;
  std::vector<std::string> summary_lines() override;
  std::string locate_non_finite() override;
  std::string locate_invalid_state() override;
  std::vector<FieldComponent> output_fields() override;
  std::vector<FieldComponent> checkpoint_fields() override;
  const GridGeometry& geometry() const override { return params_.geometry; }
  int halo() const override { return params_.halo(); }
  double work_per_step() const override { return double(params_.geometry.total_cells()); }

  LocalGrid local_grid() const { return make_local_grid(params_.geometry, decomposition_, ghost_); }
  const Field& state() const { return state_; }
  const CutCells& cut_cells() const { return cut_; }  // empty without bodies

  // Kernel launch sites. Public only because CUDA does not allow an extended
  // (__host__ __device__) lambda inside a private member function.
  void initialize_state();
  void apply_boundaries(const Field& state, int axis, double time);
  void compute_primitives(const Field& state);
  void compute_fluxes();
  void compute_average_primitives();
  void compute_fourth_order_fluxes();
  void update_stage(const kernels::SspStage& stage, double dt, bool first_stage);
  double max_signal_rate();
  void compute_derived();
  // Cut cells ([[geometry]] bodies; solvers/cfd/embedded.cpp).
  void setup_bodies();
  void find_anchored_cells();
  void compute_cut_divergence();
  void compute_excess();
  void update_cut_stage(const kernels::SspStage& stage, double dt, bool first_stage);
  // Viscous flow around bodies: the gradients beside the walls (cut_gradients.cpp).
  void compute_wall_gradients();
  WallGradients wall_gradients() const;
  // The momentum, heat and work per unit time the walls of body `body`
  // (all: -1) give the fluid, and the momentum's moment about `center`
  // (solvers/cfd/embedded.cpp).
  WallExchange wall_exchange(const Field& primitive, int body = -1, const Real3& center = {});
  void append_forces(std::vector<Diagnostic>& out, double time, double pressure_difference);
  // The momentum the body walls gave the fluid since the start: the time
  // integral of the pressure force, stage-weighted as the RK update is.
  const std::array<double, 3>& wall_impulse() const { return wall_impulse_; }
  double wall_heat() const { return wall_heat_; }  // the heat they gave, likewise
  double wall_work() const { return wall_work_; }  // the work moving walls did
  bool has_bodies() const { return !params_.bodies.empty(); }

 private:
  void fill_ghosts(const Field& state, double time, PhaseTimer& timer);
  bool active(int axis) const { return params_.geometry.cells[axis] > 1; }

  Params params_;
  const Decomposition& decomposition_;
  HaloExchange halo_;
  Int3 ghost_;
  Field state_, state0_;  // conserved variables now and at the start of the step
  Field primitive_;       // rho, u, v, w, p of the stage state, ghosts included
  Field flux_[3];         // per axis: flux through the low face of each cell
  Field derived_;         // u, v, w, p, mach for output
  // [cfd] fourth_order only (solvers/cfd/fourth_order.cpp):
  Field average_primitive_;  // cell averages of rho, u, v, w, p
  Field face_state_;         // WENO5 face averages along one axis, left then right
  Field point_flux_;         // face-centre point fluxes along one axis and a fallback flag
  Counter fallback_faces_;   // faces that fell back to first order this step
  // [[geometry]] bodies only:
  CutCells cut_;  // fractions, apertures and wall areas of the padded cells
  Kokkos::View<int***, Kokkos::LayoutRight, MemSpace> body_of_;  // the body nearest each cell
  NodeView weight_;   // fluid fraction; 0 also in ghosts beyond a physical boundary
  Field anchored_;    // 1 where a cell is full or joined to a full cell (embedded.cpp)
  Field divergence_;  // conservative update -div F / kappa of each fluid cell
  Field excess_;      // per cut cell: redistributed mass / neighbours' fractions
  Kokkos::View<kernels::cfd::BodyWall*, MemSpace> walls_;  // per body
  AreaView wall_point_;     // per cut cell: the surface point nearest its centre
  AreaView wall_velocity_;  // moving walls: per cut and covered cell (embedded.cpp)
  BandView wall_band_;      // viscous: where the faces take fitted gradients
  AreaView wall_gradient_;  // viscous: the fitted gradients (cut_gradients.hpp)
  std::array<double, 3> wall_impulse_{0.0, 0.0, 0.0};
  double wall_heat_ = 0.0, wall_work_ = 0.0;
  ProbeCell pressure_probe_[2];             // [probes] pressure_from, pressure_to
  std::vector<ForceSample> force_history_;  // C_D, C_L at each diagnostics time (this process)
  OrderedSum sums_;                         // diagnostics, the same on every thread count
  PhaseTimer scratch_timer_;                // for ghost fills outside a step (diagnostics)
};

}  // namespace cb::cfd
