// `cloudburst estimate` on a small weather case: the JSON report's fields exist
// and are positive, the scratch directory is removed, the plain-text report
// carries the checkpoint line, --scale-to adds the scaling model's section,
// bad arguments exit 2 naming the option, and `submit --estimate` (with
// --scale-to passed through) prints the same report for the job before its script.
#include "cli_runner.hpp"

#include <catch2/catch_test_macros.hpp>
#include <catch2/matchers/catch_matchers_string.hpp>

#include <cstdlib>
#include <filesystem>
#include <regex>
#include <string>

using namespace cb::test;
using Catch::Matchers::ContainsSubstring;

namespace {

const std::string small_weather = std::string(CLOUDBURST_SOURCE_DIR) +
                                  "/cases/weather/thermal_2d.toml --set grid.cells=[40,1,20]"
                                  " --set run.end_time=200.0";

// The number after "name": in `json`; fails the test when it is missing.
double json_value(const std::string& json, const std::string& name) {
  const std::regex pattern("\"" + name + "\": (-?[0-9.eE+-]+)");
  std::smatch match;
  INFO("JSON field " << name);
  REQUIRE(std::regex_search(json, match, pattern));
  return std::strtod(match[1].str().c_str(), nullptr);
}

}  // namespace

TEST_CASE("estimate --json on a small weather case", "[cli][estimate]") {
  const std::string scratch = make_temp_dir("cb_estimate_");
  const CliResult r = run_cloudburst(
      "estimate " + small_weather + " --steps 20 --price-per-hour 2.5" +
      " --interruptions-per-hour 0.5 --nodes 2 --scale-to 16 --json" + " --scratch-dir " + scratch);
  INFO(r.output);
  REQUIRE(r.code == 0);
  for (const char* name : {"seconds_per_step",
                           "startup_seconds",
                           "mean_dt",
                           "checkpoint_write_seconds",
                           "checkpoint_bytes",
                           "output_write_seconds",
                           "output_bytes",
                           "host_memory_high_water_bytes_per_rank",
                           "compute_seconds",
                           "checkpoints",
                           "outputs",
                           "wall_seconds",
                           "bytes_written",
                           "mtbi_seconds",
                           "restart_seconds",
                           "young_interval_seconds",
                           "daly_interval_seconds",
                           "every_minutes",
                           "expected_wall_seconds",
                           "expected_cost",
                           "cost_without_interruptions",
                           "efficiency"}) {
    CHECK(json_value(r.output, name) > 0.0);
  }
  CHECK(json_value(r.output, "steps") > 0.0);
  CHECK(json_value(r.output, "ranks") == 1.0);
  CHECK_THAT(r.output, ContainsSubstring("\"device_memory_bytes\": "));
  CHECK_THAT(r.output, ContainsSubstring("\"dt\": \"cfl\""));
  // 0.5 interruptions per node-hour on 2 nodes: one an hour
  CHECK(json_value(r.output, "mtbi_seconds") == 3600.0);
  CHECK(json_value(r.output, "daly_interval_seconds") <=
        json_value(r.output, "young_interval_seconds"));
  // interruptions cost something
  CHECK(json_value(r.output, "expected_cost") > json_value(r.output, "cost_without_interruptions"));
  // --scale-to on one rank: measured on 1 rank, so no halo to fit
  CHECK_THAT(r.output, ContainsSubstring("\"scaling\": {\n    \"measured\": [{\"ranks\": 1, "));
  CHECK(json_value(r.output, "halo_latency_seconds") == 0.0);
  CHECK(json_value(r.output, "halo_seconds_per_face_cell") == 0.0);
  CHECK(std::filesystem::is_empty(scratch));
}

TEST_CASE("estimate prints a plain-text report, also on 2 ranks", "[cli][estimate]") {
  const CliResult r = run_cloudburst_mpi(
      2, "estimate " + small_weather + " --steps 10 --interruptions-per-hour 2 --scale-to 16");
  INFO(r.output);
  REQUIRE(r.code == 0);
  CHECK_THAT(r.output, ContainsSubstring("2 rank(s)"));
  CHECK_THAT(r.output, ContainsSubstring("time per step"));
  CHECK_THAT(r.output, ContainsSubstring("mean dt of the 10 measured steps"));
  CHECK_THAT(r.output, ContainsSubstring("use:  [checkpoint] every_minutes = "));
  // --scale-to: the time per step on 1 and 2 of the ranks, and the model at 16
  CHECK_THAT(r.output, ContainsSubstring("scaling to 16 rank(s)"));
  CHECK_THAT(r.output, ContainsSubstring("\n                             1  "));
  CHECK_THAT(r.output, ContainsSubstring("\n                             2  "));
  CHECK_THAT(r.output, ContainsSubstring("h(P) = alpha + beta (cells/P)^((d-1)/d), d = 2"));
  CHECK_THAT(r.output, ContainsSubstring("parallel efficiency"));
}

TEST_CASE("estimate refuses bad arguments with exit 2 naming the option", "[cli][estimate]") {
  struct Bad {
    const char* arguments;
    const char* message;
  };
  for (const Bad& bad :
       {Bad{"--price-per-hour -1", "--price-per-hour '-1': must not be negative"},
        Bad{"--steps 0", "--steps '0'"}, Bad{"--steps=0", "--steps '0'"},
        Bad{"--steps x", "--steps 'x'"},
        Bad{"--interruptions-per-hour -0.5", "--interruptions-per-hour"},
        Bad{"--nodes 0", "--nodes '0'"}, Bad{"--bogus", "unknown option '--bogus'"},
        Bad{"--scale-to 0", "--scale-to '0'"},
        Bad{"--scale-to 900", "--scale-to = 900 ranks, more than the grid's 800 cells"},
        Bad{"--steps", "--steps needs a value"},
        Bad{"--nodes 1000 --ranks-per-node 1000", "more than the grid's 800 cells"}}) {
    const CliResult r = run_cloudburst("estimate " + small_weather + " " + bad.arguments);
    INFO(bad.arguments << ":\n" << r.output);
    CHECK(r.code == 2);
    CHECK_THAT(r.output, ContainsSubstring(bad.message));
  }
  CHECK(run_cloudburst("estimate --help").code == 0);
  CHECK(run_cloudburst("estimate").code == 2);
}

TEST_CASE("submit --estimate prints the estimate for the job before its script",
          "[cli][estimate][batch]") {
  const std::string dir = make_temp_dir("cb_submit_estimate_");
  const std::string submit = "submit " + small_weather + " --dry-run --template cpu --nodes=2" +
                             " --ranks-per-node 4 --output-dir " + dir + "/out";
  const CliResult r = run_cloudburst(
      submit + " --estimate --price-per-hour 3 --interruptions-per-hour 0.5" + " --scale-to 16");
  INFO(r.output);
  REQUIRE(r.code == 0);
  const std::size_t report = r.output.find("# cloudburst estimate: weather case");
  const std::size_t script = r.output.find("#SBATCH --nodes=2\n");
  REQUIRE(report != std::string::npos);
  REQUIRE(script != std::string::npos);
  CHECK(report < script);
  // the report of `cloudburst estimate` for the job's 2 nodes x 4 ranks
  CHECK_THAT(r.output, ContainsSubstring("time per step"));
  CHECK_THAT(r.output, ContainsSubstring("predicted for the whole case on 8 rank(s), 2 node(s)"));
  CHECK_THAT(r.output, ContainsSubstring("use:  [checkpoint] every_minutes = "));
  CHECK_THAT(r.output, ContainsSubstring("expected cost"));
  // --scale-to passed through: submit runs on one rank, so only P = 1 is measured
  CHECK_THAT(r.output, ContainsSubstring("scaling to 16 rank(s)"));
  CHECK(r.output.find("scaling to 16 rank(s)") < script);
  CHECK_FALSE(std::filesystem::exists(dir + "/out"));
  // refused before anything runs: prediction options without --estimate, a
  // job that cannot be rendered, the options of `estimate` alone
  const CliResult alone = run_cloudburst(submit + " --price-per-hour 3");
  CHECK(alone.code == 2);
  CHECK_THAT(alone.output, ContainsSubstring("go with --estimate"));
  const CliResult scale_alone = run_cloudburst(submit + " --scale-to 16");
  CHECK(scale_alone.code == 2);
  CHECK_THAT(scale_alone.output, ContainsSubstring("go with --estimate"));
  CHECK(run_cloudburst(submit + " --estimate --scale-to 0").code == 2);
  const CliResult gpu = run_cloudburst(submit + " --estimate --gpus-per-node 2");
  CHECK(gpu.code == 2);
  CHECK_THAT(gpu.output, !ContainsSubstring("time per step"));
  CHECK_THAT(run_cloudburst(submit + " --estimate --steps 5").output,
             ContainsSubstring("unknown option '--steps' (cloudburst submit --help)"));
  std::filesystem::remove_all(dir);
}
