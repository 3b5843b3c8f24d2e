#include "core/non_finite.hpp"

#include "core/kokkos_compat.hpp"

#include <climits>

namespace cb {

std::string first_non_finite(const Field& state, const std::vector<std::string>& names,
                             const Decomposition& decomposition, const Int3& ghost) {
  const Field s = state;
  const int variables = static_cast<int>(names.size());
  const Int3& cells = decomposition.global_cells();
  const Index3 n = to_index3(cells);
  const Index3 shift = {decomposition.offset()[0] - ghost[0], decomposition.offset()[1] - ghost[1],
                        decomposition.offset()[2] - ghost[2]};
  long long first = LLONG_MAX;
  Kokkos::parallel_reduce(
      "core::find_non_finite", owned_cells(decomposition.local_cells(), ghost),
      KOKKOS_LAMBDA(int k, int j, int i, long long& m) {
        for (int v = 0; v < variables; ++v) {
          if (math::isfinite(s(v, k, j, i))) continue;
          const long long gi = i + shift.x, gj = j + shift.y, gk = k + shift.z;
          const long long index = ((gk * n.y + gj) * n.x + gi) * variables + v;
          if (index < m) m = index;
        }
      },
      Kokkos::Min<long long>(first));
  long long global = LLONG_MAX;
  MPI_Allreduce(&first, &global, 1, MPI_LONG_LONG, MPI_MIN, decomposition.comm());
  if (global == LLONG_MAX) return "";
  const long long cell = global / variables, nx = cells[0], ny = cells[1];
  return names[global % variables] + " at cell (i, j, k) = (" + std::to_string(cell % nx) + ", " +
         std::to_string((cell / nx) % ny) + ", " + std::to_string(cell / (nx * ny)) + ")";
}

}  // namespace cb
