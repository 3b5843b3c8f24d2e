#include "solvers/weather/module.hpp"

#include "solvers/weather/solver.hpp"

namespace cb::weather {

SolverModule module() {
  auto read_case = [](io::CaseFile& file, io::CommonParams& common) {
    const Params params = read_params(file);
    // The microphysics works on whole columns: ranks are not stacked in z.
    if (params.moisture.kessler) {
      if (common.parallel.ranks[2] > 1)
        file.fail("parallel", "ranks",
                  "[parallel] ranks: a run with microphysics keeps whole columns on each rank; "
                  "put 1 rank along z");
      common.parallel.ranks[2] = 1;
    }
    SolverCase c;
    c.geometry = params.geometry;
    c.initial_dt = stable_dt(params);
    c.output_field_names = output_field_names(params);
    c.memory_bytes_per_rank = [params](int ranks) { return field_bytes(params, ranks); };
    c.create = grid_factory<WeatherSolver>(params);
    return c;
  };
  return {"weather", "non-hydrostatic compressible dynamical core (miniWeather numerics)",
          read_case};
}

}  // namespace cb::weather
