// The interface between the run driver and a solver. The driver owns the time
// loop (docs/architecture.md, "One step"); a solver owns its state and knows its physics.
#pragma once

#include "core/timers.hpp"
#include "core/types.hpp"

#include <string>
#include <utility>
#include <vector>

namespace cb {

// One named global diagnostic value (already reduced over all ranks).
struct Diagnostic {
  std::string name;
  double value = 0.0;
};

// Where a grid lives in space: global cells, physical extent, periodicity.
struct GridGeometry {
  Int3 cells{1, 1, 1};
  Real3 lo{0.0, 0.0, 0.0};
  Real3 hi{1.0, 1.0, 1.0};
  Bool3 periodic{true, true, true};
  double spacing(int axis) const { return (hi[axis] - lo[axis]) / cells[axis]; }
  long long total_cells() const { return 1LL * cells[0] * cells[1] * cells[2]; }
};

class Log;

class Solver {
 public:
  virtual ~Solver() = default;

  virtual std::string name() const = 0;       // "scalar", "weather", ...
  virtual std::string case_name() const = 0;  // initial-condition name

  // Largest stable time step, reduced (min) over all ranks.
  virtual double stable_dt() = 0;
  // Advances the state from `time` to `time + dt`; halo exchanges are timed
  // as Phase::halo inside the driver's Phase::compute.
  virtual void step(double time, double dt, PhaseTimer& timer) = 0;
  // Diagnostics at `time`, reduced over all ranks, identical on every rank.
  virtual std::vector<Diagnostic> diagnostics(double time) = 0;

  // Describes the first non-finite value in the state ("q at cell (i, j, k)"),
  // or "" when all are finite. Collective; the same text on every rank.
  virtual std::string locate_non_finite() = 0;
  // The same for any value no physical state has (a non-finite value, or for
  // example a negative density), or "". Collective. Checked when a state is
  // read from a checkpoint.
  virtual std::string locate_invalid_state() { return locate_non_finite(); }

  // Extra scalars a bit-exact restart needs (stored as checkpoint attributes).
  virtual std::vector<std::pair<std::string, double>> checkpoint_scalars() const { return {}; }
  // Called after fields and scalars were read from a checkpoint.
  virtual void restore(const std::vector<std::pair<std::string, double>>& /*scalars*/) {}

  // Lines printed at the end of a run (e.g. the weather solver's d_mass, d_te).
  virtual std::vector<std::string> summary_lines() { return {}; }
  // The run's log (rank-0 console, mirrored into <out>/run.log), for a solver
  // that prints lines as it runs (the MD thermo rows). The driver attaches it.
  virtual void attach_log(Log* /*log*/) {}

  // Work per step for the figure of merit, and its unit ("cell-updates/s").
  virtual double work_per_step() const = 0;
  virtual std::string throughput_unit() const { return "cell-updates/s"; }
};

// A solver on a structured grid: its fields are written as global datasets at
// the output cadence and into checkpoints (io/grid_run.cpp).
class GridSolver : public Solver {
 public:
  virtual std::vector<FieldComponent> output_fields() = 0;
  virtual std::vector<FieldComponent> checkpoint_fields() = 0;
  virtual const GridGeometry& geometry() const = 0;
  virtual int halo() const = 0;
};

}  // namespace cb
