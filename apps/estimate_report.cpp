// `cloudburst estimate`: from a measurement to the whole case (steps, wall
// time, checkpoints, output volume, expected cost with interruptions) and the
// text and JSON reports. The formulas are core/cost_model.hpp's.
#include "apps/estimate.hpp"

#include "core/cost_model.hpp"
#include "core/error.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <string>

namespace cb::app {
namespace {

std::string format(const char* fmt, double value) {
  char text[128];
  std::snprintf(text, sizeof text, fmt, value);
  return text;
}

// "1:02:03" for seconds.
std::string clock_text(double seconds) {
  if (!std::isfinite(seconds)) return "never";
  const long s = std::lround(seconds);
  char text[64];
  std::snprintf(text, sizeof text, "%ld:%02ld:%02ld", s / 3600, (s / 60) % 60, s % 60);
  return text;
}

std::string bytes_text(double bytes) {
  const char* units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
  int u = 0;
  while (bytes >= 1024.0 && u < 4) {
    bytes /= 1024.0;
    ++u;
  }
  return format("%.3g ", bytes) + units[u];
}

std::string json_number(double value) {
  return std::isfinite(value) ? format("%.6g", value) : "null";
}

// Steps to the end of the case and the simulated end time, extrapolated with
// the measured mean dt when the step is CFL-controlled.
void predict_steps(const Measurement& m, const RunControl& control, Prediction& p) {
  if (m.reached_end) {
    p.steps = m.end_step;
    p.end_time = m.end_time;
    p.dt_note = "the trial run reached the end of the case";
    return;
  }
  const double dt = control.fixed_dt ? *control.fixed_dt : m.mean_dt;
  long steps = std::numeric_limits<long>::max();
  if (control.end_time && dt > 0.0) {
    steps = static_cast<long>(std::ceil(*control.end_time / dt * (1.0 - 1e-10)));
  }
  if (control.steps) steps = std::min(steps, *control.steps);
  p.steps = steps;
  p.end_time = control.end_time ? std::min(*control.end_time, steps * dt) : steps * dt;
  if (control.fixed_dt) {
    p.dt_note = "fixed dt = " + format("%.6g", dt);
  } else if (control.end_time && (!control.steps || steps < *control.steps)) {
    p.dt_note = "CFL-controlled dt: steps = end_time / mean dt of the " + std::to_string(m.steps) +
                " measured steps (" + format("%.6g", dt) +
                "); a dt that shrinks later in the run makes more steps";
  } else {
    p.dt_note = "[run] steps";
  }
}

// Checkpoints and field outputs the run writes: its step and time cadences,
// the wall-clock interval on the predicted compute time, and the final ones.
void predict_writes(const Measurement& m, const RunControl& control, Prediction& p) {
  const long steps = p.steps;
  long checkpoints = 0;
  bool last_on_cadence = false;
  if (control.checkpoint_every_steps > 0) {
    checkpoints += steps / control.checkpoint_every_steps;
    last_on_cadence = steps % control.checkpoint_every_steps == 0;
  }
  const double minutes = control.checkpoint_every_minutes.value_or(0.0);
  if (minutes > 0.0) checkpoints += static_cast<long>(p.compute_seconds / (60.0 * minutes));
  if (control.checkpoint_at_end && !last_on_cadence) ++checkpoints;
  p.checkpoints = checkpoints;
  long outputs = 0;
  if (control.output_every_steps > 0)
    outputs = std::max(outputs, steps / control.output_every_steps);
  if (control.output_every_time > 0.0) {
    const double every = control.output_every_time;
    outputs = std::max(outputs, static_cast<long>(std::floor(p.end_time / every * (1 + 1e-12))));
  }
  if (control.output_every_steps > 0 || control.output_every_time > 0.0) outputs += 1;  // step 0
  p.outputs = outputs;
  p.bytes_written = checkpoints * m.checkpoint_bytes + outputs * m.output_bytes;
}

void predict_cost(const Measurement& m, const RunControl& control, const EstimateOptions& options,
                  Prediction& p) {
  p.has_cost = options.price || options.interruptions;
  p.price = options.price;
  p.rate = options.interruptions;
  const double delta = m.checkpoint_seconds;
  p.mtbi = cost::job_mtbi_seconds(options.interruptions.value_or(0.0), p.nodes);
  // A restart: start-up again, and reading a checkpoint (about as long as writing one).
  p.restart_seconds = m.startup_seconds + delta;
  const double solve = p.compute_seconds + p.outputs * m.output_seconds;
  const double price = options.price.value_or(0.0);
  p.cost_without_interruptions = cost::cost(p.wall_seconds, p.nodes, price);
  if (std::isfinite(p.mtbi)) {
    p.young_interval = cost::young_interval(delta, p.mtbi);
    p.daly_interval = cost::daly_interval(delta, p.mtbi);
    const double tau = std::max(p.daly_interval, 1e-3);
    const double modelled = cost::expected_wall_time(solve, tau, delta, p.restart_seconds, p.mtbi);
    p.lost_fraction = cost::lost_fraction(solve, modelled);
    // plus the first start-up and the final checkpoint
    p.expected_wall = m.startup_seconds + delta + modelled;
    const double minutes = control.checkpoint_every_minutes.value_or(0.0);
    if (minutes > 0.0) {
      p.case_interval_wall =
          m.startup_seconds + delta +
          cost::expected_wall_time(solve, 60.0 * minutes, delta, p.restart_seconds, p.mtbi);
    }
  } else {
    p.expected_wall = p.wall_seconds;
    p.lost_fraction = cost::lost_fraction(solve, p.wall_seconds - m.startup_seconds);
  }
  p.cost = cost::cost(p.expected_wall, p.nodes, price);
}

// --scale-to N: the time per step on N ranks from the 1, 2, 4-rank
// measurements, and the case's compute time at that pace.
void predict_scaling(const Measurement& m, long ranks, Prediction& p) {
  if (m.scaling.empty()) return;
  ScalingPrediction s;
  s.ranks = ranks;
  const double cells = static_cast<double>(m.total_cells);
  s.halo = cost::fit_halo(m.scaling, cells, m.dimensions);
  s.step_seconds = cost::scaled_step_seconds(m.scaling, s.halo, cells, m.dimensions, ranks);
  s.halo_seconds = cost::halo_seconds(s.halo, cells, m.dimensions, ranks);
  if (m.scaling.front().ranks == 1 && s.step_seconds > 0.0)
    s.efficiency = m.scaling.front().step_seconds / (ranks * s.step_seconds);
  s.compute_seconds = p.steps * s.step_seconds;
  p.scaling = s;
}

// The scaling section of the text report.
std::string scaling_text(const Measurement& m, const ScalingPrediction& s) {
  std::string t = "scaling to " + std::to_string(s.ranks) +
                  " rank(s) (--scale-to; the model and its assumptions: docs/clusters.md):\n";
  t += "  measured               ranks  time/step (s)  halo/step (s)\n";
  for (const cost::ScalingPoint& point : m.scaling) {
    t += format("                         %5.0f", point.ranks) +
         format("  %-13.4g", point.step_seconds) + format("  %.4g\n", point.halo_seconds);
  }
  if (m.scaling.size() < 2)
    t += "  (one rank measured: no halo time to fit, ideal scaling; launch on 4 ranks)\n";
  t += "  halo model             h(P) = alpha + beta (cells/P)^((d-1)/d), d = " +
       std::to_string(m.dimensions) + ": alpha " + format("%.3g s", s.halo.latency) + ", beta " +
       format("%.3g s per face cell\n", s.halo.per_face_cell);
  t += "  time per step          " + format("%.4g s", s.step_seconds) +
       format(" (halo %.4g s", s.halo_seconds) +
       (s.efficiency > 0.0 ? format("; parallel efficiency %.0f%% of 1 rank)\n", 100 * s.efficiency)
                           : std::string(")\n"));
  t += "  compute                " + clock_text(s.compute_seconds) +
       format(" (%.4g s for the case's steps)\n", s.compute_seconds);
  return t;
}

// The scaling object of the JSON report: "" without --scale-to.
std::string scaling_json(const Measurement& m, const Prediction& p) {
  if (!p.scaling) return "";
  const ScalingPrediction& s = *p.scaling;
  std::string j = ",\n  \"scaling\": {\n    \"measured\": [";
  for (std::size_t n = 0; n < m.scaling.size(); ++n) {
    j += (n ? ", " : "") + format("{\"ranks\": %.0f, ", m.scaling[n].ranks) +
         "\"seconds_per_step\": " + json_number(m.scaling[n].step_seconds) +
         ", \"halo_seconds_per_step\": " + json_number(m.scaling[n].halo_seconds) + "}";
  }
  j += "],\n    \"ranks\": " + std::to_string(s.ranks) +
       ",\n    \"halo_latency_seconds\": " + json_number(s.halo.latency) +
       ",\n    \"halo_seconds_per_face_cell\": " + json_number(s.halo.per_face_cell) +
       ",\n    \"seconds_per_step\": " + json_number(s.step_seconds) +
       ",\n    \"halo_seconds_per_step\": " + json_number(s.halo_seconds) +
       ",\n    \"efficiency\": " + json_number(s.efficiency) +
       ",\n    \"compute_seconds\": " + json_number(s.compute_seconds) + "\n  }";
  return j;
}

// More ranks than cells: InputError naming what asked for them.
void check_ranks_fit(const Measurement& m, long ranks, const std::string& asked) {
  if (m.total_cells > 0 && ranks > m.total_cells) {
    throw InputError(asked + " = " + std::to_string(ranks) + " ranks, more than the grid's " +
                     std::to_string(m.total_cells) + " cells");
  }
}

}  // namespace

Prediction predict(const Measurement& m, const RunControl& control, int checkpoint_keep,
                   const EstimateOptions& options) {
  Prediction p;
  p.nodes = options.nodes;
  p.ranks = options.nodes * options.ranks_per_node.value_or(m.ranks);
  check_ranks_fit(m, p.ranks,
                  "--nodes " + std::to_string(options.nodes) + " x --ranks-per-node " +
                      std::to_string(p.ranks / options.nodes));
  if (options.scale_to) check_ranks_fit(m, *options.scale_to, "--scale-to");
  p.strong_scaling = double(m.ranks) / p.ranks;
  predict_steps(m, control, p);
  p.compute_seconds = p.steps * m.seconds_per_step * p.strong_scaling;
  predict_writes(m, control, p);
  p.checkpoint_bytes_kept = std::min<long>(p.checkpoints, checkpoint_keep) * m.checkpoint_bytes;
  p.wall_seconds = m.startup_seconds + p.compute_seconds + p.checkpoints * m.checkpoint_seconds +
                   p.outputs * m.output_seconds;
  predict_cost(m, control, options, p);
  if (options.scale_to) predict_scaling(m, *options.scale_to, p);
  return p;
}

namespace {

// The report without the scaling section.
std::string measured_and_predicted_text(const Measurement& m, const Prediction& p) {
  std::string t;
  t += "# cloudburst estimate: " + m.solver + " case '" + m.case_name + "', " +
       std::to_string(m.ranks) + " rank(s), Kokkos " + m.backend + "\n";
  t += "measured:\n";
  t += "  steps timed            " + std::to_string(m.steps) + " (after 1 warm-up step)\n";
  t += "  time per step          " + format("%.4g s", m.seconds_per_step) + "\n";
  t += "  start-up               " + format("%.3g s", m.startup_seconds) + "\n";
  t += "  mean dt                " + format("%.6g", m.mean_dt) +
       (m.fixed_dt ? " (fixed)\n" : " (CFL)\n");
  t += "  checkpoint write       " + format("%.3g s, ", m.checkpoint_seconds) +
       bytes_text(m.checkpoint_bytes) + "\n";
  if (m.output_bytes > 0)
    t += "  field output write     " + format("%.3g s, ", m.output_seconds) +
         bytes_text(m.output_bytes) + "\n";
  t += "  host memory high-water " + bytes_text(m.host_high_water_max) + " per rank (largest), " +
       bytes_text(m.host_high_water_sum) + " all ranks\n";
  t += "  device memory          " +
       (m.device_bytes ? bytes_text(*m.device_bytes) + " in use on the device"
                       : std::string("n/a (host backend: device memory is host memory)")) +
       "\n";
  t += "predicted for the whole case on " + std::to_string(p.ranks) + " rank(s), " +
       std::to_string(p.nodes) + " node(s):\n";
  if (p.strong_scaling != 1.0)
    t += "  (compute scaled by " + format("%.4g", p.strong_scaling) +
         " = measured ranks / ranks: ideal strong scaling; --scale-to N models the halo)\n";
  t += "  steps                  " + std::to_string(p.steps) +
       " to t = " + format("%.6g", p.end_time) + "\n    (" + p.dt_note + ")\n";
  t += "  compute                " + clock_text(p.compute_seconds) +
       format(" (%.4g s)", p.compute_seconds) + "\n";
  t += "  checkpoints            " + std::to_string(p.checkpoints) +
       format(", %.3g s of writes", p.checkpoints * m.checkpoint_seconds) + "\n";
  t += "  field outputs          " + std::to_string(p.outputs) + "\n";
  t += "  wall time              " + clock_text(p.wall_seconds) +
       format(" (%.4g s, start-up and writes included)", p.wall_seconds) + "\n";
  t += "  output written         " + bytes_text(p.bytes_written) +
       " (checkpoints kept at the end: " + bytes_text(p.checkpoint_bytes_kept) + ")\n";
  if (!p.has_cost) return t;
  t += "cost (price per node-hour " +
       (p.price ? format("%g", *p.price) : std::string("not given")) +
       ", interruptions per node-hour " + format("%g", p.rate.value_or(0.0)) + "):\n";
  if (std::isfinite(p.mtbi)) {
    t += "  mean time between interruptions of the job  " + clock_text(p.mtbi) + "\n";
    t += "  restart (start-up + checkpoint read)         " + format("%.3g s", p.restart_seconds) +
         "\n";
    t += "  checkpoint interval: Young sqrt(2 delta M) = " + format("%.4g s", p.young_interval) +
         ", Daly 2006 = " + format("%.4g s", p.daly_interval) + "\n";
    t += "  use:  [checkpoint] every_minutes = " +
         format("%.3g", std::max(p.daly_interval / 60.0, 0.01)) + "\n";
    if (p.case_interval_wall)
      t += "  expected wall time with the case's interval  " + clock_text(*p.case_interval_wall) +
           "\n";
  }
  t += "  expected wall time     " + clock_text(p.expected_wall) +
       format(" (%.1f%% of it checkpoints, lost work and restarts)", 100.0 * p.lost_fraction) +
       "\n";
  if (p.price) {
    t += "  expected cost          " + format("%.4g", p.cost) +
         format(" (without interruptions %.4g)", p.cost_without_interruptions) + "\n";
  }
  return t;
}

}  // namespace

std::string estimate_json(const Measurement& m, const Prediction& p) {
  auto field = [](const std::string& name, const std::string& value, bool last = false) {
    return "    \"" + name + "\": " + value + (last ? "\n" : ",\n");
  };
  auto number = [&](const std::string& name, double value, bool last = false) {
    return field(name, json_number(value), last);
  };
  std::string j = "{\n";
  j += "  \"solver\": \"" + m.solver + "\",\n  \"case\": \"" + m.case_name + "\",\n";
  j += "  \"backend\": \"" + m.backend + "\",\n  \"measured\": {\n";
  j += number("ranks", m.ranks) + number("steps", m.steps);
  j +=
      number("seconds_per_step", m.seconds_per_step) + number("startup_seconds", m.startup_seconds);
  j += number("mean_dt", m.mean_dt) + field("dt", m.fixed_dt ? "\"fixed\"" : "\"cfl\"");
  j += number("checkpoint_write_seconds", m.checkpoint_seconds) +
       number("checkpoint_bytes", m.checkpoint_bytes);
  j += number("output_write_seconds", m.output_seconds) + number("output_bytes", m.output_bytes);
  j += number("host_memory_high_water_bytes_per_rank", m.host_high_water_max);
  j += number("host_memory_high_water_bytes_total", m.host_high_water_sum);
  j += field("device_memory_bytes", m.device_bytes ? json_number(*m.device_bytes) : "null", true);
  j += "  },\n  \"prediction\": {\n";
  j += number("ranks", p.ranks) + number("nodes", p.nodes) + number("steps", p.steps);
  j += number("end_time", p.end_time) + field("dt_extrapolation", "\"" + p.dt_note + "\"");
  j += number("compute_seconds", p.compute_seconds) + number("checkpoints", p.checkpoints);
  j += number("outputs", p.outputs) + number("wall_seconds", p.wall_seconds);
  j += number("bytes_written", p.bytes_written);
  j += number("checkpoint_bytes_kept", p.checkpoint_bytes_kept, !p.has_cost);
  if (!p.has_cost) return j + "  }" + scaling_json(m, p) + "\n}\n";
  j += "  },\n  \"cost\": {\n";
  j += field("price_per_node_hour", p.price ? json_number(*p.price) : "null");
  j += number("interruptions_per_node_hour", p.rate.value_or(0.0));
  j += number("mtbi_seconds", p.mtbi) + number("restart_seconds", p.restart_seconds);
  const bool interrupted = std::isfinite(p.mtbi);
  j += field("young_interval_seconds", interrupted ? json_number(p.young_interval) : "null");
  j += field("daly_interval_seconds", interrupted ? json_number(p.daly_interval) : "null");
  j += field("every_minutes", interrupted ? json_number(p.daly_interval / 60.0) : "null");
  j += number("expected_wall_seconds", p.expected_wall) + number("lost_fraction", p.lost_fraction);
  j += field("expected_cost", p.price ? json_number(p.cost) : "null");
  j += field("cost_without_interruptions",
             p.price ? json_number(p.cost_without_interruptions) : "null", true);
  return j + "  }" + scaling_json(m, p) + "\n}\n";
}

std::string estimate_text(const Measurement& m, const Prediction& p) {
  return measured_and_predicted_text(m, p) + (p.scaling ? scaling_text(m, *p.scaling) : "");
}

}  // namespace cb::app
