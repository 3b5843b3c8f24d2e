// The NaN guard's locator, shared by the grid solvers.
#pragma once

#include "core/decomposition.hpp"
#include "core/types.hpp"

#include <string>
#include <vector>

namespace cb {

// Collective. The first (lowest global cell, then variable) non-finite value
// among variables 0 .. names.size() - 1 of `state`'s owned cells, as
// "NAME at cell (i, j, k) = (.., .., ..)", or "" when all are finite. The same
// text on every rank.
std::string first_non_finite(const Field& state, const std::vector<std::string>& names,
                             const Decomposition& decomposition, const Int3& ghost);

}  // namespace cb
