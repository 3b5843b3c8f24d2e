// Locating the first bad value of a grid state: the NaN guard's locator, and
// the checks of a state read from a checkpoint. Shared by the grid solvers.
#pragma once

#include "core/decomposition.hpp"
#include "core/kokkos_compat.hpp"
#include "core/types.hpp"

#include <mpi.h>

#include <climits>
#include <string>
#include <vector>

namespace cb {

// Collective. The first (lowest global cell, then test) owned cell for which
// `flagged(k, j, i, t)` is true, t = 0 .. tests.size() - 1, as
// "TEST at cell (i, j, k) = (.., .., ..)", or "" when none is. The same text on
// every rank. `flagged` is a device function of padded indices.
template <class Flagged>
std::string first_flagged_cell(const std::vector<std::string>& tests,
                               const Decomposition& decomposition, const Int3& ghost,
                               const Flagged& flagged) {
  const int count = static_cast<int>(tests.size());
  const Int3& cells = decomposition.global_cells();
  const Index3 n = to_index3(cells);
  const Index3 shift = {decomposition.offset()[0] - ghost[0], decomposition.offset()[1] - ghost[1],
                        decomposition.offset()[2] - ghost[2]};
  long long first = LLONG_MAX;
  Kokkos::parallel_reduce(
      "core::find_flagged_cell", owned_cells(decomposition.local_cells(), ghost),
      KOKKOS_LAMBDA(int k, int j, int i, long long& m) {
        for (int t = 0; t < count; ++t) {
          if (!flagged(k, j, i, t)) continue;
          const long long gi = i + shift.x, gj = j + shift.y, gk = k + shift.z;
          const long long index = ((gk * n.y + gj) * n.x + gi) * count + t;
          if (index < m) m = index;
        }
      },
      Kokkos::Min<long long>(first));
  long long global = LLONG_MAX;
  MPI_Allreduce(&first, &global, 1, MPI_LONG_LONG, MPI_MIN, decomposition.comm());
  if (global == LLONG_MAX) return "";
  const long long cell = global / count, nx = cells[0], ny = cells[1];
  return tests[global % count] + " at cell (i, j, k) = (" + std::to_string(cell % nx) + ", " +
         std::to_string((cell / nx) % ny) + ", " + std::to_string(cell / (nx * ny)) + ")";
}

// Collective. The first non-finite value among variables 0 .. names.size() - 1
// of `state`'s owned cells, as "NAME at cell (i, j, k) = (..)", or "".
std::string first_non_finite(const Field& state, const std::vector<std::string>& names,
                             const Decomposition& decomposition, const Int3& ghost);

}  // namespace cb
