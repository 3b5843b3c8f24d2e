#include "apps/solver_registry.hpp"

#include "io/atom_table.hpp"
#include "solvers/cfd/solver.hpp"
#include "solvers/md/solver.hpp"
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

PreparedSolver prepare_cfd(io::CaseFile& file) {
  const cfd::Params params = cfd::read_params(file);
  PreparedSolver prepared;
  prepared.geometry = params.geometry;
  prepared.field_bytes_per_rank = [params](int ranks) { return cfd::field_bytes(params, ranks); };
  prepared.output_field_names = cfd::output_field_names();
  prepared.create = [params](const Decomposition& decomposition) -> std::unique_ptr<Solver> {
    return std::make_unique<cfd::CfdSolver>(params, decomposition);
  };
  return prepared;
}

// Molecular dynamics: the Decomposition splits the grid of params.geometry
// (lattice cells, or a fine grid over a data file's box); md::MdSolver
// refuses a rank grid whose sub-boxes are thinner than cutoff + skin.
PreparedSolver prepare_md(io::CaseFile& file) {
  const md::Params params = md::read_params(file);
  PreparedSolver prepared;
  prepared.geometry = params.geometry;
  prepared.field_bytes_per_rank = [params](int ranks) { return md::memory_bytes(params, ranks); };
  prepared.initial_dt = params.dt;
  prepared.particles = true;
  prepared.output_field_names = io::particle_output_names({"pe", "ke"});
  prepared.create = [params](const Decomposition& decomposition) -> std::unique_ptr<Solver> {
    return std::make_unique<md::MdSolver>(params, decomposition);
  };
  return prepared;
}

}  // namespace

std::vector<std::string> solver_names() {
  return {"scalar", "weather", "cfd", "md"};
}

PreparedSolver prepare_solver(const std::string& name, io::CaseFile& file) {
  if (name == "scalar") return prepare_scalar(file);
  if (name == "weather") return prepare_weather(file);
  if (name == "cfd") return prepare_cfd(file);
  if (name == "md") return prepare_md(file);
  file.fail("run", "solver", "solver '" + name + "' is not available in this build");
}

}  // namespace cb::app
