// Batch use without a cluster (docs/clusters.md; docs/architecture.md, "Batch
// jobs"): durations and the wall-time margin; the driver's stop decisions
// (signal, deadline, wall-clock checkpoints); --max-wall-time and a Slurm job
// end time stop a real run with exit 75 and a checkpoint before the limit, and
// the resumed run ends bit for bit as an uninterrupted one;
// `cloudburst submit --dry-run` renders each template with the directives it
// needs; a hostile case path and output directory are quoted everywhere (the
// job script runs with stub sbatch and srun); cloudburst-batch's requeue
// decisions and signal forwarding.
#include "cli_runner.hpp"
#include "core/batch/signals.hpp"
#include "core/batch/slurm.hpp"
#include "core/driver.hpp"
#include "core/environment.hpp"
#include "core/error.hpp"
#include "slurm/batch_test_support.hpp"

#include <catch2/catch_test_macros.hpp>
#include <catch2/matchers/catch_matchers_string.hpp>

#include <algorithm>
#include <chrono>
#include <csignal>
#include <ctime>
#include <filesystem>
#include <thread>

using namespace cb::test;
using Catch::Matchers::ContainsSubstring;
namespace fs = std::filesystem;

namespace {

const std::string exe = CLOUDBURST_EXE;
const std::string source_dir = CLOUDBURST_SOURCE_DIR;

// A solver that sleeps `step_ms` per step, and raises SIGUSR1 in step `signal_step`.
class SleepySolver : public cb::Solver {
 public:
  SleepySolver(int step_ms, long signal_step) : step_ms_(step_ms), signal_step_(signal_step) {}
  std::string name() const override { return "sleepy"; }
  std::string case_name() const override { return "test"; }
  double stable_dt() override { return 1.0; }
  void step(double, double, cb::PhaseTimer&) override {
    std::this_thread::sleep_for(std::chrono::milliseconds(step_ms_));
    if (++steps_ == signal_step_) std::raise(SIGUSR1);
  }
  std::vector<cb::Diagnostic> diagnostics(double) override { return {{"x", 1.0}}; }
  std::string locate_non_finite() override { return ""; }
  double work_per_step() const override { return 1.0; }

 private:
  int step_ms_;
  long signal_step_;
  long steps_ = 0;
};

class CountingOutput : public cb::RunOutput {
 public:
  std::string write_checkpoint(const cb::RunState& s) override {
    checkpoints.push_back(s.step);
    return "chk";
  }
  void write_fields(const cb::RunState&) override {}
  void append_diagnostics(const cb::RunState&, const std::vector<cb::Diagnostic>&) override {}
  std::vector<long> checkpoints;
};

struct DriverRun {
  int code;
  long step;
  std::vector<long> checkpoints;
  bool before_deadline;  // the run (checkpoint included) ended before its deadline
};

DriverRun run_driver(int step_ms, long steps, long signal_step, double deadline_in,
                     double checkpoint_minutes = 0.0) {
  SleepySolver solver(step_ms, signal_step);
  CountingOutput output;
  cb::RunControl control;
  control.steps = steps;
  control.progress_seconds = 1e9;
  control.checkpoint_every_minutes = checkpoint_minutes;
  cb::Log log(1);
  cb::Driver driver(solver, output, control, MPI_COMM_SELF, log);
  cb::WallTimeLimit limit;
  if (deadline_in != 0.0) {
    limit.deadline = cb::epoch_seconds() + deadline_in;
    limit.budget = deadline_in;
    limit.source = "test";
    driver.set_wall_time_limit(limit);
  }
  cb::install_stop_handlers();
  cb::RunState state;
  const int code = driver.run(state);
  const bool before_deadline = limit.deadline == 0.0 || cb::epoch_seconds() < limit.deadline;
  cb::clear_stop_request();
  return {code, state.step, output.checkpoints, before_deadline};
}

// The weather thermal, small: about 1150 steps, a few seconds on one core.
const std::string thermal_case =
    "[run]\nsolver = \"weather\"\ncase = \"thermal\"\nend_time = 600.0\n"
    "[grid]\ncells = [128, 1, 64]\n[diagnostics]\nevery_steps = 200\n"
    "[checkpoint]\nkeep = 2\n";

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

std::string final_checkpoint(const std::string& out) {
  const auto files = checkpoint_files(out + "/checkpoints");
  return files.empty() ? "" : out + "/checkpoints/" + files.back();
}

std::string run_command(const std::string& env, const std::string& case_path,
                        const std::string& out, const std::string& extra = "") {
  return "cd " + quote(fs::path(out).parent_path().string()) +
         " && env -u SLURM_JOB_ID -u SLURM_JOB_END_TIME " + env + " " + quote(exe) + " run " +
         quote(case_path) + " --output-dir " + quote(out) + " " + extra;
}

void write_executable(const std::string& path, const std::string& text) {
  write_text(path, text);
  fs::permissions(path, fs::perms::owner_all | fs::perms::group_read | fs::perms::others_read);
}

}  // namespace

TEST_CASE("durations, Slurm times and the wall-time margin", "[batch]") {
  using cb::parse_duration;
  CHECK(parse_duration("2h30m") == 9000.0);
  CHECK(parse_duration("90m") == 5400.0);
  CHECK(parse_duration("45s") == 45.0);
  CHECK(parse_duration("1h5m30s") == 3930.0);
  CHECK(parse_duration("1.5h") == 5400.0);
  CHECK(parse_duration("2d") == 172800.0);
  CHECK(parse_duration("01:30:00") == 5400.0);
  CHECK(parse_duration("10:00") == 600.0);
  CHECK(parse_duration("1-00:00:00") == 86400.0);
  CHECK(parse_duration("2-12") == 216000.0);
  CHECK(parse_duration("1-02:30") == 95400.0);
  for (const char* bad :
       {"", "90", "h", "2x", "1h2h", "30m1h", "-5m", "1:2:3:4", "a:b", "0s", "1:-2"}) {
    INFO(bad);
    CHECK_FALSE(parse_duration(bad).has_value());
  }
  CHECK(cb::format_slurm_time(5400) == "1:30:00");
  CHECK(cb::format_slurm_time(90000) == "1-01:00:00");
  CHECK(cb::format_slurm_time(59.2) == "0:01:00");
  CHECK(cb::wall_time_margin(1.0, 2.0, 100.0) == 10.0);  // 2 x 1 + 1.5 x 2 + 5% of 100
  CHECK(cb::wall_time_margin(0.0, 0.0, 10.0) == 1.0);    // at least 1 s
  CHECK(cb::wall_time_margin(0.0, 0.0, 1e6) == 60.0);    // at most 60 s
  std::tm when{};
  when.tm_year = 130, when.tm_mon = 0, when.tm_mday = 2, when.tm_hour = 3, when.tm_min = 4;
  when.tm_sec = 5, when.tm_isdst = -1;
  CHECK(cb::parse_slurm_timestamp("2030-01-02T03:04:05") == double(std::mktime(&when)));
  CHECK_FALSE(cb::parse_slurm_timestamp("N/A").has_value());
  CHECK_FALSE(cb::parse_slurm_timestamp("Unknown").has_value());
}

TEST_CASE("the driver stops at a step boundary on a signal or near the deadline",
          "[batch][driver]") {
  // A signal during step 3: checkpoint at step 3, exit 75.
  DriverRun r = run_driver(1, 20, 3, 0.0);
  CHECK(r.code == cb::exit_resumable);
  CHECK(r.step == 3);
  CHECK(r.checkpoints == std::vector<long>{3});
  // A deadline already too close: no step taken, nothing written.
  r = run_driver(1, 20, -1, 0.5);
  CHECK(r.code == cb::exit_resumable);
  CHECK(r.step == 0);
  CHECK(r.checkpoints.empty());
  // 20 ms steps against a 1.6 s budget (margin: 1 s safety + 2 steps): stops
  // after 20-30 steps with a checkpoint, before the deadline.
  r = run_driver(20, 1000, -1, 1.6);
  CHECK(r.code == cb::exit_resumable);
  CHECK(r.step > 5);
  CHECK(r.step < 40);
  CHECK(r.checkpoints == std::vector<long>{r.step});
  CHECK(r.before_deadline);
  // Wall-clock checkpoints: every 0.001 min = 60 ms, with 20 ms steps (longer
  // on a busy machine): several, in order, and the last at the end.
  r = run_driver(20, 30, -1, 0.0, 0.001);
  CHECK(r.code == cb::exit_ok);
  CHECK(r.checkpoints.size() >= 4);
  CHECK(std::is_sorted(r.checkpoints.begin(), r.checkpoints.end()));
  CHECK(r.checkpoints.back() == 30);
}

TEST_CASE(
    "--max-wall-time and the Slurm job end time stop a run with exit 75; it resumes identically",
    "[batch][restart]") {
  const std::string dir = make_temp_dir("cb_walltime_");
  write_text(dir + "/thermal.toml", thermal_case);
  const auto start = std::chrono::steady_clock::now();
  ShellResult ref = shell(run_command("", dir + "/thermal.toml", dir + "/straight"));
  const double straight_seconds = seconds_since(start);
  INFO(ref.output);
  REQUIRE(ref.code == 0);
  const std::string reference = final_checkpoint(dir + "/straight");

  // The limit is 60% of the uninterrupted run's wall time (2 s to 8 s).
  const double limit = std::min(8.0, std::max(2.0, 0.6 * straight_seconds));
  const std::string limit_text = std::to_string(limit).substr(0, 4) + "s";
  const auto begin = std::chrono::steady_clock::now();
  ShellResult stopped = shell(
      run_command("", dir + "/thermal.toml", dir + "/limited", "--max-wall-time " + limit_text));
  const double stopped_seconds = seconds_since(begin);
  INFO("uninterrupted " << straight_seconds << " s, limit " << limit_text << ", stopped after "
                        << stopped_seconds << " s\n"
                        << stopped.output);
  REQUIRE(stopped.code == 75);
  CHECK_THAT(stopped.output, ContainsSubstring("wall-time limit (--max-wall-time " + limit_text));
  CHECK(stopped_seconds < limit + 0.5);
  REQUIRE_FALSE(checkpoint_files(dir + "/limited/checkpoints").empty());
  CHECK(final_checkpoint(dir + "/limited") !=
        dir + "/limited/checkpoints/" + fs::path(reference).filename().string());
  ShellResult resumed =
      shell(run_command("", dir + "/thermal.toml", dir + "/limited", "--restart auto"));
  INFO(resumed.output);
  REQUIRE(resumed.code == 0);
  CHECK(fs::path(final_checkpoint(dir + "/limited")).filename() == fs::path(reference).filename());
  CHECK(checkpoint_fields(final_checkpoint(dir + "/limited")) == checkpoint_fields(reference));

  // Inside a Slurm job: the job's end time (here from SLURM_JOB_END_TIME) is
  // the limit, and checkpoints default to every 15 wall-clock minutes.
  const long end = static_cast<long>(cb::epoch_seconds() + limit);
  ShellResult slurm =
      shell(run_command("SLURM_JOB_ID=4242 SLURM_JOB_END_TIME=" + std::to_string(end),
                        dir + "/thermal.toml", dir + "/slurm"));
  INFO(slurm.output);
  CHECK(slurm.code == 75);
  CHECK_THAT(slurm.output, ContainsSubstring("wall-time limit (end of Slurm job 4242)"));
  CHECK_THAT(slurm.output, ContainsSubstring("run start: Slurm job 4242, restart 0"));
  CHECK_THAT(slurm.output, ContainsSubstring("checkpoints every 15 wall-clock minutes"));

  const ShellResult bad =
      shell(run_command("", dir + "/thermal.toml", dir + "/bad", "--max-wall-time 90"));
  CHECK(bad.code == 2);
  CHECK_THAT(bad.output, ContainsSubstring("--max-wall-time '90'"));
  CHECK_FALSE(fs::exists(dir + "/bad"));
  fs::remove_all(dir);
}

TEST_CASE("submit --dry-run renders each template with its directives", "[batch][cli]") {
  const std::string dir = make_temp_dir("cb_dryrun_");
  const std::string case_path = source_dir + "/cases/weather/thermal_2d.toml";
  const std::string common =
      "submit " + case_path + " --dry-run --nodes 2 --time 2:00:00 --partition gpu-spot" +
      " --account proj1 --output-dir " + dir + "/out --set grid.cells=[64,1,32]";
  CliResult cpu = run_cloudburst(common + " --template cpu --ranks-per-node 8");
  INFO(cpu.output);
  REQUIRE(cpu.code == 0);
  for (const char* line :
       {"#SBATCH --nodes=2\n", "#SBATCH --exclusive\n", "#SBATCH --ntasks-per-node=8\n",
        "#SBATCH --requeue\n", "#SBATCH --open-mode=append\n", "#SBATCH --signal=B:USR1@",
        "#SBATCH --time=2:00:00\n", "#SBATCH --partition=gpu-spot\n", "#SBATCH --account=proj1\n",
        "#SBATCH --job-name=thermal_2d\n", "#SBATCH --output=slurm-%j.out\n", "srun --mpi=pmix",
        "--restart auto", "'--set' 'grid.cells=[64,1,32]'", "CLOUDBURST_CHECKPOINT_MINUTES:-15}",
        "max_restarts=10\n"}) {
    CHECK_THAT(cpu.output, ContainsSubstring(line));
  }
  CHECK_THAT(cpu.output, !ContainsSubstring("--gpus"));
  CHECK_THAT(cpu.output, !ContainsSubstring("@"
                                            "NODES@"));
  for (const char* vendor : {"nvidia", "amd"}) {
    CliResult gpu = run_cloudburst(common + " --template " + vendor + " --gpus-per-node 4 --spot");
    INFO(vendor << ":\n" << gpu.output);
    REQUIRE(gpu.code == 0);
    for (const char* line :
         {"#SBATCH --gpus-per-node=4\n", "#SBATCH --ntasks-per-node=4\n", "#SBATCH --requeue\n",
          "#SBATCH --open-mode=append\n", "#SBATCH --signal=B:USR1@", "#SBATCH --time=2:00:00\n",
          "srun --mpi=pmix", "--gpu-bind=none", "CLOUDBURST_CHECKPOINT_MINUTES:-5}",
          "max_restarts=50\n"}) {
      CHECK_THAT(gpu.output, ContainsSubstring(line));
    }
    CHECK_THAT(gpu.output,
               !ContainsSubstring("gpus-per-task") && !ContainsSubstring("--exclusive"));
    const std::string script = dir + "/" + vendor + ".sbatch";
    write_text(script, gpu.output);
    CHECK(shell("bash -n " + quote(script)).code == 0);
  }
  // The signal comes at most halfway through a short job, with a warning.
  CliResult short_job = run_cloudburst(common + " --template cpu --time 3");
  CHECK_THAT(short_job.output, ContainsSubstring("--signal=B:USR1@90\n"));
  CHECK_THAT(short_job.output, ContainsSubstring("warning: with --time under 4 minutes"));
  // Nothing was written by a dry run.
  CHECK_FALSE(fs::exists(dir + "/out"));
  // Refused with exit 2: a case error (as check reports it), options that would
  // reach a directive, a GPU request for the CPU template.
  const CliResult bad_case = run_cloudburst(common + " --template cpu --set grid.cells=[64,1]");
  CHECK(bad_case.code == 2);
  CHECK_THAT(bad_case.output, ContainsSubstring("cells"));
  CHECK(run_cloudburst(common + " --template cpu --partition 'a;b'").code == 2);
  CHECK(run_cloudburst(common + " --template cpu --time soon").code == 2);
  CHECK(run_cloudburst(common + " --template cpu --gpus-per-node 2").code == 2);
  CHECK(run_cloudburst(common + " --template nvidia").code == 2);
  CHECK(run_cloudburst("submit --help").code == 0);
  fs::remove_all(dir);
}

TEST_CASE("a hostile case path and output directory inject nothing", "[batch][cli]") {
  const std::string dir = make_temp_dir("cb_hostile_");
  const std::string marker = "/tmp/pwned";
  fs::remove(marker);
  // The case path contains: a b;$(touch /tmp/pwned)'".toml
  fs::create_directories(dir + "/a b;$(touch /tmp");
  const std::string case_path = dir + "/a b;$(touch /tmp/pwned)'\".toml";
  write_text(case_path,
             "[run]\nsolver = \"weather\"\ncase = \"thermal\"\nend_time = 20.0\n"
             "[grid]\ncells = [32, 1, 16]\n[diagnostics]\nevery_steps = 0\n");
  const std::string out = dir + "/out $(touch /tmp/pwned) `touch /tmp/pwned` 'q\"";
  fs::create_directories(dir + "/bin");
  write_executable(dir + "/bin/sbatch",
                   "#!/bin/sh\nprintf '%s\\n' \"$PWD\" \"$@\" > \"$STUB_LOG\"\necho 4242\n");
  write_executable(dir + "/bin/srun",
                   "#!/bin/bash\nwhile [[ $# -gt 0 && $1 == -* ]]; do shift; done\nexec \"$@\"\n");
  write_executable(dir + "/bin/scontrol", "#!/bin/sh\necho \"$@\" >> \"$STUB_LOG.scontrol\"\n");
  const std::string path =
      "PATH=" + quote(dir + "/bin") + ":\"$PATH\" STUB_LOG=" + quote(dir + "/sbatch.log");

  const ShellResult submitted =
      shell("cd " + quote(dir) + " && " + path + " " + quote(exe) + " submit " + quote(case_path) +
            " --nodes 1 --ranks-per-node 1 --name " + quote("x;y $(z)") + " --output-dir " +
            quote(out) + " --set " + quote("output.fields=[\"theta_pert\"]"));
  INFO(submitted.output);
  REQUIRE(submitted.code == 0);
  CHECK_THAT(submitted.output, ContainsSubstring("submitted batch job 4242"));
  CHECK(read_text(dir + "/sbatch.log") == out + "\n--parsable\njob.sbatch\n");
  const std::string script = read_text(out + "/job.sbatch");
  CHECK_THAT(script, ContainsSubstring("#SBATCH --job-name=x_y___z_\n"));
  CHECK(shell("bash -n " + quote(out + "/job.sbatch")).code == 0);

  // Run the job script as Slurm would, with the stub srun.
  const long end = static_cast<long>(cb::epoch_seconds() + 3600);
  const ShellResult job = shell(
      "cd " + quote(out) + " && " + path + " SLURM_JOB_ID=4242 SLURM_JOB_NUM_NODES=1 " +
      "SLURM_NTASKS_PER_NODE=1 SLURM_JOB_END_TIME=" + std::to_string(end) + " bash job.sbatch");
  INFO(job.output);
  CHECK(job.code == 0);
  CHECK_THAT(job.output, ContainsSubstring("cloudburst-batch: finished"));
  CHECK_THAT(read_text(out + "/run.log"), ContainsSubstring("from " + case_path));
  CHECK_FALSE(checkpoint_files(out + "/checkpoints").empty());
  CHECK_FALSE(fs::exists(marker));
  fs::remove_all(dir);
}

TEST_CASE("cloudburst-batch requeues only on progress below the cap and forwards signals",
          "[batch]") {
  const std::string dir = make_temp_dir("cb_wrapper_");
  const std::string out = dir + "/out";
  fs::create_directories(out + "/checkpoints");
  fs::create_directories(dir + "/bin");
  write_executable(dir + "/bin/scontrol",
                   "#!/bin/sh\necho \"$@\" >> " + quote(dir + "/scontrol.log") + "\n");
  const std::string wrapper = quote(source_dir + "/scripts/slurm/cloudburst-batch");
  auto run = [&](const std::string& restarts, const std::string& command,
                 const std::string& cap = "3") {
    fs::remove(dir + "/scontrol.log");
    return shell("PATH=" + quote(dir + "/bin") + ":\"$PATH\" SLURM_JOB_ID=77 SLURM_RESTART_COUNT=" +
                 restarts + " " + wrapper + " --output-dir " + quote(out) + " --max-restarts " +
                 cap + " -- bash -c " + quote(command));
  };
  const std::string chk = quote(out + "/checkpoints") + "/chk_";

  ShellResult r = run("0", "touch " + chk + "00000010.h5; exit 75");
  INFO(r.output);
  CHECK(r.code == 0);
  CHECK_THAT(r.output, ContainsSubstring("requeueing job 77 (restart 1 of at most 3)"));
  CHECK(read_text(dir + "/scontrol.log") == "requeue 77\n");

  r = run("1", "exit 75");  // no new checkpoint
  CHECK(r.code == 75);
  CHECK_THAT(r.output, ContainsSubstring("not requeueing: no progress"));
  CHECK_FALSE(fs::exists(dir + "/scontrol.log"));

  r = run("3", "touch " + chk + "00000020.h5; exit 75");
  CHECK(r.code == 75);
  CHECK_THAT(r.output,
             ContainsSubstring("not requeueing: restart cap reached (3 restarts, at most 3)"));
  CHECK_FALSE(fs::exists(dir + "/scontrol.log"));

  write_text(out + "/run.log", "error: step 6: 'u' is NaN\n");
  r = run("0", "exit 3");
  CHECK(r.code == 3);
  CHECK_THAT(r.output,
             ContainsSubstring("failed with exit code 3") && ContainsSubstring("'u' is NaN"));

  CHECK(run("0", "exit 0").code == 0);

  // SIGUSR1 to the batch shell reaches the job step, which checkpoints and exits 75.
  const std::string step = "trap 'touch " + chk + "00000030.h5; exit 75' USR1; touch " +
                           quote(dir + "/ready") + "; while :; do sleep 0.05; done";
  fs::remove(dir + "/scontrol.log");
  r = shell("PATH=" + quote(dir + "/bin") + ":\"$PATH\" SLURM_JOB_ID=77 SLURM_RESTART_COUNT=0 " +
            wrapper + " --output-dir " + quote(out) + " -- bash -c " + quote(step) +
            " & w=$!; n=0; while [ ! -f " + quote(dir + "/ready") +
            " ] && [ $n -lt 100 ]; do sleep 0.1; n=$((n+1)); done; kill -USR1 $w; wait $w; "
            "echo \"wrapper exit $?\"");
  INFO(r.output);
  CHECK_THAT(r.output,
             ContainsSubstring("received SIGUSR1") && ContainsSubstring("wrapper exit 0"));
  CHECK(read_text(dir + "/scontrol.log") == "requeue 77\n");
  fs::remove_all(dir);
}

TEST_CASE("SIGUSR1 to mpirun: every rank checkpoints and mpirun returns 75", "[batch][mpi]") {
  // Open MPI's mpirun forwards SIGUSR1 to the ranks and waits for them; on
  // SIGTERM it forwards the signal too but returns 1 whatever the ranks do, so
  // scripts that signal mpirun use SIGUSR1 (docs/clusters.md).
  const std::string dir = cb::test::make_temp_dir("cb_mpirun_signal_");
  cb::test::write_text(dir + "/long.toml",
                       "[run]\nsolver = \"scalar\"\ncase = \"gaussian\"\nsteps = 1000000\n"
                       "[grid]\ncells = [32, 32, 32]\n[diagnostics]\nevery_steps = 0\n");
  const std::string out = dir + "/out";
  const cb::test::CliResult r = cb::test::run_shell(
      "'" + std::string(CLOUDBURST_MPIEXEC) + "' -n 2 --oversubscribe '" + CLOUDBURST_EXE +
      "' run " + dir + "/long.toml --output-dir " + out + " > " + dir +
      "/mpirun.log 2>&1 & pid=$!; n=0; while [ $n -lt 600 ] && ! grep -q '^device: rank 1' " + out +
      "/run.log 2>/dev/null; do sleep 0.05; n=$((n+1)); done; sleep 0.5; kill -USR1 $pid; "
      "wait $pid; echo mpirun returned $?");
  INFO(r.output << cb::test::read_text(dir + "/mpirun.log"));
  CHECK_THAT(r.output, ContainsSubstring("mpirun returned 75"));
  CHECK_THAT(cb::test::read_text(out + "/run.log"), ContainsSubstring("stop requested by signal"));
  bool checkpoint = false;
  for (const auto& e : fs::directory_iterator(out + "/checkpoints"))
    checkpoint = checkpoint || e.path().extension() == ".h5";
  CHECK(checkpoint);
  fs::remove_all(dir);
}
