#include "solvers/cfd/module.hpp"

#include "solvers/cfd/geometry_params.hpp"
#include "solvers/cfd/solver.hpp"

namespace cb::cfd {

SolverModule module() {
  auto read_case = [](io::CaseFile& file, io::CommonParams&) {
    const Params params = read_params(file);
    SolverCase c;
    c.geometry = params.geometry;
    c.output_field_names = output_field_names();
    c.memory_bytes_per_rank = [params](int ranks) { return field_bytes(params, ranks); };
    c.describe = [params] { return describe_geometry(params.bodies, params.geometry); };
    c.create = grid_factory<CfdSolver>(params);
    return c;
  };
  return {"cfd", "compressible Euler and Navier-Stokes finite volumes", read_case};
}

}  // namespace cb::cfd
