#include "solvers/registry.hpp"

#include "solvers/cfd/module.hpp"
#include "solvers/md/module.hpp"
#include "solvers/scalar/module.hpp"
#include "solvers/weather/module.hpp"

namespace cb {

std::vector<SolverModule> solver_modules() {
  return {scalar::module(), weather::module(), cfd::module(), md::module()};
}

std::vector<std::string> solver_names() {
  std::vector<std::string> names;
  for (const SolverModule& m : solver_modules()) names.push_back(m.name);
  return names;
}

const SolverModule* find_solver_module(const std::vector<SolverModule>& modules,
                                       const std::string& name) {
  for (const SolverModule& m : modules)
    if (m.name == name) return &m;
  return nullptr;
}

}  // namespace cb
