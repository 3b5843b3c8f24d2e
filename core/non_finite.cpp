#include "core/non_finite.hpp"

namespace cb {

std::string first_non_finite(const Field& state, const std::vector<std::string>& names,
                             const Decomposition& decomposition, const Int3& ghost) {
  const Field s = state;
  return first_flagged_cell(
      names, decomposition, ghost,
      KOKKOS_LAMBDA(int k, int j, int i, int v) { return !math::isfinite(s(v, k, j, i)); });
}

}  // namespace cb
