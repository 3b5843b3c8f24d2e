// What a run learns from its batch environment: the Slurm job it runs in, the
// job's end time, and the run-start defaults that depend on them. The case
// reader never looks at the environment (so `check` resolves a case the same
// inside and outside Slurm); these are applied when a run starts, and logged.
#pragma once

#include "core/batch/stop_policy.hpp"

#include <optional>
#include <string>
#include <vector>

namespace cb {

struct RunControl;

// The Slurm job this process runs in (empty id outside Slurm).
struct SlurmJob {
  std::string id, array_job_id, array_task_id, restart_count;
  bool inside() const { return !id.empty(); }
  // "Slurm job 123 (array job 120 task 4), restart 2" or "no batch job".
  std::string describe() const;
};
SlurmJob slurm_job_from_environment();

// The end of the Slurm job this process runs in, in seconds since the Unix
// epoch: SLURM_JOB_END_TIME when set, else `squeue -h -j $SLURM_JOB_ID -o %e`.
// nullopt outside Slurm, for an unlimited job, or when squeue cannot tell.
// Not collective (it may run a command): call it on one rank.
std::optional<double> slurm_job_end_time();

// "2026-03-01T14:05:00" in local time (squeue's %e) -> seconds since the
// epoch; nullopt for anything else ("N/A", "Unknown").
std::optional<double> parse_slurm_timestamp(const std::string& text);

// Fills what the case left to the environment: [checkpoint] every_minutes
// defaults to CLOUDBURST_CHECKPOINT_MINUTES when set (the Slurm templates set
// it, e.g. shorter on spot nodes), else to 15 minutes inside a Slurm job (a
// lost node then costs at most that much work), else off. Returns one log
// line per default applied.
std::vector<std::string> apply_environment_defaults(RunControl& control, const SlurmJob& job);

// The wall-clock deadline on rank 0: the earlier of `budget` seconds from
// `start` (--max-wall-time, described by `budget_source`) and the Slurm job's
// end time. Other ranks get no limit: rank 0 decides for all of them.
WallTimeLimit resolve_wall_time(std::optional<double> budget, const std::string& budget_source,
                                double start, bool root);

}  // namespace cb
