#include "solvers/cfd/probes.hpp"

#include "solvers/cfd/cut_gradients.hpp"

#include <climits>

namespace cb::cfd {
namespace {

// Squared distance from `point` to the centre of padded cell (k, j, i),
// computed from global indices alone (the same value on every rank layout).
KOKKOS_INLINE_FUNCTION double distance_squared(const LocalGrid& grid, const double point[3], int k,
                                               int j, int i) {
  double x[3];
  grid.center(k, j, i, x);
  double r = 0.0;
  for (int a = 0; a < 3; ++a) r += (x[a] - point[a]) * (x[a] - point[a]);
  return r;
}

KOKKOS_INLINE_FUNCTION long long global_index(const LocalGrid& grid, int k, int j, int i) {
  const long long gi = i + grid.shift[0], gj = j + grid.shift[1], gk = k + grid.shift[2];
  return gi + grid.cells[0] * (gj + static_cast<long long>(grid.cells[1]) * gk);
}

// The owner's value on every rank: its value plus the others' zeros, exact.
double from_owner(double local, MPI_Comm comm) {
  double value = 0.0;
  MPI_Allreduce(&local, &value, 1, MPI_DOUBLE, MPI_SUM, comm);
  return value;
}

}  // namespace

ProbeCell locate_probe(const Real3& point, const LocalGrid& grid, const Int3& local_cells,
                       const Int3& ghost, const NodeView& fraction, MPI_Comm comm) {
  const CellPolicy cells = owned_cells(local_cells, ghost);
  const bool cut = fraction.extent(0) > 0;
  const double px = point[0], py = point[1], pz = point[2];
  const LocalGrid g = grid;
  double nearest = 0.0;
  Kokkos::parallel_reduce(
      "cfd::probe_distance", cells,
      KOKKOS_LAMBDA(int k, int j, int i, double& d) {
        const double q[3] = {px, py, pz};
        if (!cut || fraction(k, j, i) >= 0.5) d = math::min(d, distance_squared(g, q, k, j, i));
      },
      Kokkos::Min<double>(nearest));
  double target = 0.0;
  MPI_Allreduce(&nearest, &target, 1, MPI_DOUBLE, MPI_MIN, comm);
  long long index = 0;
  Kokkos::parallel_reduce(
      "cfd::probe_cell", cells,
      KOKKOS_LAMBDA(int k, int j, int i, long long& m) {
        const double q[3] = {px, py, pz};
        if ((!cut || fraction(k, j, i) >= 0.5) && distance_squared(g, q, k, j, i) == target)
          m = math::min(m, global_index(g, k, j, i));
      },
      Kokkos::Min<long long>(index));
  long long chosen = LLONG_MAX;
  MPI_Allreduce(&index, &chosen, 1, MPI_LONG_LONG, MPI_MIN, comm);
  ProbeCell probe;
  if (chosen == LLONG_MAX) return probe;  // no cell is half fluid
  const long long plane = static_cast<long long>(grid.cells[0]) * grid.cells[1];
  const int global[3] = {static_cast<int>(chosen % grid.cells[0]),
                         static_cast<int>(chosen / grid.cells[0] % grid.cells[1]),
                         static_cast<int>(chosen / plane)};
  int padded[3];
  probe.owned = true;
  for (int a = 0; a < 3; ++a) {
    padded[a] = global[a] - grid.shift[a];
    probe.owned = probe.owned && padded[a] >= ghost[a] && padded[a] < ghost[a] + local_cells[a];
  }
  probe.i = padded[0], probe.j = padded[1], probe.k = padded[2];
  return probe;
}

double probe_value(const Field& field, int c, const ProbeCell& probe, MPI_Comm comm) {
  double local = 0.0;
  if (probe.owned) {
    real value = 0;
    Kokkos::deep_copy(value, Kokkos::subview(field, c, probe.k, probe.j, probe.i));
    local = static_cast<double>(value);
  }
  return from_owner(local, comm);
}

double probe_at_point(const Field& field, int c, const ProbeCell& probe, const Real3& point,
                      const CutCells& cut, const LocalGrid& grid, const Int3& active,
                      MPI_Comm comm) {
  double local = 0.0;
  if (probe.owned) {
    const Apertures ap = apertures_of(cut);
    const NodeView volume = cut.volume;
    const AreaView centroid = cut.centroid;
    const LocalGrid g = grid;
    const int k = probe.k, j = probe.j, i = probe.i, ax = active[0], ay = active[1], az = active[2];
    const double px = point[0], py = point[1], pz = point[2];
    Kokkos::parallel_reduce(
        "cfd::probe_at_point", Kokkos::RangePolicy<ExecSpace>(0, 1),
        KOKKOS_LAMBDA(int, double& value) {
          using namespace kernels::cfd;
          const int axes[3] = {ax, ay, az};
          const real f0[1] = {field(c, k, j, i)};
          real r[1][3] = {{0, 0, 0}}, gradient[3] = {0, 0, 0};
          Symmetric3 m{0, 0, 0, 0, 0, 0}, inverse;
          add_joined_neighbours<1>(
              volume, ap, centroid, g, axes, k, j, i,
              [=](int kk, int jj, int ii, real f[1]) { f[0] = field(c, kk, jj, ii); }, f0, m, r);
          if (invert_normal_matrix(m, axes, inverse)) apply(inverse, r[0], gradient);
          double x[3];
          g.center(k, j, i, x);
          const double q[3] = {px, py, pz};
          double at_point = f0[0];
          for (int d = 0; d < 3; ++d)
            at_point += gradient[d] * (q[d] - x[d] - centroid(k, j, i, d));
          value += at_point;
        },
        local);
  }
  return from_owner(local, comm);
}

}  // namespace cb::cfd
