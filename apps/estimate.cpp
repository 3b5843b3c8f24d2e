// `cloudburst estimate`: builds the case exactly as `cloudburst run` does
// (prepare_run), drives it with the run driver for a few steps into a scratch
// directory, times one checkpoint and one field output, and hands the
// measurement to the prediction (apps/estimate_report.cpp).
#include "apps/estimate.hpp"

#include "apps/prepared_run.hpp"
#include "core/environment.hpp"
#include "core/error.hpp"
#include "core/timers.hpp"

#include <mpi.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <system_error>

namespace cb::app {
namespace {
namespace fs = std::filesystem;

// The scratch directory of the trial run: made by rank 0, removed at the end.
class ScratchDirectory {
 public:
  ScratchDirectory(const std::string& parent, int rank) : rank_(rank) {
    std::string path;
    if (rank == 0) {
      const char* tmp = std::getenv("TMPDIR");
      std::string base = !parent.empty() ? parent : (tmp && *tmp ? tmp : "/tmp");
      std::string pattern = base + "/cloudburst-estimate-XXXXXX";
      if (::mkdtemp(pattern.data()) == nullptr) pattern.clear();
      path = pattern;
    }
    int length = static_cast<int>(path.size());
    MPI_Bcast(&length, 1, MPI_INT, 0, MPI_COMM_WORLD);
    path.resize(length);
    MPI_Bcast(path.data(), length, MPI_CHAR, 0, MPI_COMM_WORLD);
    if (path.empty()) throw InputError("cannot make a scratch directory under " + parent);
    path_ = path;
  }
  ~ScratchDirectory() {
    std::error_code ignored;
    if (rank_ == 0) fs::remove_all(path_, ignored);
  }
  const std::string& path() const { return path_; }

 private:
  int rank_;
  std::string path_;
};

double tree_bytes(const std::string& root) {
  double bytes = 0.0;
  std::error_code error;
  for (const auto& entry : fs::recursive_directory_iterator(root, error)) {
    if (entry.is_regular_file(error)) bytes += static_cast<double>(entry.file_size(error));
  }
  return bytes;
}

double max_over_ranks(double value, MPI_Comm comm = MPI_COMM_WORLD) {
  MPI_Allreduce(MPI_IN_PLACE, &value, 1, MPI_DOUBLE, MPI_MAX, comm);
  return value;
}

double sum_over_ranks(double value) {
  MPI_Allreduce(MPI_IN_PLACE, &value, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  return value;
}

// Rank 0's value on every rank.
double from_rank0(double value, MPI_Comm comm = MPI_COMM_WORLD) {
  MPI_Bcast(&value, 1, MPI_DOUBLE, 0, comm);
  return value;
}

// The case's control with writes and progress lines off: the trial run times
// the steps (with the case's diagnostics), and the writes separately.
RunControl trial_control(const RunControl& control) {
  RunControl trial = control;
  trial.output_every_steps = 0;
  trial.output_every_time = 0.0;
  trial.checkpoint_every_steps = 0;
  trial.checkpoint_every_minutes.reset();
  trial.checkpoint_at_end = false;
  trial.progress_seconds = 1e300;
  return trial;
}

// Wall time and the halo-exchange part of it, slowest rank each.
struct StepTimes {
  double seconds = 0.0;
  double halo = 0.0;
  StepTimes& operator+=(const StepTimes& more) {
    seconds += more.seconds;
    halo += more.halo;
    return *this;
  }
};

// Runs the driver on `comm` from `state` for up to `steps` steps; returns its
// times, or throws RunError when the run failed.
StepTimes drive_steps(io::SolverRun& run, RunOutput& output, RunControl control, long steps,
                      RunState& state, MPI_Comm comm) {
  Log quiet(-1);
  control.steps = control.steps ? std::min(*control.steps, state.step + steps) : state.step + steps;
  Driver driver(run.solver(), output, control, comm, quiet);
  MPI_Barrier(comm);
  const double begin = wall_seconds();
  const int code = driver.run(state);
  const StepTimes times{max_over_ranks(wall_seconds() - begin, comm),
                        max_over_ranks(driver.timer().seconds(Phase::halo), comm)};
  if (code != exit_ok) {
    throw RunError("the trial run stopped at step " + std::to_string(state.step) + " (exit " +
                   std::to_string(code) + ")");
  }
  return times;
}

// Times the steps: one warm-up step, then --steps steps, or batches that grow
// until `target_seconds` of wall time were measured or the case ended.
void measure_steps(io::SolverRun& run, RunOutput& output, const RunControl& control,
                   const EstimateOptions& options, MPI_Comm comm, Measurement& m) {
  RunState state;
  drive_steps(run, output, control, 1, state, comm);
  m.startup_seconds = max_over_ranks(epoch_seconds() - options.run.started_at, comm);
  const long first_step = state.step;
  const double first_time = state.time;
  StepTimes times;
  long batch = options.steps.value_or(1);
  while (!reached_stop(control, state)) {
    times += drive_steps(run, output, control, batch, state, comm);
    const long taken = state.step - first_step;
    if (options.steps && taken >= *options.steps) break;
    if (times.seconds >= options.target_seconds) break;
    const double per_step = times.seconds / std::max(1L, taken);
    const double wanted = (options.target_seconds - times.seconds) / std::max(per_step, 1e-9);
    batch = static_cast<long>(
        from_rank0(std::clamp(std::ceil(wanted * 1.05), 1.0, 4.0 * taken + 1.0), comm));
  }
  m.steps = state.step - first_step;
  m.seconds_per_step = m.steps > 0 ? times.seconds / m.steps : 0.0;
  m.halo_seconds_per_step = m.steps > 0 ? times.halo / m.steps : 0.0;
  m.mean_dt = m.steps > 0 ? (state.time - first_time) / m.steps : state.dt;
  m.end_step = state.step;
  m.end_time = state.time;
  m.reached_end = reached_stop(control, state);
}

// Times one checkpoint and (when the case writes fields) one field output at
// the trial run's last step.
void measure_writes(RunOutput& output, const RunControl& control, const std::string& root,
                    Measurement& m) {
  const RunState state{m.end_step, m.end_time, m.mean_dt};
  MPI_Barrier(MPI_COMM_WORLD);
  double begin = wall_seconds();
  const std::string path = output.write_checkpoint(state);
  m.checkpoint_seconds = max_over_ranks(wall_seconds() - begin);
  std::error_code error;
  m.checkpoint_bytes = from_rank0(static_cast<double>(fs::file_size(path, error)));
  if (control.output_every_steps > 0 || control.output_every_time > 0.0) {
    // a step on the output cadence, so that writers with cadences of their own
    // (particle dumps) write too; only the file name and step attribute change
    RunState on_cadence = state;
    if (const long every = control.output_every_steps; every > 0) {
      on_cadence.step = (state.step / every + 1) * every;
    }
    const double before = tree_bytes(root);
    MPI_Barrier(MPI_COMM_WORLD);
    begin = wall_seconds();
    output.write_fields(on_cadence);
    m.output_seconds = max_over_ranks(wall_seconds() - begin);
    m.output_bytes = from_rank0(tree_bytes(root) - before);
  }
}

// The case on the ranks of `comm` into `root`: its steps timed, then, when
// `writes`, one checkpoint and one field output timed and the memory measured.
void trial_run(ValidatedCase c, const EstimateOptions& options, const std::string& root,
               MPI_Comm comm, const Environment& environment, bool writes, Measurement& m) {
  const RunControl control = c.common.control;
  const io::OutputPaths paths{root};
  Log quiet(-1);
  const std::unique_ptr<PreparedRun> prepared =
      prepare_run(std::move(c), paths, environment, quiet, comm);
  io::SolverRun& run = *prepared->run;
  m.case_name = run.solver().case_name();
  run.create_directories();
  RunOutput& output = run.open_output(RunState{}, quiet);
  measure_steps(run, output, trial_control(control), options, comm, m);
  if (writes) {
    measure_writes(output, control, paths.root, m);
    m.host_high_water_max = max_over_ranks(host_high_water_bytes());
    m.host_high_water_sum = sum_over_ranks(host_high_water_bytes());
    const std::optional<double> device = device_bytes_in_use();
    if (device) m.device_bytes = max_over_ranks(*device);
  }
  run.finish(RunState{m.end_step, m.end_time, m.mean_dt}, exit_ok);
}

// --scale-to: the case timed again on 1, 2 and 4 of the launched ranks (those
// that exist), each on the first ranks of the world, for a third of the time.
std::vector<cost::ScalingPoint> measure_scaling(const EstimateOptions& options,
                                                const std::string& scratch,
                                                const Environment& environment) {
  int world = 1;
  MPI_Comm_size(MPI_COMM_WORLD, &world);
  EstimateOptions shorter = options;
  shorter.target_seconds = options.target_seconds / 3.0;
  std::vector<cost::ScalingPoint> points;
  for (int ranks = 1; ranks <= std::min(world, 4); ranks *= 2) {
    MPI_Comm comm = MPI_COMM_NULL;
    const bool member = environment.rank() < ranks;
    MPI_Comm_split(MPI_COMM_WORLD, member ? 0 : MPI_UNDEFINED, environment.rank(), &comm);
    Measurement m;
    if (member) {
      ValidatedCase c = validate_case(options.run);
      c.common.parallel.ranks = {0, 0, 0};  // let MPI_Dims_create split the grid
      trial_run(std::move(c), shorter, scratch + "/ranks_" + std::to_string(ranks), comm,
                environment, false, m);
      MPI_Comm_free(&comm);
    }
    points.push_back({ranks, from_rank0(m.seconds_per_step), from_rank0(m.halo_seconds_per_step)});
  }
  return points;
}

}  // namespace

void add_prediction_options(ArgumentParser& parser, EstimateOptions& options) {
  parser
      .option("--price-per-hour",
              [&options](const std::string& option, const std::string& value) {
                options.price = parse_non_negative(option, value);
              })
      .option("--interruptions-per-hour",
              [&options](const std::string& option, const std::string& value) {
                options.interruptions = parse_non_negative(option, value);
              })
      .option("--scale-to", [&options](const std::string& option, const std::string& value) {
        options.scale_to = parse_whole_number(option, value, 1, max_nodes * max_ranks_per_node);
      });
}

EstimateOptions parse_estimate_arguments(const std::vector<std::string>& args) {
  EstimateOptions parsed;
  ArgumentParser parser("estimate");
  add_prediction_options(parser, parsed);
  parser.list("--set", parsed.run.overrides)
      .text("--scratch-dir", parsed.run.output_dir)
      .flag("--json", parsed.json)
      .option("--steps",
              [&parsed](const std::string& option, const std::string& value) {
                parsed.steps = parse_whole_number(option, value, 1);
              })
      .whole_number("--nodes", parsed.nodes, 1, max_nodes)
      .option("--ranks-per-node", [&parsed](const std::string& option, const std::string& value) {
        parsed.ranks_per_node =
            static_cast<int>(parse_whole_number(option, value, 1, max_ranks_per_node));
      });
  parser.parse(args, parsed.run.case_path);
  return parsed;
}

int estimate_command(const EstimateOptions& options, const Environment& environment) {
  const int rank = environment.rank();
  ValidatedCase c = validate_case(options.run);
  const RunControl control = c.common.control;
  const int keep = c.common.checkpoint_keep;
  Measurement m;
  m.solver = c.common.solver;
  m.total_cells = c.solver.geometry.total_cells();
  MPI_Comm_size(MPI_COMM_WORLD, &m.ranks);
  m.fixed_dt = control.fixed_dt.has_value();
  m.backend = kokkos_backend_name();
  for (int axis = 0; axis < 3; ++axis) m.dimensions += c.solver.geometry.cells[axis] > 1 ? 1 : 0;
  predict(m, control, keep, options);  // refuses a job the grid cannot take, before running
  const ScratchDirectory scratch(options.run.output_dir, rank);
  trial_run(std::move(c), options, scratch.path() + "/output", MPI_COMM_WORLD, environment, true,
            m);
  if (options.scale_to) m.scaling = measure_scaling(options, scratch.path(), environment);
  MPI_Barrier(MPI_COMM_WORLD);
  const Prediction p = predict(m, control, keep, options);
  if (rank == 0) std::cout << (options.json ? estimate_json(m, p) : estimate_text(m, p));
  return exit_ok;
}

}  // namespace cb::app
