// The run driver (DESIGN.md §5): the time loop and its cadences. Physics-free;
// talks to a Solver and to a RunOutput.
#pragma once

#include "core/log.hpp"
#include "core/run_output.hpp"
#include "core/solver.hpp"
#include "core/timers.hpp"

#include <mpi.h>

#include <optional>
#include <string>

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
  double progress_seconds = 2.0;  // minimum wall time between progress lines
};

// A wall-clock deadline for the run (DESIGN.md §7): --max-wall-time and/or the
// end time of the Slurm job. Only rank 0's copy is used: it decides for all.
struct WallTimeLimit {
  double deadline = 0.0;             // seconds since the Unix epoch; 0: no limit
  double budget = 0.0;               // seconds from the start of the run to the deadline
  std::string source;                // for messages, e.g. "--max-wall-time 2h30m"
  double checkpoint_estimate = 0.0;  // seconds a checkpoint takes, until one is measured
};

// Seconds kept in hand before a deadline: two of the longest step seen so far
// (the next one may be slower), one and a half checkpoint writes, and a safety
// allowance of 5% of the budget, at least 1 s (for closing files and MPI) and
// at most 60 s.
double wall_time_margin(double longest_step, double checkpoint_seconds, double budget);

// Parses a duration: "2h30m", "90m", "45s", "1h5m30s", "1.5h", "2d", or Slurm's
// "[D-]HH:MM:SS", "MM:SS", "D-HH[:MM]". A bare number (no unit) is refused as
// ambiguous. Returns seconds, or nullopt when malformed or not positive.
std::optional<double> parse_duration(const std::string& text);

// "H:MM:SS" (or "D-HH:MM:SS" from a day on) of a number of seconds, rounded up.
std::string format_slurm_time(double seconds);

// Seconds since the Unix epoch (system clock; comparable across hosts).
double epoch_seconds();

class Driver {
 public:
  Driver(Solver& solver, RunOutput& output, const RunControl& control, MPI_Comm comm, Log& log);

  // Stop early, with a checkpoint and exit 75, when less than
  // wall_time_margin() is left before `limit.deadline`.
  void set_wall_time_limit(const WallTimeLimit& limit) { wall_limit_ = limit; }

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
  int poll_boundary(const RunState& state);
  bool wall_time_short(std::string& reason);
  int stop_early(const RunState& state, long steps_taken, int flags);
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
  WallTimeLimit wall_limit_;
  bool is_root_ = true;
  double start_wall_ = 0.0;
  double last_progress_wall_ = -1e300;
  double last_checkpoint_wall_ = 0.0;
  double last_boundary_wall_ = 0.0;
  double longest_step_ = 0.0;         // seconds, rank 0, checkpoint writes excluded
  double checkpoint_seconds_ = -1.0;  // the last write's duration; < 0: none yet
  double checkpoint_in_interval_ = 0.0;
  bool clock_checkpoint_due_ = false;  // agreed at the last boundary poll
  std::string stop_reason_;            // rank 0: why the wall-time limit stops the run
  long last_checkpoint_step_ = -1;
  long start_step_ = 0;
  double start_time_ = 0.0;
};

// Seconds since an arbitrary fixed point (MPI_Wtime).
double wall_seconds();

}  // namespace cb
