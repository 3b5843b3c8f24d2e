// The command-line program: help of every subcommand, --version, info, and
// `check` printing the fully resolved case.
#include "cli_runner.hpp"
#include "core/run_context.hpp"

#include <catch2/catch_test_macros.hpp>
#include <catch2/matchers/catch_matchers_string.hpp>

#include <filesystem>
#include <string>

using namespace cb::test;
using Catch::Matchers::ContainsSubstring;

TEST_CASE("every subcommand has --help", "[cli]") {
  for (const char* command :
       {"--help", "run --help", "check --help", "info --help", "estimate --help"}) {
    const CliResult r = run_cloudburst(command);
    INFO(command << ":\n" << r.output);
    CHECK(r.code == 0);
    CHECK_THAT(r.output, ContainsSubstring("usage: cloudburst"));
  }
}

TEST_CASE("--version and info", "[cli]") {
  CliResult r = run_cloudburst("--version");
  CHECK(r.code == 0);
  CHECK_THAT(r.output, ContainsSubstring("cloudburst "));
  r = run_cloudburst("info");
  INFO(r.output);
  CHECK(r.code == 0);
  for (const char* word : {"Kokkos", "backends", "execution space", "concurrency", "MPI", "HDF5",
                           "parallel", "compiler", "solvers", "weather", "cfd", "md", "scalar"}) {
    CHECK_THAT(r.output, ContainsSubstring(word));
  }
}

TEST_CASE("no command, an unknown command or option exit with code 2", "[cli]") {
  CHECK(run_cloudburst("").code == 2);
  const CliResult r = run_cloudburst("frobnicate");
  CHECK(r.code == 2);
  CHECK_THAT(r.output, ContainsSubstring("unknown command 'frobnicate'"));
  CHECK(run_cloudburst("run --bogus x.toml").code == 2);
}

TEST_CASE("check prints the resolved case with defaults, grid, memory and steps", "[cli]") {
  const std::string dir = make_temp_dir("cb_check_");
  write_text(dir + "/c.toml",
             "[run]\nsolver = \"scalar\"\ncase = \"sine\"\nend_time = 1.0\n"
             "[grid]\ncells = [64, 1, 1]\n[time]\ncfl = 0.5\n");
  const CliResult r = run_cloudburst("check " + dir + "/c.toml --set grid.cells=[128,1,1]");
  INFO(r.output);
  CHECK(r.code == 0);
  CHECK_THAT(r.output, ContainsSubstring("cells = [ 128, 1, 1 ]") ||
                           ContainsSubstring("cells = [128, 1, 1]"));
  CHECK_THAT(r.output, ContainsSubstring("limiter = \"none\"  # default"));
  CHECK_THAT(r.output, ContainsSubstring("cfl = 0.5\n"));
  CHECK_THAT(r.output, ContainsSubstring("# grid: 128 x 1 x 1 = 128 cells"));
  CHECK_THAT(r.output, ContainsSubstring("# field memory:"));
  CHECK_THAT(r.output, ContainsSubstring("# steps: 256"));  // dt = 0.5 / 128
}

TEST_CASE("steps and end_time together: the run stops at whichever comes first", "[cli]") {
  const std::string dir = make_temp_dir("cb_stop_");
  // dt = 0.5 / 64; end_time 1.0 is 128 steps away.
  write_text(dir + "/c.toml",
             "[run]\nsolver = \"scalar\"\ncase = \"sine\"\nend_time = 1.0\nsteps = 10\n"
             "[grid]\ncells = [64, 1, 1]\n[time]\ncfl = 0.5\n");
  const CliResult checked = run_cloudburst("check " + dir + "/c.toml");
  INFO(checked.output);
  CHECK(checked.code == 0);
  CHECK_THAT(checked.output,
             ContainsSubstring("# stops at step 10 or t = 1, whichever comes first"));
  const CliResult by_steps = run_cloudburst("run " + dir + "/c.toml --output-dir " + dir + "/a");
  INFO(by_steps.output);
  CHECK(by_steps.code == 0);
  CHECK_THAT(by_steps.output, ContainsSubstring("finished: step 10, t = 0.078125,"));
  const CliResult by_time = run_cloudburst("run " + dir +
                                           "/c.toml --set run.steps=1000 "
                                           "--set run.end_time=0.05 --output-dir " +
                                           dir + "/b");
  INFO(by_time.output);
  CHECK(by_time.code == 0);
  CHECK_THAT(by_time.output, ContainsSubstring("finished: step 7, t = 0.05,"));
}

TEST_CASE("check resolves a case the same inside and outside a batch job", "[cli][batch]") {
  const std::string dir = make_temp_dir("cb_env_");
  write_text(
      dir + "/c.toml",
      "[run]\nsolver = \"scalar\"\ncase = \"sine\"\nsteps = 2\n[grid]\ncells = [16, 1, 1]\n");
  const CliResult outside = run_cloudburst("check " + dir + "/c.toml");
  const CliResult inside = run_shell("SLURM_JOB_ID=4242 CLOUDBURST_CHECKPOINT_MINUTES=7 " +
                                     std::string(CLOUDBURST_EXE) + " check " + dir + "/c.toml");
  INFO(outside.output << "\n---\n" << inside.output);
  CHECK(outside.code == 0);
  CHECK(inside.output == outside.output);
  CHECK_THAT(outside.output,
             ContainsSubstring("# checkpoint every_minutes: set when the run starts"));
  // The run applies the environment's default at its start and says so.
  const CliResult run = run_shell("CLOUDBURST_CHECKPOINT_MINUTES=7 " + std::string(CLOUDBURST_EXE) +
                                  " run " + dir + "/c.toml --output-dir " + dir + "/out");
  INFO(run.output);
  CHECK(run.code == 0);
  CHECK_THAT(run.output,
             ContainsSubstring("from the environment: checkpoint every_minutes = 7 (from "
                               "CLOUDBURST_CHECKPOINT_MINUTES)"));
  CHECK_THAT(run.output, ContainsSubstring("checkpoints every 7 wall-clock minutes"));
}

TEST_CASE("gpu_aware_mpi is honoured or refused, and the summary shows the path", "[cli][mpi]") {
  const std::string dir = make_temp_dir("cb_gpu_aware_");
  write_text(dir + "/grid.toml",
             "[run]\nsolver = \"scalar\"\ncase = \"sine\"\nsteps = 2\n"
             "[grid]\ncells = [16, 8, 1]\n[parallel]\nranks = [2, 1, 1]\n");
  // The grid halo exchange, and MD's ghost exchange, migration and loading.
  const std::string cases[] = {dir + "/grid.toml",
                               std::string(CLOUDBURST_SOURCE_DIR) + "/cases/md/lj_melt.toml"};
  for (const std::string& file : cases) {
    const std::string out = dir + "/" + std::to_string(&file - cases);
    const CliResult staged =
        run_cloudburst_mpi(2, "run " + file + " --set run.steps=20 --output-dir " + out + "s");
    INFO(staged.output);
    CHECK(staged.code == 0);
    CHECK_THAT(staged.output, ContainsSubstring("staged through host buffers (all ranks)"));
    const CliResult direct = run_cloudburst_mpi(2, "run " + file + " --set run.steps=20 " +
                                                       "--set parallel.gpu_aware_mpi=true " +
                                                       "--output-dir " + out + "d");
    INFO(direct.output);
    // Host memory (Serial, OpenMP): every MPI takes it. A GPU build whose MPI
    // cannot say that it takes device memory refuses before writing anything.
    if (!cb::gpu_aware_mpi_refusal().empty()) {
      CHECK(direct.code == 2);
      CHECK_THAT(direct.output, ContainsSubstring("gpu_aware_mpi"));
      CHECK_FALSE(std::filesystem::exists(out + "d"));
    } else {
      CHECK(direct.code == 0);
      CHECK_THAT(direct.output, ContainsSubstring("device buffers handed to MPI (all ranks)"));
      CHECK_THAT(direct.output, !ContainsSubstring("staged through host"));
    }
  }
}
