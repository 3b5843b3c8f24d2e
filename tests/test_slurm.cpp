// Batch jobs on a real Slurm (docs/clusters.md; docs/architecture.md, "Batch jobs"):
// a single-node cluster on localhost that tests/slurm/with-slurm starts around
// this program (SLURM_CONF points at it). Every test SKIPs when Slurm is not
// installed.
//   - preemption: a submitted job signalled after its first checkpoint
//     (scancel --batch --signal=USR1) checkpoints, exits 75, requeues itself,
//     resumes and ends bitwise equal to an uninterrupted run;
//   - node loss: the job step SIGKILLed (no chance to checkpoint), the job
//     requeued, it resumes from the last wall-clock checkpoint, same end state;
//   - a job signalled at every start stops requeueing and fails with exit 75
//     and a clear message: at once when a run made no progress, else at the
//     restart cap;
//   - a hostile case path through submit, sbatch and srun injects nothing;
//   - a parameter sweep runs as a job array, one output directory per task.
#include "cli_runner.hpp"
#include "slurm/batch_test_support.hpp"

#include <catch2/catch_test_macros.hpp>
#include <catch2/matchers/catch_matchers_string.hpp>

#include <cstdlib>
#include <filesystem>
#include <regex>

using namespace cb::test;
using Catch::Matchers::ContainsSubstring;
namespace fs = std::filesystem;

namespace {

const std::string exe = CLOUDBURST_EXE;

// Skips the test unless with-slurm started a cluster for this process.
void require_slurm() {
  if (const char* why = std::getenv("CLOUDBURST_SLURM_UNAVAILABLE"))
    SKIP(std::string("Slurm: ") + why);
  if (!std::getenv("SLURM_CONF"))
    SKIP("no test cluster: run this test under tests/slurm/with-slurm");
}

// The weather thermal, small enough for seconds on one core; checkpoints
// every 100 steps of 1440, so there is one to preempt after.
const std::string thermal_case =
    "[run]\nsolver = \"weather\"\ncase = \"thermal\"\nend_time = 1000.0\n"
    "[grid]\ncells = [96, 1, 48]\n[diagnostics]\nevery_steps = 100\n"
    "[checkpoint]\nkeep = 2\n";

struct JobInfo {
  std::string state;  // "" when Slurm no longer knows the job
  int restarts = 0;
  std::string exit_code;
};

JobInfo job_info(const std::string& id) {
  const std::string text = shell("scontrol show job " + id).output;
  JobInfo info;
  std::smatch m;
  if (std::regex_search(text, m, std::regex("JobState=(\\w+)"))) info.state = m[1];
  if (std::regex_search(text, m, std::regex("Restarts=(\\d+)"))) info.restarts = std::stoi(m[1]);
  if (std::regex_search(text, m, std::regex("ExitCode=(\\d+:\\d+)"))) info.exit_code = m[1];
  return info;
}

bool job_ended(const std::string& id) {
  const std::string state = job_info(id).state;
  return state == "COMPLETED" || state == "FAILED" || state == "CANCELLED" || state == "TIMEOUT" ||
         state == "NODE_FAIL" || state == "OUT_OF_MEMORY";
}

// Submits `case_path` with `options`; returns the job id.
std::string submit(const std::string& case_path, const std::string& out,
                   const std::string& options = "") {
  const ShellResult r = shell(quote(exe) + " submit " + quote(case_path) + " --output-dir " +
                              quote(out) + " --nodes 1 --ranks-per-node 1 --time 10:00 " + options);
  INFO(r.output);
  REQUIRE(r.code == 0);
  std::smatch m;
  REQUIRE(std::regex_search(r.output, m, std::regex("submitted batch job (\\d+)")));
  return m[1];
}

// Everything the job and the run logged, for failure messages.
std::string job_logs(const std::string& out) {
  std::string text = read_text(out + "/run.log");
  for (const auto& e : fs::directory_iterator(out)) {
    if (e.path().filename().string().rfind("slurm-", 0) == 0)
      text += "\n--- " + e.path().string() + ":\n" + read_text(e.path());
  }
  return text;
}

// The uninterrupted run of `case_path`, outside Slurm: its final checkpoint.
std::string reference_run(const std::string& case_path, const std::string& out) {
  const ShellResult r = shell("env -u SLURM_JOB_ID " + quote(exe) + " run " + quote(case_path) +
                              " --output-dir " + quote(out));
  INFO(r.output);
  REQUIRE(r.code == 0);
  return out + "/checkpoints/" + checkpoint_files(out + "/checkpoints").back();
}

void cancel(const std::string& id) {
  shell("scancel " + id);
}

}  // namespace

TEST_CASE("a preempted job checkpoints, requeues itself and ends as an uninterrupted run",
          "[slurm]") {
  require_slurm();
  const std::string dir = make_temp_dir("cb_preempt_");
  write_text(dir + "/thermal.toml", thermal_case);
  const std::string reference = reference_run(dir + "/thermal.toml", dir + "/straight");
  const std::string out = dir + "/job";
  const std::string id = submit(dir + "/thermal.toml", out, "--set checkpoint.every_steps=100");
  INFO("job " << id);
  REQUIRE(wait_for([&] { return !checkpoint_files(out + "/checkpoints").empty(); }, 60));
  REQUIRE(shell("scancel --batch --signal=USR1 " + id).code == 0);
  // Ended after the requeue, or failed before it.
  const bool ended = wait_for(
      [&] {
        const JobInfo now = job_info(id);
        return job_ended(id) && (now.restarts >= 1 || now.state == "FAILED");
      },
      120);
  const JobInfo info = job_info(id);
  const std::string logs = job_logs(out);
  INFO(logs);
  if (!ended) cancel(id);
  REQUIRE(ended);
  CHECK(info.state == "COMPLETED");
  CHECK(info.restarts == 1);
  for (const char* line : {"received SIGUSR1", "stop requested by signal at step", "exit 75",
                           "requeueing job", "run start: Slurm job ", "restart 1, on",
                           "resuming from", "wall-time limit: ", "cloudburst-batch: finished"}) {
    CHECK_THAT(logs, ContainsSubstring(line));
  }
  const std::string final_file = out + "/checkpoints/" + fs::path(reference).filename().string();
  REQUIRE(fs::exists(final_file));
  CHECK(checkpoint_fields(final_file) == checkpoint_fields(reference));
  fs::remove_all(dir);
}

TEST_CASE("after a lost node the requeued job resumes from the last periodic checkpoint",
          "[slurm]") {
  require_slurm();
  const std::string dir = make_temp_dir("cb_nodeloss_");
  write_text(dir + "/thermal.toml", thermal_case);
  const std::string reference = reference_run(dir + "/thermal.toml", dir + "/straight");
  const std::string out = dir + "/job";
  // Wall-clock checkpoints every 0.6 s, none by steps.
  const std::string id = submit(dir + "/thermal.toml", out, "--set checkpoint.every_minutes=0.01");
  INFO("job " << id);
  REQUIRE(wait_for([&] { return !checkpoint_files(out + "/checkpoints").empty(); }, 60));
  // The node is gone: its processes die with SIGKILL, nothing is written.
  REQUIRE(shell("scancel --signal=KILL " + id + ".0").code == 0);
  REQUIRE(wait_for([&] { return job_ended(id); }, 60));
  const std::string lost_at = checkpoint_files(out + "/checkpoints").back();
  CHECK(job_info(id).state == "FAILED");
  // Slurm requeues a job whose node failed (--requeue); here the test does.
  REQUIRE(shell("scontrol requeue " + id).code == 0);
  const bool ended = wait_for([&] { return job_info(id).restarts == 1 && job_ended(id); }, 120);
  const std::string logs = job_logs(out);
  INFO(logs);
  if (!ended) cancel(id);
  REQUIRE(ended);
  CHECK(job_info(id).state == "COMPLETED");
  CHECK_THAT(logs, ContainsSubstring("the job step failed with exit code"));
  CHECK_THAT(logs, ContainsSubstring("restart 1, on") &&
                       ContainsSubstring("resuming from " + out + "/checkpoints/" + lost_at));
  const std::string final_file = out + "/checkpoints/" + fs::path(reference).filename().string();
  REQUIRE(fs::exists(final_file));
  CHECK(checkpoint_fields(final_file) == checkpoint_fields(reference));
  fs::remove_all(dir);
}

TEST_CASE("a job signalled before its first step stops requeueing at once: no progress",
          "[slurm]") {
  require_slurm();
  const std::string dir = make_temp_dir("cb_noprogress_");
  // Long enough never to finish here; only the default wall-clock checkpoints.
  write_text(dir + "/long.toml", thermal_case);
  const std::string out = dir + "/job";
  const std::string id =
      submit(dir + "/long.toml", out, "--max-restarts 2 --set run.end_time=100000.0");
  INFO("job " << id);
  // Like a --signal that fires at once: USR1 as soon as each (re)start of the
  // job script has begun (its first line in the job's output).
  int signalled = -1;
  const bool ended = wait_for(
      [&] {
        const std::string started =
            "cloudburst-batch: job " + id + " restart " + std::to_string(signalled + 1) + " on";
        if (read_text(out + "/slurm-" + id + ".out").find(started) != std::string::npos &&
            shell("scancel --batch --signal=USR1 " + id).code == 0) {
          ++signalled;
        }
        return job_ended(id);
      },
      150);
  const JobInfo info = job_info(id);
  const std::string logs = job_logs(out);
  INFO(logs);
  if (!ended) cancel(id);
  REQUIRE(ended);
  CHECK(info.state == "FAILED");
  CHECK(info.exit_code == "75:0");
  CHECK(info.restarts <= 2);
  // Usually the first start already took no step; should the program have
  // been quicker than the signal, the restart cap ends the loop.
  CHECK_THAT(logs, ContainsSubstring("cloudburst-batch: not requeueing: no progress") ||
                       ContainsSubstring("cloudburst-batch: not requeueing: restart cap reached"));
  fs::remove_all(dir);
}

TEST_CASE("a job signalled soon after every start stops requeueing at the restart cap", "[slurm]") {
  require_slurm();
  const std::string dir = make_temp_dir("cb_restartcap_");
  write_text(dir + "/long.toml", thermal_case);
  const std::string out = dir + "/job";
  const std::string id =
      submit(dir + "/long.toml", out, "--max-restarts 2 --set run.end_time=100000.0");
  INFO("job " << id);
  // Each start makes a little progress (its first progress line, printed
  // after step 1, is in the job's output), then the signal comes: a
  // checkpoint every time, so only the cap stops the loop.
  int signalled = -1;
  const bool ended = wait_for(
      [&] {
        const std::string output = read_text(out + "/slurm-" + id + ".out");
        const size_t start = output.find("run start: Slurm job " + id + ", restart " +
                                         std::to_string(signalled + 1) + ",");
        if (start != std::string::npos && output.find("\nstep ", start) != std::string::npos &&
            shell("scancel --batch --signal=USR1 " + id).code == 0) {
          ++signalled;
        }
        return job_ended(id);
      },
      150);
  const JobInfo info = job_info(id);
  const std::string logs = job_logs(out);
  INFO(logs);
  if (!ended) cancel(id);
  REQUIRE(ended);
  CHECK(info.state == "FAILED");
  CHECK(info.exit_code == "75:0");
  CHECK(info.restarts == 2);
  CHECK_THAT(logs, ContainsSubstring("requeueing job " + id + " (restart 2 of at most 2)"));
  CHECK_THAT(logs,
             ContainsSubstring(
                 "cloudburst-batch: not requeueing: restart cap reached (2 restarts, at most 2)"));
  fs::remove_all(dir);
}

TEST_CASE("a hostile case path goes through submit, sbatch and srun untouched", "[slurm]") {
  require_slurm();
  const std::string dir = make_temp_dir("cb_slurm_hostile_");
  fs::remove("/tmp/pwned");
  fs::create_directories(dir + "/a b;$(touch /tmp");
  const std::string case_path = dir + "/a b;$(touch /tmp/pwned)'\".toml";
  write_text(case_path,
             "[run]\nsolver = \"weather\"\ncase = \"thermal\"\nend_time = 20.0\n"
             "[grid]\ncells = [32, 1, 16]\n");
  const std::string out = dir + "/o `touch /tmp/pwned` $HOME 'q\"";
  const std::string id = submit(case_path, out, "--name " + quote("$(touch /tmp/pwned)"));
  const bool ended = wait_for([&] { return job_ended(id); }, 60);
  const std::string logs = fs::exists(out) ? job_logs(out) : "";
  INFO(logs);
  if (!ended) cancel(id);
  REQUIRE(ended);
  CHECK(job_info(id).state == "COMPLETED");
  CHECK_THAT(logs, ContainsSubstring("from " + case_path));
  CHECK_FALSE(checkpoint_files(out + "/checkpoints").empty());
  CHECK_FALSE(fs::exists("/tmp/pwned"));
  fs::remove_all(dir);
}

TEST_CASE("a parameter sweep runs as a job array, one directory per task", "[slurm]") {
  require_slurm();
  const std::string dir = make_temp_dir("cb_sweep_");
  write_text(dir + "/small.toml",
             "[run]\nsolver = \"weather\"\ncase = \"thermal\"\nend_time = 20.0\n"
             "[grid]\ncells = [32, 1, 16]\n");
  write_text(dir + "/sweep.toml", "[sweep]\n\"run.end_time\" = [10.0, 30.0]\n");
  const std::string out = dir + "/sweep";
  const std::string id = submit(dir + "/small.toml", out, "--sweep " + quote(dir + "/sweep.toml"));
  const bool ended = wait_for([&] { return shell("squeue -h -j " + id).output.empty(); }, 90);
  INFO(read_text(out + "/sweep_tasks.txt"));
  if (!ended) cancel(id);
  REQUIRE(ended);
  CHECK(read_text(out + "/sweep_tasks.txt") ==
        "task_0000  run.end_time=10.0\ntask_0001  run.end_time=30.0\n");
  for (const char* task : {"task_0000", "task_0001"}) {
    INFO(task << ": " << job_logs(out + "/" + task));
    CHECK_THAT(read_text(out + "/" + task + "/run.log"), ContainsSubstring("finished: step"));
  }
  CHECK_THAT(read_text(out + "/task_0001/run.log"), ContainsSubstring("t = 30,"));
  fs::remove_all(dir);
}
