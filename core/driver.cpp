#include "core/driver.hpp"

#include "core/error.hpp"

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

}  // namespace

Driver::Driver(Solver& solver, RunOutput& output, const RunControl& control, MPI_Comm comm,
               Log& log)
    : solver_(solver),
      output_(output),
      control_(control),
      comm_(comm),
      log_(log),
      stop_policy_(comm, control.checkpoint_every_minutes.value_or(0.0)) {
  solver_.attach_log(&log_);
}

bool reached_stop(const RunControl& control, const RunState& state) {
  return (control.steps && state.step >= *control.steps) ||
         (control.end_time && state.time >= *control.end_time);
}

bool Driver::finished(const RunState& state) const {
  return reached_stop(control_, state);
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

// Stops with a checkpoint (exit 75). With no step taken since the start the
// resume point (the checkpoint resumed from, or the initial state) is
// unchanged, and nothing is written.
int Driver::stop_early(const RunState& state, long steps_taken, const BoundaryDecision& decision) {
  const std::string at = " at step " + std::to_string(state.step);
  if (decision.stop_by_signal) {
    log_.line("stop requested by signal" + at);
  } else {
    log_.line("stop: " + stop_policy_.stop_reason() + at);
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
  const double seconds = wall_seconds() - begin;
  stop_policy_.checkpoint_written(seconds);
  last_checkpoint_step_ = state.step;
  log_.line("checkpoint: " + path + format(" (%.3f s)", seconds));
}

// The larger of the fractions of the steps and of the end time done: the
// run ends when the first of the two is reached.
double Driver::fraction_done(const RunState& state) const {
  double done = 0.0;
  if (control_.steps)
    done = std::max(done, *control_.steps > 0 ? double(state.step) / *control_.steps : 1.0);
  if (control_.end_time)
    done = std::max(done, *control_.end_time > 0 ? state.time / *control_.end_time : 1.0);
  return done;
}

void Driver::report_progress(const RunState& state, bool force) {
  const double now = wall_seconds();
  if (!force && now - last_progress_wall_ < control_.progress_seconds) return;
  last_progress_wall_ = now;
  const double elapsed = now - start_wall_;
  const double done = fraction_done(state);
  const double start_done = fraction_done({start_step_, start_time_, 0.0});
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
  start_wall_ = wall_seconds();
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
  stop_policy_.start(state.step);
  while (!finished(state)) {
    const BoundaryDecision decision = stop_policy_.poll(state.step);
    clock_checkpoint_due_ = decision.checkpoint_by_clock;
    if (decision.stop()) return stop_early(state, taken, decision);
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
