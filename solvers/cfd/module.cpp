#include "solvers/cfd/module.hpp"

#include "core/error.hpp"
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
    if (params.bodies.empty()) {
      c.create = grid_factory<CfdSolver>(params);
    } else {
      // The cut-cell discretisation is not in yet (issue 18): `check` reports
      // the geometry, a run is refused before anything is written.
      c.create = [](const io::RunSetup&) -> std::unique_ptr<io::SolverRun> {
        throw InputError(
            "[[geometry]]: bodies in the flow are not discretised yet; `cloudburst check` "
            "reports their volume and area on this grid");
      };
    }
    return c;
  };
  return {"cfd", "compressible Euler and Navier-Stokes finite volumes", read_case};
}

}  // namespace cb::cfd
