// The solvers this build knows: one row per solver folder.
#pragma once

#include "solvers/solver_module.hpp"

#include <string>
#include <vector>

namespace cb {

std::vector<SolverModule> solver_modules();
std::vector<std::string> solver_names();
// The module named `name`; nullptr when there is none.
const SolverModule* find_solver_module(const std::vector<SolverModule>& modules,
                                       const std::string& name);

}  // namespace cb
