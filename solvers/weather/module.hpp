// The weather solver as the program sees it (solvers/solver_module.hpp).
#pragma once

#include "solvers/solver_module.hpp"

namespace cb::weather {

SolverModule module();

}  // namespace cb::weather
