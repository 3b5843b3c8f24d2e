// Diagnostics of the CFD solver (column names: shared brief cfd_schema.md):
// totals of the conserved variables, the volume-averaged kinetic energy and
// enstrophy of the HiOCFD case C3.5 (rho0 = 1), extrema, and the faces that
// fell back to first order in the last step. Also the derived output fields
// and the checkpoint contents.
#include "core/non_finite.hpp"
#include "solvers/cfd/solver.hpp"

#include <mpi.h>
#include <climits>

namespace cb::cfd {
namespace {

using kernels::cfd::Primitive;

KOKKOS_INLINE_FUNCTION double velocity(const Field& s, int a, int k, int j, int i) {
  return s(1 + a, k, j, i) / s(0, k, j, i);
}

// rho (what = 0), p (1) or the Mach number (2) of cell (k, j, i).
KOKKOS_INLINE_FUNCTION double primitive_quantity(const Field& s, int k, int j, int i, int what,
                                                 real gamma) {
  const Primitive w = kernels::cfd::to_primitive(kernels::cfd::load_conserved(s, k, j, i), gamma);
  if (what == 0) return w.rho;
  if (what == 1) return w.p;
  return kernels::cfd::mach_number(w, gamma);
}

// Minimum (or maximum) of a primitive quantity over the owned fluid cells
// (`fraction` > 0 with bodies), all ranks.
double extremum(const char* label, const Field& s, real gamma, const CellPolicy& cells, int what,
                bool minimum, MPI_Comm comm, const NodeView& fraction, bool bodies) {
  double value = 0;
  if (minimum) {
    Kokkos::parallel_reduce(
        label, cells,
        KOKKOS_LAMBDA(int k, int j, int i, double& m) {
          if (bodies && fraction(k, j, i) == 0.0) return;
          m = math::min(m, primitive_quantity(s, k, j, i, what, gamma));
        },
        Kokkos::Min<double>(value));
  } else {
    Kokkos::parallel_reduce(
        label, cells,
        KOKKOS_LAMBDA(int k, int j, int i, double& m) {
          if (bodies && fraction(k, j, i) == 0.0) return;
          m = math::max(m, primitive_quantity(s, k, j, i, what, gamma));
        },
        Kokkos::Max<double>(value));
  }
  double global = 0;
  MPI_Allreduce(&value, &global, 1, MPI_DOUBLE, minimum ? MPI_MIN : MPI_MAX, comm);
  return global;
}

}  // namespace
}  // namespace cb::cfd

namespace cb::cfd {

std::vector<Diagnostic> CfdSolver::diagnostics(double time) {
  fill_ghosts(state_, time, scratch_timer_);  // for the vorticity
  const Field s = state_;
  const real gamma = real(params_.gamma);
  const GridGeometry& geo = params_.geometry;
  const double volume = geo.spacing(0) * geo.spacing(1) * geo.spacing(2);
  double half_inv_h[3];
  for (int a = 0; a < 3; ++a) half_inv_h[a] = active(a) ? 0.5 / geo.spacing(a) : 0.0;
  const int ox = active(0), oy = active(1), oz = active(2);
  const double hx = half_inv_h[0], hy = half_inv_h[1], hz = half_inv_h[2];
  const bool bodies = has_bodies();
  const NodeView fraction = cut_.volume;
  // Mass, momentum, energy, kinetic energy, enstrophy.
  const Sums<7> totals = sums_.sum_cells<7>(
      "cfd::totals", decomposition_.local_cells(), ghost_,
      KOKKOS_LAMBDA(int k, int j, int i, double* t) {
        if (bodies && fraction(k, j, i) == 0.0) return;  // covered
        const double fluid = bodies ? volume * fraction(k, j, i) : volume;
        const Primitive w =
            kernels::cfd::to_primitive(kernels::cfd::load_conserved(s, k, j, i), gamma);
        for (int v = 0; v < 5; ++v) t[v] += s(v, k, j, i) * fluid;
        t[5] += kernels::cfd::kinetic_energy_density(w) * fluid;
        // Central differences d u_a / d x_b.
        double g[3][3] = {{0, 0, 0}, {0, 0, 0}, {0, 0, 0}};
        for (int a = 0; a < 3; ++a) {
          if (ox) g[a][0] = (velocity(s, a, k, j, i + 1) - velocity(s, a, k, j, i - 1)) * hx;
          if (oy) g[a][1] = (velocity(s, a, k, j + 1, i) - velocity(s, a, k, j - 1, i)) * hy;
          if (oz) g[a][2] = (velocity(s, a, k + 1, j, i) - velocity(s, a, k - 1, j, i)) * hz;
        }
        const double wx = g[2][1] - g[1][2], wy = g[0][2] - g[2][0], wz = g[1][0] - g[0][1];
        t[6] += 0.5 * w.rho * (wx * wx + wy * wy + wz * wz) * fluid;
      });
  const CellPolicy cells = owned_cells(decomposition_.local_cells(), ghost_);
  const MPI_Comm comm = decomposition_.comm();
  const double min_rho = extremum("cfd::min_rho", s, gamma, cells, 0, true, comm, fraction, bodies);
  const double min_p = extremum("cfd::min_p", s, gamma, cells, 1, true, comm, fraction, bodies);
  const double max_mach =
      extremum("cfd::max_mach", s, gamma, cells, 2, false, comm, fraction, bodies);
  long long fallback = 0;
  Kokkos::deep_copy(fallback, fallback_faces_);
  double sums[7];
  MPI_Allreduce(totals.value, sums, 7, MPI_DOUBLE, MPI_SUM, comm);
  long long fallback_total = 0;
  MPI_Allreduce(&fallback, &fallback_total, 1, MPI_LONG_LONG, MPI_SUM, comm);
  double domain = 1.0;
  for (int a = 0; a < 3; ++a) domain *= geo.hi[a] - geo.lo[a];
  std::vector<Diagnostic> out = {{"mass", sums[0]},
                                 {"mom_x", sums[1]},
                                 {"mom_y", sums[2]},
                                 {"mom_z", sums[3]},
                                 {"energy", sums[4]},
                                 {"kinetic_energy", sums[5] / domain},
                                 {"enstrophy", sums[6] / domain},
                                 {"min_rho", min_rho},
                                 {"min_p", min_p},
                                 {"max_mach", max_mach},
                                 {"fallback_faces", double(fallback_total)}};
  double pressure_difference = 0.0;
  if (params_.probes.enabled || bodies) compute_primitives(state_);
  if (params_.probes.enabled) {
    const Real3* points[2] = {&params_.probes.from, &params_.probes.to};
    double p[2];
    for (int n = 0; n < 2; ++n)
      p[n] = bodies ? probe_at_point(primitive_, 4, pressure_probe_[n], *points[n], cut_,
                                     local_grid(), {active(0), active(1), active(2)}, comm)
                    : probe_value(primitive_, 4, pressure_probe_[n], comm);
    pressure_difference = p[0] - p[1];
    out.push_back({"dp", pressure_difference});
  }
  if (bodies) append_forces(out, time, pressure_difference);
  return out;
}

// The force on the bodies, -sum (p_w n_b - tau_w . n_b) A (n_b into the fluid), with viscosity
// its pressure and viscous parts, its moment about [forces] moment_center, with an
// isothermal wall the heat the walls give the fluid, sum q_w A, with a moving one
// their work, and with
// [forces] its drag and lift coefficients F . e / (rho U^2 A / 2) (and the drag's viscous
// part); per body too with two or
// more. The total's coefficients (and the probes' pressure difference) join the history of
// the shedding summary. Needs primitive_ of the current state.
void CfdSolver::append_forces(std::vector<Diagnostic>& out, double time,
                              double pressure_difference) {
  const ForceReference& ref = params_.forces;
  // Appends the force on the wall's fluid and, with a reference area, C_D and C_L (returned).
  const bool isothermal = params_.bodies.isothermal(), moving = params_.bodies.moving();
  const bool viscous = params_.viscous();
  auto append = [&](const WallExchange& wall, const std::string& suffix) {
    const char* axes[3] = {"x", "y", "z"};
    for (int d = 0; d < 3; ++d)
      out.push_back({std::string("force_") + axes[d] + suffix, -wall.momentum[d]});
    for (int d = 0; viscous && d < 3; ++d)
      out.push_back({std::string("force_pressure_") + axes[d] + suffix,
                     wall.viscous_momentum[d] - wall.momentum[d]});
    for (int d = 0; viscous && d < 3; ++d)
      out.push_back({std::string("force_viscous_") + axes[d] + suffix, -wall.viscous_momentum[d]});
    for (int d = 0; d < 3; ++d)
      out.push_back({std::string("moment_") + axes[d] + suffix, -wall.moment[d]});
    if (isothermal) out.push_back({"wall_heat" + suffix, wall.heat});
    if (moving) out.push_back({"wall_power" + suffix, wall.work});
    if (ref.area == 0.0) return ForceSample{time, 0.0, 0.0};
    double drag = 0.0, lift = 0.0, viscous_drag = 0.0;
    for (int d = 0; d < 3; ++d) {
      drag -= wall.momentum[d] * ref.drag[d];
      lift -= wall.momentum[d] * ref.lift[d];
      viscous_drag -= wall.viscous_momentum[d] * ref.drag[d];
    }
    ForceSample coefficients{time, drag / ref.dynamic_pressure_area(),
                             lift / ref.dynamic_pressure_area()};
    coefficients.viscous_drag = viscous_drag / ref.dynamic_pressure_area();
    out.push_back({"cd" + suffix, coefficients.drag});
    out.push_back({"cl" + suffix, coefficients.lift});
    if (viscous) out.push_back({"cd_viscous" + suffix, coefficients.viscous_drag});
    return coefficients;
  };
  ForceSample total = append(wall_exchange(primitive_, -1, ref.moment_center), "");
  total.probed = params_.probes.enabled;
  total.pressure_difference = pressure_difference;
  if (ref.area > 0.0 && (force_history_.empty() || time > force_history_.back().time))
    force_history_.push_back(total);
  const int bodies_count = static_cast<int>(params_.bodies.names.size());
  for (int b = 0; bodies_count > 1 && b < bodies_count; ++b)
    append(wall_exchange(primitive_, b, ref.moment_center), "_" + std::to_string(b + 1));
}

// The Strouhal number, lift amplitude and mean drag from the force
// coefficients of this process's diagnostics (a restarted run: since the restart).
std::vector<std::string> CfdSolver::summary_lines() {
  const ForceReference& ref = params_.forces;
  if (!has_bodies() || ref.area == 0.0 || ref.length == 0.0) return {};
  return {describe(analyse_shedding(force_history_, ref.length, ref.speed), force_history_)};
}

std::string CfdSolver::locate_non_finite() {
  return first_non_finite(state_, {"rho", "mom_x", "mom_y", "mom_z", "energy"}, decomposition_,
                          ghost_);
}

// Finite, and a positive density and pressure in every cell.
std::string CfdSolver::locate_invalid_state() {
  const std::string bad = locate_non_finite();
  if (!bad.empty()) return bad;
  const Field s = state_;
  const real gamma = real(params_.gamma);
  return first_flagged_cell(
      {"rho <= 0", "p <= 0"}, decomposition_, ghost_, KOKKOS_LAMBDA(int k, int j, int i, int test) {
        const Primitive w =
            kernels::cfd::to_primitive(kernels::cfd::load_conserved(s, k, j, i), gamma);
        return test == 0 ? !(w.rho > real(0)) : !(w.p > real(0));
      });
}

void CfdSolver::compute_derived() {
  const Field s = state_, d = derived_;
  const real gamma = real(params_.gamma);
  Kokkos::parallel_for(
      "cfd::derived", owned_cells(decomposition_.local_cells(), ghost_),
      KOKKOS_LAMBDA(int k, int j, int i) {
        const Primitive w =
            kernels::cfd::to_primitive(kernels::cfd::load_conserved(s, k, j, i), gamma);
        for (int a = 0; a < 3; ++a) d(a, k, j, i) = w.vel[a];
        d(3, k, j, i) = w.p;
        d(4, k, j, i) = kernels::cfd::mach_number(w, gamma);
      });
}

std::vector<FieldComponent> CfdSolver::output_fields() {
  compute_derived();
  std::vector<FieldComponent> fields = checkpoint_fields();
  const char* names[5] = {"u", "v", "w", "p", "mach"};
  for (int n = 0; n < 5; ++n) fields.push_back({names[n], derived_, n});
  return fields;
}

std::vector<FieldComponent> CfdSolver::checkpoint_fields() {
  return {{"rho", state_, kernels::cfd::density},
          {"mom_x", state_, kernels::cfd::momentum_x},
          {"mom_y", state_, kernels::cfd::momentum_y},
          {"mom_z", state_, kernels::cfd::momentum_z},
          {"energy", state_, kernels::cfd::total_energy}};
}

}  // namespace cb::cfd
