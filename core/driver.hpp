// The run driver (DESIGN.md §5): the time loop and its cadences. Physics-free;
// talks to a Solver and to a RunOutput.
#pragma once

#include "core/log.hpp"
#include "core/run_output.hpp"
#include "core/solver.hpp"
#include "core/timers.hpp"

#include <mpi.h>

#include <optional>

namespace cb {

struct RunControl {
  std::optional<double> end_time;  // exactly one of end_time and steps
  std::optional<long> steps;
  std::optional<double> fixed_dt;  // else the solver's stable dt
  long diagnostics_every = 1;      // 0: only at start and end
  long output_every_steps = 0;     // 0: off
  double output_every_time = 0.0;  // 0: off
  long checkpoint_every_steps = 0;
  double checkpoint_every_minutes = 0.0;
  bool checkpoint_at_end = true;
  double progress_seconds = 2.0;   // minimum wall time between progress lines
};

class Driver {
 public:
  Driver(Solver& solver, RunOutput& output, const RunControl& control, MPI_Comm comm, Log& log);

  // Runs from `state` (step 0 or a restart) to the stop condition. Returns the
  // exit code: 0 done, 3 non-finite state, 75 stopped by a signal (checkpoint
  // written). `state` holds the final position.
  int run(RunState& state);

  const PhaseTimer& timer() const { return timer_; }

 private:
  bool finished(const RunState& state) const;
  double next_dt(const RunState& state);
  bool diagnostics_due(const RunState& state) const;
  bool output_due(const RunState& state, double previous_time) const;
  bool checkpoint_due(const RunState& state);
  bool check_finite(const RunState& state, const std::vector<Diagnostic>& values);
  void report_progress(const RunState& state, bool force);
  void print_summary(const RunState& state, long steps_taken) const;
  double fraction_done(const RunState& state) const;
  void write_checkpoint(const RunState& state);

  Solver& solver_;
  RunOutput& output_;
  RunControl control_;
  MPI_Comm comm_;
  Log& log_;
  PhaseTimer timer_;
  double start_wall_ = 0.0;
  double last_progress_wall_ = -1e300;
  double last_checkpoint_wall_ = 0.0;
  long start_step_ = 0;
  double start_time_ = 0.0;
};

// Seconds since an arbitrary fixed point (MPI_Wtime).
double wall_seconds();

}  // namespace cb
