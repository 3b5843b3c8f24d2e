#include "apps/solver_registry.hpp"

#include "solvers/scalar/solver.hpp"
#include "solvers/weather/solver.hpp"

namespace cb::app {
namespace {

PreparedSolver prepare_scalar(io::CaseFile& file) {
  const scalar::Params params = scalar::read_params(file);
  PreparedSolver prepared;
  prepared.geometry = params.geometry;
  prepared.field_bytes_per_rank = [params](int ranks) {
    return scalar::field_bytes(params, ranks);
  };
  prepared.initial_dt = scalar::stable_dt(params);
  prepared.output_field_names = {"q"};
  prepared.create = [params](const Decomposition& decomposition) -> std::unique_ptr<Solver> {
    return std::make_unique<scalar::ScalarSolver>(params, decomposition);
  };
  return prepared;
}

PreparedSolver prepare_weather(io::CaseFile& file) {
  const weather::Params params = weather::read_params(file);
  PreparedSolver prepared;
  prepared.geometry = params.geometry;
  prepared.field_bytes_per_rank = [params](int ranks) {
    return weather::field_bytes(params, ranks);
  };
  prepared.initial_dt = weather::stable_dt(params);
  prepared.output_field_names = {"theta_pert", "u", "w", "rho_pert"};
  if (params.three_d()) prepared.output_field_names.push_back("v");
  prepared.create = [params](const Decomposition& decomposition) -> std::unique_ptr<Solver> {
    return std::make_unique<weather::WeatherSolver>(params, decomposition);
  };
  return prepared;
}

}  // namespace

std::vector<std::string> solver_names() {
  return {"scalar", "weather"};
}

PreparedSolver prepare_solver(const std::string& name, io::CaseFile& file) {
  if (name == "scalar") return prepare_scalar(file);
  if (name == "weather") return prepare_weather(file);
  file.fail("run", "solver", "solver '" + name + "' is not available in this build");
}

}  // namespace cb::app
