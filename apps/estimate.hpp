// `cloudburst estimate`: measure a few steps of a case, then predict its wall
// time, checkpoints, output volume and, given a price and an interruption
// rate, its expected cost and best checkpoint interval (docs/clusters.md).
#pragma once

#include "apps/arguments.hpp"
#include "apps/commands.hpp"
#include "core/driver.hpp"
#include "core/scaling_model.hpp"

#include <optional>
#include <string>
#include <vector>

namespace cb::app {

struct EstimateOptions {
  RunArguments run;                     // the case and --set; output_dir: the scratch parent
  std::optional<long> steps;            // --steps; else grow until target_seconds
  double target_seconds = 10.0;         // measured wall time to aim for
  std::optional<double> price;          // --price-per-hour, per node
  std::optional<double> interruptions;  // --interruptions-per-hour, per node
  int nodes = 1;                        // --nodes
  std::optional<int> ranks_per_node;    // --ranks-per-node; default: the measured ranks
  std::optional<long> scale_to;         // --scale-to: the scaling model's rank count
  bool json = false;
};

// Registers --price-per-hour, --interruptions-per-hour and --scale-to (also
// `submit --estimate`'s) into `options`.
void add_prediction_options(ArgumentParser& parser, EstimateOptions& options);
// Parses the words after `estimate`; throws InputError naming the option.
EstimateOptions parse_estimate_arguments(const std::vector<std::string>& args);

// What the trial run measured (collective values, identical on every rank).
struct Measurement {
  std::string solver, case_name, backend;
  int ranks = 1;
  long steps = 0;                    // measured steps (after the warm-up step)
  double seconds_per_step = 0;       // wall time per step, diagnostics included
  double halo_seconds_per_step = 0;  // the halo (ghost) exchange part of it
  double startup_seconds = 0;        // program start to the end of the warm-up step
  double mean_dt = 0;                // simulated time per measured step
  bool fixed_dt = false;
  long end_step = 0;  // step and time reached by the trial run
  double end_time = 0;
  bool reached_end = false;       // the trial run finished the case
  double checkpoint_seconds = 0;  // one checkpoint write
  double checkpoint_bytes = 0;
  double output_seconds = 0;  // one field output (0 when output is off)
  double output_bytes = 0;
  double host_high_water_max = 0;  // bytes, the largest rank
  double host_high_water_sum = 0;  // bytes, all ranks
  std::optional<double> device_bytes;
  long long total_cells = 0;
  int dimensions = 0;                       // grid directions with more than one cell
  std::vector<cost::ScalingPoint> scaling;  // --scale-to: on 1, 2, 4 ranks
};

// --scale-to N: the scaling model (core/scaling_model.hpp) at N ranks.
struct ScalingPrediction {
  long ranks = 1;
  cost::HaloModel halo;
  double step_seconds = 0, halo_seconds = 0;
  double efficiency = 0;       // t(1) / (N t(N)); 0 when one rank was not measured
  double compute_seconds = 0;  // the case's steps at t(N)
};

// The whole case predicted from a measurement.
struct Prediction {
  int ranks = 1, nodes = 1;
  double strong_scaling = 1.0;  // measured ranks / predicted ranks (ideal)
  long steps = 0;
  double end_time = 0;
  std::string dt_note;
  double compute_seconds = 0;  // all steps, diagnostics included
  long checkpoints = 0;
  long outputs = 0;
  double wall_seconds = 0;  // start-up + compute + checkpoint and output writes
  double bytes_written = 0;
  double checkpoint_bytes_kept = 0;
  // with --price-per-hour or --interruptions-per-hour
  bool has_cost = false;
  std::optional<double> price, rate;  // per node-hour
  double mtbi = 0;                    // job's mean time between interruptions (inf: none)
  double restart_seconds = 0;
  double young_interval = 0, daly_interval = 0;  // 0: no interruptions
  double expected_wall = 0, lost_fraction = 0;
  std::optional<double> case_interval_wall;  // expected wall at the case's every_minutes
  double cost = 0, cost_without_interruptions = 0;
  std::optional<ScalingPrediction> scaling;
};

Prediction predict(const Measurement& m, const RunControl& control, int checkpoint_keep,
                   const EstimateOptions& options);
std::string estimate_text(const Measurement& m, const Prediction& p);
std::string estimate_json(const Measurement& m, const Prediction& p);

int estimate_command(const EstimateOptions& options, const Environment& environment);

}  // namespace cb::app
