// The cfd solver as the program sees it (solvers/solver_module.hpp).
#pragma once

#include "solvers/solver_module.hpp"

namespace cb::cfd {

SolverModule module();

}  // namespace cb::cfd
