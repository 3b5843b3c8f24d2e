// Diagnostics of the scalar solver: total mass (conserved to round-off on a
// periodic grid), extrema, and the error norms against the exact solution.
#include "core/non_finite.hpp"
#include "solvers/scalar/solver.hpp"

#include <mpi.h>
#include <climits>
#include <cmath>

namespace cb::scalar {
namespace {

double global_sum(double local, MPI_Comm comm) {
  double global = 0.0;
  MPI_Allreduce(&local, &global, 1, MPI_DOUBLE, MPI_SUM, comm);
  return global;
}

double global_max(double local, MPI_Comm comm) {
  double global = 0.0;
  MPI_Allreduce(&local, &global, 1, MPI_DOUBLE, MPI_MAX, comm);
  return global;
}

}  // namespace

std::vector<Diagnostic> ScalarSolver::diagnostics(double time) {
  const LocalGrid cell = cell_geometry();
  const ExactSolution exact = exact_solution();
  const CellPolicy cells = owned_cells(decomposition_.local_cells(), ghost_);
  const Field q = q_;
  const MPI_Comm comm = decomposition_.comm();
  double volume = 1.0, domain = 1.0;
  for (int d = 0; d < 3; ++d) {
    volume *= cell.h[d];
    domain *= params_.geometry.hi[d] - params_.geometry.lo[d];
  }

  // Mass and the L1 and L2 errors against the exact cell averages.
  const Sums<3> sums = sums_.sum_cells<3>(
      "scalar::mass_and_errors", decomposition_.local_cells(), ghost_,
      KOKKOS_LAMBDA(int k, int j, int i, double* sum) {
        double xc[3];
        cell.center(k, j, i, xc);
        const double e = q(0, k, j, i) - exact_cell_average(exact, xc, cell.h, time);
        sum[0] += q(0, k, j, i);
        sum[1] += math::fabs(e);
        sum[2] += e * e;
      });
  const double mass = sums[0], l1 = sums[1], l2 = sums[2];
  double low = 0, high = 0, linf = 0;
  Kokkos::parallel_reduce(
      "scalar::min", cells,
      KOKKOS_LAMBDA(int k, int j, int i, double& m) { m = math::min(m, double(q(0, k, j, i))); },
      Kokkos::Min<double>(low));
  Kokkos::parallel_reduce(
      "scalar::max", cells,
      KOKKOS_LAMBDA(int k, int j, int i, double& m) { m = math::max(m, double(q(0, k, j, i))); },
      Kokkos::Max<double>(high));
  Kokkos::parallel_reduce(
      "scalar::error_linf", cells,
      KOKKOS_LAMBDA(int k, int j, int i, double& m) {
        double xc[3];
        cell.center(k, j, i, xc);
        m = math::max(m, math::fabs(q(0, k, j, i) - exact_cell_average(exact, xc, cell.h, time)));
      },
      Kokkos::Max<double>(linf));

  const double global_low = -global_max(-low, comm);
  return {{"mass", global_sum(mass, comm) * volume},
          {"min", global_low},
          {"max", global_max(high, comm)},
          {"error_l1", global_sum(l1, comm) * volume / domain},
          {"error_l2", std::sqrt(global_sum(l2, comm) * volume / domain)},
          {"error_linf", global_max(linf, comm)}};
}

std::string ScalarSolver::locate_non_finite() {
  return first_non_finite(q_, {"q"}, decomposition_, ghost_);
}

}  // namespace cb::scalar
