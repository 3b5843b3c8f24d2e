// The scalar solver as the program sees it (solvers/solver_module.hpp).
#pragma once

#include "solvers/solver_module.hpp"

namespace cb::scalar {

SolverModule module();

}  // namespace cb::scalar
