#include "io/run_params.hpp"

#include <cmath>
#include <limits>

namespace cb::io {
namespace {

// More steps than any run takes; beyond it a step count no longer fits a
// double's integers and end_time / dt is a sign of a wrong dt.
constexpr double max_steps = 1e15;

// Cells along one axis: padded local extents stay far inside an int.
constexpr double max_cells_per_axis = 1 << 30;

void read_stop_condition(CaseFile& file, RunControl& control) {
  control.end_time = file.find<double>("run", "end_time", Bounds::positive());
  if (auto steps = file.find<long>("run", "steps", Bounds::non_negative())) control.steps = steps;
  if (!control.end_time && !control.steps)
    file.fail_missing("run", "end_time", "end_time' or 'steps");
}

void read_cadences(CaseFile& file, CommonParams& params) {
  RunControl& c = params.control;
  c.fixed_dt = file.find<double>("time", "dt", Bounds::positive());
  if (c.fixed_dt && c.end_time && !(*c.end_time / *c.fixed_dt <= max_steps)) {
    file.fail("time", "dt",
              "[time] dt: end_time / dt is more than 1e15 steps; give a larger dt or [run] steps");
  }
  c.diagnostics_every = file.get<long>("diagnostics", "every_steps", 10, Bounds::non_negative());
  c.output_every_steps = file.get<long>("output", "every_steps", 0, Bounds::non_negative());
  c.output_every_time = file.get<double>("output", "every_time", 0.0, Bounds::non_negative());
  params.output_fields = file.get<std::vector<std::string>>("output", "fields", {});
  c.checkpoint_every_steps = file.get<long>("checkpoint", "every_steps", 0, Bounds::non_negative());
  // Unset: the batch environment's default, applied at run start.
  c.checkpoint_every_minutes =
      file.find<double>("checkpoint", "every_minutes", Bounds::non_negative());
  c.checkpoint_at_end = file.get<bool>("checkpoint", "at_end", true);
  params.checkpoint_keep = file.get<int>("checkpoint", "keep", 3, Bounds::at_least(1));
}

}  // namespace

CommonParams read_common_params(CaseFile& file, const std::vector<std::string>& solvers) {
  CommonParams params;
  params.solver = file.choice("run", "solver", solvers);
  read_stop_condition(file, params.control);
  read_cadences(file, params);
  params.parallel.ranks =
      file.get<Int3>("parallel", "ranks", Int3{0, 0, 0}, Bounds::non_negative());
  params.parallel.gpu_aware_mpi = file.get<bool>("parallel", "gpu_aware_mpi", false);
  return params;
}

GridGeometry read_grid(CaseFile& file, const Real3& lo, const Real3& hi) {
  GridGeometry g;
  g.cells = file.require<Int3>("grid", "cells", Bounds::closed(1, max_cells_per_axis));
  g.lo = file.get<Real3>("grid", "lo", lo);
  g.hi = file.get<Real3>("grid", "hi", hi);
  for (int a = 0; a < 3; ++a) {
    if (!(g.hi[a] > g.lo[a])) file.fail("grid", "hi", "[grid] hi must exceed lo on every axis");
    // hi - lo and the cell size must be ordinary numbers (not inf, not subnormal)
    const double spacing = (g.hi[a] - g.lo[a]) / g.cells[a];
    if (!std::isfinite(g.hi[a] - g.lo[a]) || !(spacing >= std::numeric_limits<double>::min()))
      file.fail("grid", "hi", "[grid] hi - lo is not a finite width with a positive cell size");
  }
  return g;
}

double read_cfl(CaseFile& file, double fallback, const Bounds& bounds) {
  if (file.has("time", "cfl") && file.has("time", "dt")) {
    file.fail("time", "dt", "give either cfl or dt in [time], not both");
  }
  return file.get<double>("time", "cfl", fallback, bounds);
}

}  // namespace cb::io
