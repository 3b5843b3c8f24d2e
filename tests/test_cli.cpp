// The command-line program: help of every subcommand, --version, info, and
// `check` printing the fully resolved case.
#include "cli_runner.hpp"

#include <catch2/catch_test_macros.hpp>
#include <catch2/matchers/catch_matchers_string.hpp>

using namespace cb::test;
using Catch::Matchers::ContainsSubstring;

TEST_CASE("every subcommand has --help", "[cli]") {
  for (const char* command : {"--help", "run --help", "check --help", "info --help"}) {
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
                           "parallel", "compiler"}) {
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
