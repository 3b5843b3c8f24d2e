#include "core/driver.hpp"

#include "core/error.hpp"
#include "core/signals.hpp"

#include <cmath>
#include <cstdio>
#include <string>

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

// A control-flow decision every rank takes together: the maximum over ranks.
int agree_max(int value, MPI_Comm comm) {
  int result = 0;
  MPI_Allreduce(&value, &result, 1, MPI_INT, MPI_MAX, comm);
  return result;
}

}  // namespace

double wall_seconds() { return MPI_Wtime(); }

Driver::Driver(Solver& solver, RunOutput& output, const RunControl& control, MPI_Comm comm,
               Log& log)
    : solver_(solver), output_(output), control_(control), comm_(comm), log_(log) {}

bool Driver::finished(const RunState& state) const {
  if (control_.steps) return state.step >= *control_.steps;
  return state.time >= *control_.end_time;
}

// The solver's stable dt (or the fixed one), shortened so the last step lands
// exactly on end_time. A step that would leave a sliver of less than 1e-10 dt
// is stretched instead.
double Driver::next_dt(const RunState& state) {
  double dt = control_.fixed_dt ? *control_.fixed_dt : solver_.stable_dt();
  if (!(dt > 0.0) || !std::isfinite(dt)) {
    throw RunError(format("step %.0f: time step is not a positive finite number (dt = %g)",
                          static_cast<double>(state.step), dt));
  }
  if (control_.end_time) {
    const double remaining = *control_.end_time - state.time;
    if (dt * (1.0 + 1e-10) >= remaining) dt = remaining;
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

bool Driver::checkpoint_due(const RunState& state) {
  const bool by_steps = control_.checkpoint_every_steps > 0 &&
                        state.step % control_.checkpoint_every_steps == 0;
  const bool by_clock = control_.checkpoint_every_minutes > 0.0 &&
                        wall_seconds() - last_checkpoint_wall_ >=
                            60.0 * control_.checkpoint_every_minutes;
  return agree_max(by_steps || by_clock ? 1 : 0, comm_) != 0;
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
  const std::string path = output_.write_checkpoint(state);
  last_checkpoint_wall_ = wall_seconds();
  log_.line("checkpoint: " + path);
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
  const double start_done = control_.steps ? double(start_step_) / *control_.steps
                                           : start_time_ / *control_.end_time;
  const double rate = (done - start_done) / elapsed;
  const double eta = rate > 0 ? (1.0 - done) / rate : -1.0;
  const double throughput = solver_.work_per_step() * double(state.step - start_step_) / elapsed;
  log_.progress("step " + std::to_string(state.step) +
                format("  t = %.6g  %5.1f%%  ETA ", state.time, 100.0 * done) +
                format_duration(eta) + format("  %.3e ", throughput) +
                solver_.throughput_unit());
}

void Driver::print_summary(const RunState& state, long steps_taken) const {
  const double elapsed = wall_seconds() - start_wall_;
  std::string line = "finished: step " + std::to_string(state.step) +
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
  long last_output = -1, last_checkpoint = -1;
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
  while (!finished(state)) {
    if (agree_max(stop_requested(), comm_) != 0) {
      log_.line("stop requested by signal at step " + std::to_string(state.step) +
                "; writing a checkpoint");
      write_checkpoint(state);
      print_summary(state, taken);
      return exit_resumable;
    }
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
    if (checkpoint_due(state)) {
      write_checkpoint(state);
      last_checkpoint = state.step;
    }
    report_progress(state, finished(state));
  }
  const bool output_on = control_.output_every_steps > 0 || control_.output_every_time > 0.0;
  if (output_on && taken > 0 && last_output != state.step) {
    ScopedPhase io(timer_, Phase::io, "driver::output");
    output_.write_fields(state);
  }
  if (control_.checkpoint_at_end && taken > 0 && last_checkpoint != state.step) write_checkpoint(state);
  print_summary(state, taken);
  for (const std::string& line : solver_.summary_lines()) log_.line(line);
  return exit_ok;
}

}  // namespace cb
