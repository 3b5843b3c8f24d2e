// The same bits on every thread count: each solver's final checkpoint (and
// MD's thermo rows) from 1 thread and from 3 threads per rank are identical.
// On the OpenMP leg of scripts/test the two runs split the loops differently
// (3 threads do not divide the blocks the way 1 does); on a Serial build both
// run on one thread and the test holds trivially.
#include "cli_runner.hpp"

#include <catch2/catch_test_macros.hpp>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <sstream>
#include <string>

using namespace cb::test;
namespace fs = std::filesystem;

namespace {

const std::string cases = std::string(CLOUDBURST_SOURCE_DIR) + "/cases/";

CliResult run_with_threads(int threads, const std::string& arguments) {
  return run_shell("OMP_NUM_THREADS=" + std::to_string(threads) + " '" + CLOUDBURST_EXE + "' " +
                   arguments + " 2>&1");
}

// The lines of `output` that start with a step number: MD's thermo rows.
std::string thermo_rows(const std::string& output) {
  std::istringstream in(output);
  std::string rows;
  for (std::string line; std::getline(in, line);) {
    const auto first = line.find_first_not_of(' ');
    if (first != std::string::npos && std::isdigit(static_cast<unsigned char>(line[first])) &&
        line.size() > 40) {
      rows += line + "\n";
    }
  }
  return rows;
}

}  // namespace

TEST_CASE("every solver gives the same bits on 1 and 3 threads", "[threads][cli][restart]") {
  const std::string dir = make_temp_dir("cb_threads_");
  struct Run {
    std::string name, file, options;
  };
  // Small grids and few steps: the loops still cover many thread blocks.
  const std::string md_nvt =
      " --set md.lattice_cells=[6,6,6] --set thermostat.style=nose_hoover"
      " --set thermostat.temperature=2.0 --set thermostat.damp=0.5 --set thermo.every_steps=10"
      " --set neighbor.every=1 --set neighbor.check=true";
  for (const Run& r :
       {Run{"weather", "weather/thermal_2d.toml", " --set grid.cells=[60,1,30] --set run.steps=20"},
        Run{"cfd", "cfd/isentropic_vortex.toml", " --set grid.cells=[24,24,1] --set run.steps=20"},
        Run{"md", "md/lj_melt.toml", md_nvt + " --set run.steps=60"},
        // PPPM: the charge assignment gathers in a fixed order (no atomics).
        Run{"md_pppm", "md/salt_pppm.toml", " --set run.steps=20 --set thermo.every_steps=10"}}) {
    std::string output[2], checkpoint[2];
    const int threads[2] = {1, 3};
    for (int k = 0; k < 2; ++k) {
      const std::string out = dir + "/" + r.name + "_" + std::to_string(threads[k]);
      const CliResult run =
          run_with_threads(threads[k], "run " + cases + r.file + r.options +
                                           " --set checkpoint.at_end=true --output-dir " + out);
      INFO(r.name << " on " << threads[k] << " threads:\n" << run.output);
      REQUIRE(run.code == 0);
      output[k] = run.output;
      for (const auto& entry : fs::directory_iterator(out + "/checkpoints")) {
        if (entry.path().extension() == ".h5")
          checkpoint[k] = std::max(checkpoint[k], entry.path().string());
      }
    }
    const CliResult diff =
        run_shell("h5diff -d 0 " + checkpoint[0] + " " + checkpoint[1] + " 2>&1");
    INFO(r.name << ": h5diff " << checkpoint[0] << " " << checkpoint[1] << "\n" << diff.output);
    CHECK(diff.code == 0);
    CHECK(thermo_rows(output[0]) == thermo_rows(output[1]));
  }
  fs::remove_all(dir);
}
