#include "core/batch/stop_policy.hpp"

#include "core/batch/durations.hpp"
#include "core/batch/signals.hpp"

#include <algorithm>
#include <cstdio>

namespace cb {
namespace {

// What the ranks agree on, as bits (one MPI_BOR reduction).
enum BoundaryFlag : int {
  flag_signal = 1,
  flag_wall_time = 2,
  flag_clock_checkpoint = 4,
};

}  // namespace

double wall_time_margin(double longest_step, double checkpoint_seconds, double budget) {
  const double safety = std::clamp(0.05 * budget, 1.0, 60.0);
  return 2.0 * longest_step + 1.5 * checkpoint_seconds + safety;
}

StopPolicy::StopPolicy(MPI_Comm comm, double checkpoint_every_minutes)
    : comm_(comm), checkpoint_every_minutes_(checkpoint_every_minutes) {
  int rank = 0;
  MPI_Comm_rank(comm_, &rank);
  is_root_ = rank == 0;
}

void StopPolicy::start(long step) {
  start_step_ = step;
  last_boundary_wall_ = last_checkpoint_wall_ = wall_seconds();
}

// Rank 0: whether the time left before the deadline is below the margin.
bool StopPolicy::wall_time_short() {
  if (limit_.deadline <= 0.0) return false;
  const double left = limit_.deadline - epoch_seconds();
  const double checkpoint =
      checkpoint_seconds_ >= 0.0 ? checkpoint_seconds_ : limit_.checkpoint_estimate;
  const double margin = wall_time_margin(longest_step_, checkpoint, limit_.budget);
  if (left >= margin) return false;
  char text[256];
  std::snprintf(text, sizeof text,
                "): %.1f s left, below the margin %.1f s (2 x step %.3f s + 1.5 x checkpoint "
                "%.3f s + safety)",
                left, margin, longest_step_, checkpoint);
  stop_reason_ = "wall-time limit (" + limit_.source + text;
  return true;
}

BoundaryDecision StopPolicy::poll(long step) {
  int flags = stop_requested() != 0 ? flag_signal : 0;
  if (is_root_) {
    const double now = wall_seconds();
    if (step > start_step_) {
      longest_step_ = std::max(longest_step_, now - last_boundary_wall_ - checkpoint_in_interval_);
    }
    last_boundary_wall_ = now;
    checkpoint_in_interval_ = 0.0;
    if (checkpoint_every_minutes_ > 0.0 &&
        now - last_checkpoint_wall_ >= 60.0 * checkpoint_every_minutes_) {
      flags |= flag_clock_checkpoint;
    }
    if (wall_time_short()) flags |= flag_wall_time;
  }
  int agreed = 0;
  MPI_Allreduce(&flags, &agreed, 1, MPI_INT, MPI_BOR, comm_);
  BoundaryDecision decision;
  decision.stop_by_signal = (agreed & flag_signal) != 0;
  decision.stop_by_wall_time = (agreed & flag_wall_time) != 0;
  decision.checkpoint_by_clock = (agreed & flag_clock_checkpoint) != 0;
  return decision;
}

void StopPolicy::checkpoint_written(double seconds) {
  last_checkpoint_wall_ = wall_seconds();
  checkpoint_seconds_ = seconds;
  checkpoint_in_interval_ += seconds;
}

}  // namespace cb
