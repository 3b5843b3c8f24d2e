#include "core/batch/slurm.hpp"

#include "core/driver.hpp"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <ctime>

namespace cb {
namespace {

std::string environment_text(const char* name) {
  const char* value = std::getenv(name);
  return value ? std::string(value) : std::string();
}

// CLOUDBURST_CHECKPOINT_MINUTES as a non-negative number, or nullopt.
std::optional<double> checkpoint_minutes_variable() {
  const std::string text = environment_text("CLOUDBURST_CHECKPOINT_MINUTES");
  if (text.empty()) return std::nullopt;
  char* end = nullptr;
  const double minutes = std::strtod(text.c_str(), &end);
  if (*end != '\0' || !(minutes >= 0.0)) return std::nullopt;
  return minutes;
}

}  // namespace

std::string SlurmJob::describe() const {
  if (!inside()) return "no batch job";
  std::string text = "Slurm job " + id;
  if (!array_task_id.empty())
    text += " (array job " + array_job_id + " task " + array_task_id + ")";
  return text + ", restart " + (restart_count.empty() ? "0" : restart_count);
}

SlurmJob slurm_job_from_environment() {
  return {environment_text("SLURM_JOB_ID"), environment_text("SLURM_ARRAY_JOB_ID"),
          environment_text("SLURM_ARRAY_TASK_ID"), environment_text("SLURM_RESTART_COUNT")};
}

std::vector<std::string> apply_environment_defaults(RunControl& control, const SlurmJob& job) {
  if (control.checkpoint_every_minutes) return {};
  char line[160];
  if (const std::optional<double> minutes = checkpoint_minutes_variable()) {
    control.checkpoint_every_minutes = *minutes;
    std::snprintf(line, sizeof line,
                  "checkpoint every_minutes = %g (from CLOUDBURST_CHECKPOINT_MINUTES)", *minutes);
    return {line};
  }
  control.checkpoint_every_minutes = job.inside() ? 15.0 : 0.0;
  if (!job.inside()) return {};
  return {"checkpoint every_minutes = 15 (the default inside a Slurm job)"};
}

WallTimeLimit resolve_wall_time(std::optional<double> budget, const std::string& budget_source,
                                double start, bool root) {
  WallTimeLimit limit;
  if (!root) return limit;
  if (budget) {
    limit.deadline = start + *budget;
    limit.source = budget_source;
  }
  if (const std::optional<double> end = slurm_job_end_time()) {
    if (limit.deadline <= 0.0 || *end < limit.deadline) {
      limit.deadline = *end;
      limit.source = "end of Slurm job " + environment_text("SLURM_JOB_ID");
    }
  }
  limit.budget = limit.deadline > 0.0 ? limit.deadline - start : 0.0;
  return limit;
}

std::optional<double> parse_slurm_timestamp(const std::string& text) {
  std::tm when{};
  char tail = 0;
  if (std::sscanf(text.c_str(), "%d-%d-%dT%d:%d:%d%c", &when.tm_year, &when.tm_mon, &when.tm_mday,
                  &when.tm_hour, &when.tm_min, &when.tm_sec, &tail) != 6) {
    return std::nullopt;
  }
  when.tm_year -= 1900;
  when.tm_mon -= 1;
  when.tm_isdst = -1;  // squeue prints local time; let mktime find out about DST
  const std::time_t seconds = std::mktime(&when);
  if (seconds == static_cast<std::time_t>(-1)) return std::nullopt;
  return static_cast<double>(seconds);
}

std::optional<double> slurm_job_end_time() {
  const char* job = std::getenv("SLURM_JOB_ID");
  if (!job || !*job) return std::nullopt;
  if (const char* end = std::getenv("SLURM_JOB_END_TIME")) {
    char* rest = nullptr;
    const double value = std::strtod(end, &rest);
    if (rest != end && *rest == '\0' && value > 0.0) return value;
  }
  const std::string id = job;
  if (!std::all_of(id.begin(), id.end(),
                   [](char c) { return std::isdigit(static_cast<unsigned char>(c)); })) {
    return std::nullopt;
  }
  FILE* pipe = popen(("squeue -h -j " + id + " -o %e 2>/dev/null").c_str(), "r");
  if (!pipe) return std::nullopt;
  char buffer[128] = {};
  const bool read = std::fgets(buffer, sizeof buffer, pipe) != nullptr;
  pclose(pipe);
  if (!read) return std::nullopt;
  std::string text = buffer;
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.back()))) text.pop_back();
  return parse_slurm_timestamp(text);
}

}  // namespace cb
