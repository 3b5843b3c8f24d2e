#include "solvers/scalar/module.hpp"

#include "solvers/scalar/solver.hpp"

namespace cb::scalar {

SolverModule module() {
  auto read_case = [](io::CaseFile& file, io::CommonParams&) {
    const Params params = read_params(file);
    SolverCase c;
    c.geometry = params.geometry;
    c.initial_dt = stable_dt(params);
    c.output_field_names = output_field_names();
    c.memory_bytes_per_rank = [params](int ranks) { return field_bytes(params, ranks); };
    c.create = grid_factory<ScalarSolver>(params);
    return c;
  };
  return {"scalar", "advection-diffusion of a passive scalar (the tutorial solver)", read_case};
}

}  // namespace cb::scalar
