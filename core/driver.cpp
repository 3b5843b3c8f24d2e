#include "core/driver.hpp"

#include "core/error.hpp"
#include "core/signals.hpp"

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

namespace cb {
namespace {

std::string format(const char* fmt, double a = 0, double b = 0, double c = 0) {
  char buffer[256];
  std::snprintf(buffer, sizeof buffer, fmt, a, b, c);
  return buffer;
}

std::string format_duration(double seconds) {
  if (!std::isfinite(seconds) || seconds < 0) return "--:--:--";
  const long s = std::lround(seconds);
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%ld:%02ld:%02ld", s / 3600, (s / 60) % 60, s % 60);
  return buffer;
}

// What the ranks agree on at a step boundary, as bits (one MPI_BOR reduction).
enum BoundaryFlag : int {
  stop_by_signal = 1,       // any rank received SIGTERM, SIGUSR1 or SIGINT
  stop_by_wall_time = 2,    // rank 0: the time left is below the margin
  checkpoint_by_clock = 4,  // rank 0: [checkpoint] every_minutes elapsed
};

// A non-negative decimal integer (digits only), or -1.
long parse_count(const std::string& text) {
  if (text.empty() || text.size() > 9) return -1;
  for (char c : text) {
    if (!std::isdigit(static_cast<unsigned char>(c))) return -1;
  }
  return std::stol(text);
}

// Slurm's time formats with a colon or a day prefix: "MM:SS", "HH:MM:SS",
// "D-HH", "D-HH:MM", "D-HH:MM:SS".
std::optional<double> parse_slurm_duration(const std::string& text) {
  long days = 0;
  std::string rest = text;
  const size_t dash = text.find('-');
  if (dash != std::string::npos) {
    days = parse_count(text.substr(0, dash));
    rest = text.substr(dash + 1);
    if (days < 0) return std::nullopt;
  }
  std::vector<long> parts;
  size_t begin = 0;
  while (true) {
    const size_t colon = rest.find(':', begin);
    parts.push_back(parse_count(rest.substr(begin, colon - begin)));
    if (parts.back() < 0) return std::nullopt;
    if (colon == std::string::npos) break;
    begin = colon + 1;
  }
  double seconds = 0.0;
  if (dash != std::string::npos && parts.size() <= 3) {  // hours[:minutes[:seconds]]
    const double scale[] = {3600.0, 60.0, 1.0};
    for (size_t n = 0; n < parts.size(); ++n) seconds += scale[n] * parts[n];
  } else if (parts.size() == 2) {  // minutes:seconds
    seconds = 60.0 * parts[0] + parts[1];
  } else if (parts.size() == 3) {  // hours:minutes:seconds
    seconds = 3600.0 * parts[0] + 60.0 * parts[1] + parts[2];
  } else {
    return std::nullopt;
  }
  seconds += 86400.0 * days;
  return seconds > 0.0 ? std::optional<double>(seconds) : std::nullopt;
}

}  // namespace

double wall_seconds() {
  return MPI_Wtime();
}

double epoch_seconds() {
  using namespace std::chrono;
  return duration<double>(system_clock::now().time_since_epoch()).count();
}

double wall_time_margin(double longest_step, double checkpoint_seconds, double budget) {
  const double safety = std::clamp(0.05 * budget, 1.0, 60.0);
  return 2.0 * longest_step + 1.5 * checkpoint_seconds + safety;
}

std::optional<double> parse_duration(const std::string& text) {
  if (text.find_first_of(":-") != std::string::npos) return parse_slurm_duration(text);
  static constexpr char units[] = "dhms";
  static constexpr double unit_seconds[] = {86400.0, 3600.0, 60.0, 1.0};
  double total = 0.0;
  int last_unit = -1;
  size_t n = 0;
  while (n < text.size()) {
    const size_t start = n;
    while (n < text.size() &&
           (std::isdigit(static_cast<unsigned char>(text[n])) || text[n] == '.')) {
      ++n;
    }
    if (n == start || n == text.size()) return std::nullopt;  // no number, or no unit
    char* end = nullptr;
    const std::string number = text.substr(start, n - start);
    const double value = std::strtod(number.c_str(), &end);
    if (*end != '\0') return std::nullopt;
    const char* unit = std::strchr(units, text[n++]);
    if (!unit || *unit == '\0' || unit - units <= last_unit) return std::nullopt;
    last_unit = static_cast<int>(unit - units);
    total += value * unit_seconds[last_unit];
  }
  return total > 0.0 && std::isfinite(total) ? std::optional<double>(total) : std::nullopt;
}

std::string format_slurm_time(double seconds) {
  const long s = static_cast<long>(std::ceil(std::max(seconds, 0.0)));
  char buffer[48];
  if (s >= 86400) {
    std::snprintf(buffer, sizeof buffer, "%ld-%02ld:%02ld:%02ld", s / 86400, (s / 3600) % 24,
                  (s / 60) % 60, s % 60);
  } else {
    std::snprintf(buffer, sizeof buffer, "%ld:%02ld:%02ld", s / 3600, (s / 60) % 60, s % 60);
  }
  return buffer;
}

Driver::Driver(Solver& solver, RunOutput& output, const RunControl& control, MPI_Comm comm,
               Log& log)
    : solver_(solver), output_(output), control_(control), comm_(comm), log_(log) {
  int rank = 0;
  MPI_Comm_rank(comm_, &rank);
  is_root_ = rank == 0;
  solver_.attach_log(&log_);
}

bool Driver::finished(const RunState& state) const {
  if (control_.steps) return state.step >= *control_.steps;
  return state.time >= *control_.end_time;
}

// The solver's stable dt (or the fixed one), shortened so the last step lands
// exactly on end_time. A step that would leave a sliver of less than 1e-6 dt
// (the round-off that thousands of added steps accumulate in the time) is
// stretched instead: a sliver step is not harmless when a scheme's damping
// scales with 1/dt (the weather solver's hyperviscosity).
double Driver::next_dt(const RunState& state) {
  double dt = control_.fixed_dt ? *control_.fixed_dt : solver_.stable_dt();
  if (!(dt > 0.0) || !std::isfinite(dt)) {
    throw RunError(format("step %.0f: time step is not a positive finite number (dt = %g)",
                          static_cast<double>(state.step), dt));
  }
  if (control_.end_time) {
    const double remaining = *control_.end_time - state.time;
    if (dt * (1.0 + 1e-6) >= remaining) dt = remaining;
  }
  return dt;
}

bool Driver::diagnostics_due(const RunState& state) const {
  return control_.diagnostics_every > 0 && state.step % control_.diagnostics_every == 0;
}

bool Driver::output_due(const RunState& state, double previous_time) const {
  if (control_.output_every_steps > 0 && state.step % control_.output_every_steps == 0) {
    return true;
  }
  if (control_.output_every_time > 0.0) {
    const double period = control_.output_every_time;
    return std::floor(state.time / period * (1.0 + 1e-12)) >
           std::floor(previous_time / period * (1.0 + 1e-12));
  }
  return false;
}

bool Driver::checkpoint_due(const RunState& state) const {
  const bool by_steps =
      control_.checkpoint_every_steps > 0 && state.step % control_.checkpoint_every_steps == 0;
  return by_steps || clock_checkpoint_due_;
}

// Rank 0: whether the time left before the deadline is below the margin.
bool Driver::wall_time_short(std::string& reason) {
  if (wall_limit_.deadline <= 0.0) return false;
  const double left = wall_limit_.deadline - epoch_seconds();
  const double checkpoint =
      checkpoint_seconds_ >= 0.0 ? checkpoint_seconds_ : wall_limit_.checkpoint_estimate;
  const double margin = wall_time_margin(longest_step_, checkpoint, wall_limit_.budget);
  if (left >= margin) return false;
  reason =
      "wall-time limit (" + wall_limit_.source +
      format("): %.1f s left, below the margin %.1f s", left, margin) +
      format(" (2 x step %.3f s + 1.5 x checkpoint %.3f s + safety)", longest_step_, checkpoint);
  return true;
}

// The one collective decision of a step boundary: stop by signal or by the
// wall-time limit, and whether a wall-clock checkpoint is due. Rank 0 keeps the
// clocks; every rank contributes its signal flag.
int Driver::poll_boundary(const RunState& state) {
  int flags = stop_requested() != 0 ? stop_by_signal : 0;
  if (is_root_) {
    const double now = wall_seconds();
    if (state.step > start_step_) {
      longest_step_ = std::max(longest_step_, now - last_boundary_wall_ - checkpoint_in_interval_);
    }
    last_boundary_wall_ = now;
    checkpoint_in_interval_ = 0.0;
    if (control_.checkpoint_every_minutes > 0.0 &&
        now - last_checkpoint_wall_ >= 60.0 * control_.checkpoint_every_minutes) {
      flags |= checkpoint_by_clock;
    }
    if (wall_time_short(stop_reason_)) flags |= stop_by_wall_time;
  }
  int agreed = 0;
  MPI_Allreduce(&flags, &agreed, 1, MPI_INT, MPI_BOR, comm_);
  clock_checkpoint_due_ = (agreed & checkpoint_by_clock) != 0;
  return agreed;
}

// Stops with a checkpoint (exit 75). With no step taken since the start the
// resume point (the checkpoint resumed from, or the initial state) is
// unchanged, and nothing is written.
int Driver::stop_early(const RunState& state, long steps_taken, int flags) {
  const std::string at = " at step " + std::to_string(state.step);
  if (flags & stop_by_signal) {
    log_.line("stop requested by signal" + at);
  } else {
    log_.line("stop: " + stop_reason_ + at);
  }
  if (steps_taken > 0 && last_checkpoint_step_ != state.step) {
    log_.line("writing a checkpoint");
    write_checkpoint(state);
  } else if (steps_taken == 0) {
    log_.line(
        "no step taken since the start: the resume point is unchanged, no checkpoint written");
  }
  print_summary(state, steps_taken, true);
  log_.line("exit 75: resume with --restart auto");
  return exit_resumable;
}

bool Driver::check_finite(const RunState& state, const std::vector<Diagnostic>& values) {
  for (const Diagnostic& d : values) {
    if (std::isfinite(d.value)) continue;
    std::string where = solver_.locate_non_finite();
    log_.error(format("error: step %.0f, t = %.9g: diagnostic '", static_cast<double>(state.step),
                      state.time) +
               d.name + "' is " + (std::isnan(d.value) ? "NaN" : "infinite") +
               (where.empty() ? "" : "; first bad value: " + where) +
               "; the run stopped without writing a checkpoint (exit 3)");
    return false;
  }
  return true;
}

void Driver::write_checkpoint(const RunState& state) {
  const std::string bad = solver_.locate_non_finite();
  if (!bad.empty()) {
    throw RunError("step " + std::to_string(state.step) + ": non-finite state (" + bad +
                   "); checkpoint not written, earlier checkpoints kept");
  }
  ScopedPhase io(timer_, Phase::io, "driver::checkpoint");
  const double begin = wall_seconds();
  const std::string path = output_.write_checkpoint(state);
  last_checkpoint_wall_ = wall_seconds();
  checkpoint_seconds_ = last_checkpoint_wall_ - begin;
  checkpoint_in_interval_ += checkpoint_seconds_;
  last_checkpoint_step_ = state.step;
  log_.line("checkpoint: " + path + format(" (%.3f s)", checkpoint_seconds_));
}

double Driver::fraction_done(const RunState& state) const {
  if (control_.steps) return *control_.steps > 0 ? double(state.step) / *control_.steps : 1.0;
  return *control_.end_time > 0 ? state.time / *control_.end_time : 1.0;
}

void Driver::report_progress(const RunState& state, bool force) {
  const double now = wall_seconds();
  if (!force && now - last_progress_wall_ < control_.progress_seconds) return;
  last_progress_wall_ = now;
  const double elapsed = now - start_wall_;
  const double done = fraction_done(state);
  const double start_done =
      control_.steps ? double(start_step_) / *control_.steps : start_time_ / *control_.end_time;
  const double rate = (done - start_done) / elapsed;
  const double eta = rate > 0 ? (1.0 - done) / rate : -1.0;
  const double throughput = solver_.work_per_step() * double(state.step - start_step_) / elapsed;
  log_.progress("step " + std::to_string(state.step) +
                format("  t = %.6g  %5.1f%%  ETA ", state.time, 100.0 * done) +
                format_duration(eta) + format("  %.3e ", throughput) + solver_.throughput_unit());
}

void Driver::print_summary(const RunState& state, long steps_taken, bool early) const {
  const double elapsed = wall_seconds() - start_wall_;
  std::string line = std::string(early ? "stopped early: step " : "finished: step ") +
                     std::to_string(state.step) +
                     format(", t = %.9g, %.0f steps in %.3f s", state.time,
                            static_cast<double>(steps_taken), elapsed);
  log_.line(line);
  std::string phases = "time by phase:";
  const double total = timer_.total() > 0 ? timer_.total() : 1.0;
  for (Phase p : {Phase::compute, Phase::halo, Phase::io, Phase::other}) {
    phases += std::string(" ") + phase_name(p) +
              format(" %.3f s (%.1f%%)", timer_.seconds(p), 100.0 * timer_.seconds(p) / total);
    if (p != Phase::other) phases += ",";
  }
  log_.line(phases);
  const double busy = timer_.seconds(Phase::compute) + timer_.seconds(Phase::halo);
  if (steps_taken > 0 && busy > 0) {
    log_.line(format("figure of merit: %.4e ", solver_.work_per_step() * steps_taken / busy) +
              solver_.throughput_unit() + " (compute + halo time)");
  }
}

int Driver::run(RunState& state) {
  start_wall_ = last_checkpoint_wall_ = wall_seconds();
  start_step_ = state.step;
  start_time_ = state.time;
  long taken = 0;
  long last_output = -1;
  if (state.step == 0) {
    auto values = solver_.diagnostics(state.time);
    output_.append_diagnostics(state, values);
    if (!check_finite(state, values)) return exit_run_failed;
    if (control_.output_every_steps > 0 || control_.output_every_time > 0.0) {
      ScopedPhase io(timer_, Phase::io, "driver::output");
      output_.write_fields(state);
      last_output = 0;
    }
  }
  last_boundary_wall_ = wall_seconds();
  while (!finished(state)) {
    const int flags = poll_boundary(state);
    if (flags & (stop_by_signal | stop_by_wall_time)) return stop_early(state, taken, flags);
    const double dt = next_dt(state);
    const double previous_time = state.time;
    {
      ScopedPhase compute(timer_, Phase::compute, "driver::step");
      solver_.step(state.time, dt, timer_);
    }
    const bool landing = control_.end_time && dt == *control_.end_time - state.time;
    state.time = landing ? *control_.end_time : state.time + dt;
    state.dt = dt;
    ++state.step;
    ++taken;
    if (diagnostics_due(state) || finished(state)) {
      auto values = solver_.diagnostics(state.time);
      output_.append_diagnostics(state, values);
      if (!check_finite(state, values)) return exit_run_failed;
    }
    if (output_due(state, previous_time)) {
      ScopedPhase io(timer_, Phase::io, "driver::output");
      output_.write_fields(state);
      last_output = state.step;
    }
    if (checkpoint_due(state)) write_checkpoint(state);
    report_progress(state, finished(state));
  }
  const bool output_on = control_.output_every_steps > 0 || control_.output_every_time > 0.0;
  if (output_on && taken > 0 && last_output != state.step) {
    ScopedPhase io(timer_, Phase::io, "driver::output");
    output_.write_fields(state);
  }
  if (control_.checkpoint_at_end && taken > 0 && last_checkpoint_step_ != state.step) {
    write_checkpoint(state);
  }
  print_summary(state, taken);
  for (const std::string& line : solver_.summary_lines()) log_.line(line);
  return exit_ok;
}

}  // namespace cb
