// The stop decision of a batch run: at every step boundary the ranks agree
// whether a signal or the wall-time limit stops the run (with a checkpoint and
// exit 75), and whether a wall-clock checkpoint is due. Rank 0 keeps the clocks.
#pragma once

#include <mpi.h>

#include <string>

namespace cb {

// A wall-clock deadline for the run: --max-wall-time and/or the end time of the
// Slurm job. Only rank 0's copy is used: it decides for all.
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

// What the ranks agreed at a step boundary.
struct BoundaryDecision {
  bool stop_by_signal = false;       // any rank received SIGTERM, SIGUSR1 or SIGINT
  bool stop_by_wall_time = false;    // rank 0: the time left is below the margin
  bool checkpoint_by_clock = false;  // rank 0: the checkpoint interval elapsed
  bool stop() const { return stop_by_signal || stop_by_wall_time; }
};

class StopPolicy {
 public:
  // `checkpoint_every_minutes` 0: no wall-clock checkpoints.
  StopPolicy(MPI_Comm comm, double checkpoint_every_minutes);

  void set_wall_time_limit(const WallTimeLimit& limit) { limit_ = limit; }
  const WallTimeLimit& wall_time_limit() const { return limit_; }

  // Starts the clocks at the first step of this run (`step`: 0 or the restart step).
  void start(long step);
  // Collective: the decision at the boundary before `step` + 1 is taken.
  BoundaryDecision poll(long step);
  // A checkpoint took `seconds` (excluded from the step times; the next
  // wall-clock checkpoint is due an interval after it).
  void checkpoint_written(double seconds);
  // Rank 0: why the wall-time limit stops the run ("" otherwise).
  const std::string& stop_reason() const { return stop_reason_; }

 private:
  bool wall_time_short();

  MPI_Comm comm_;
  double checkpoint_every_minutes_;
  WallTimeLimit limit_;
  bool is_root_ = true;
  long start_step_ = 0;
  double last_boundary_wall_ = 0.0;
  double last_checkpoint_wall_ = 0.0;
  double longest_step_ = 0.0;         // seconds, rank 0, checkpoint writes excluded
  double checkpoint_seconds_ = -1.0;  // the last write's duration; < 0: none yet
  double checkpoint_in_interval_ = 0.0;
  std::string stop_reason_;
};

}  // namespace cb
