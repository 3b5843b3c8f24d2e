// The run driver: the time loop and its cadences (docs/architecture.md, "One
// step"). Physics-free; talks to a Solver and to a RunOutput.
#pragma once

#include "core/batch/durations.hpp"
#include "core/batch/stop_policy.hpp"
#include "core/log.hpp"
#include "core/run_output.hpp"
#include "core/solver.hpp"
#include "core/timers.hpp"

#include <mpi.h>

#include <optional>
#include <string>

namespace cb {

struct RunControl {
  // The run stops at whichever comes first (AMReX's max_step and stop_time);
  // at least one is given.
  std::optional<double> end_time;
  std::optional<long> steps;
  std::optional<double> fixed_dt;  // else the solver's stable dt
  long diagnostics_every = 1;      // 0: only at start and end
  long output_every_steps = 0;     // 0: off
  double output_every_time = 0.0;  // 0: off
  long checkpoint_every_steps = 0;
  // Wall-clock checkpoint interval; unset: the batch environment's default,
  // applied at run start (apply_environment_defaults in core/batch/slurm.hpp).
  std::optional<double> checkpoint_every_minutes;
  bool checkpoint_at_end = true;
  double progress_seconds = 2.0;  // minimum wall time between progress lines
};

// Whether `state` has reached the stop condition of `control`.
bool reached_stop(const RunControl& control, const RunState& state);

class Driver {
 public:
  Driver(Solver& solver, RunOutput& output, const RunControl& control, MPI_Comm comm, Log& log);

  // Stop early, with a checkpoint and exit 75, when less than
  // wall_time_margin() is left before `limit.deadline`.
  void set_wall_time_limit(const WallTimeLimit& limit) { stop_policy_.set_wall_time_limit(limit); }

  // Runs from `state` (step 0 or a restart) to the stop condition. Returns the
  // exit code: 0 done, 3 non-finite state, 75 stopped by a signal or the
  // wall-time limit (a checkpoint written, unless no step was taken since the
  // start, so the resume point is unchanged). `state` holds the final position.
  int run(RunState& state);

  const PhaseTimer& timer() const { return timer_; }

 private:
  bool finished(const RunState& state) const;
  double next_dt(const RunState& state);
  bool diagnostics_due(const RunState& state) const;
  bool output_due(const RunState& state, double previous_time) const;
  int stop_early(const RunState& state, long steps_taken, const BoundaryDecision& decision);
  bool checkpoint_due(const RunState& state) const;
  bool check_finite(const RunState& state, const std::vector<Diagnostic>& values);
  void report_progress(const RunState& state, bool force);
  void print_summary(const RunState& state, long steps_taken, bool early = false) const;
  double fraction_done(const RunState& state) const;
  void write_checkpoint(const RunState& state);

  Solver& solver_;
  RunOutput& output_;
  RunControl control_;
  MPI_Comm comm_;
  Log& log_;
  PhaseTimer timer_;
  StopPolicy stop_policy_;
  double start_wall_ = 0.0;
  double last_progress_wall_ = -1e300;
  bool clock_checkpoint_due_ = false;  // agreed at the last boundary poll
  long last_checkpoint_step_ = -1;
  long start_step_ = 0;
  double start_time_ = 0.0;
};

}  // namespace cb
