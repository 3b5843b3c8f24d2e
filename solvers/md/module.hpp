// The md solver as the program sees it (solvers/solver_module.hpp).
#pragma once

#include "solvers/solver_module.hpp"

namespace cb::md {

SolverModule module();

}  // namespace cb::md
