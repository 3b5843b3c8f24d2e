// Checkpoint handling through whole runs of the `cloudburst` program (the
// scalar solver): keep K, no clobbering, checkpoints survive SIGKILL, and bad
// ones are refused with exit 2 and left untouched. Decomposition invariance
// and exact restart of every grid solver: tests/test_grid_solvers.cpp.
#include "cli_runner.hpp"
#include "grid_runs.hpp"
#include "h5_read.hpp"

#include <hdf5.h>

#include <catch2/catch_test_macros.hpp>
#include <catch2/matchers/catch_matchers_string.hpp>

#include <algorithm>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

using namespace cb::test;
using Catch::Matchers::ContainsSubstring;
namespace fs = std::filesystem;

namespace {

const std::string case_2d =
    "[run]\nsolver = \"scalar\"\ncase = \"gaussian\"\nsteps = 24\n"
    "[grid]\ncells = [30, 22, 1]\n"
    "[time]\ncfl = 0.7\n"
    "[scalar]\nvelocity = [1.0, 0.6, 0.0]\ndiffusivity = 0.001\nlimiter = \"van_leer\"\n"
    "[initial]\nwidth = 0.1\n"
    "[diagnostics]\nevery_steps = 6\n";

std::vector<std::string> checkpoints_in(const std::string& dir) {
  std::vector<std::string> files;
  for (const auto& e : fs::directory_iterator(dir)) files.push_back(e.path().filename().string());
  std::sort(files.begin(), files.end());
  return files;
}

}  // namespace

TEST_CASE("keep retains exactly K checkpoints; a fresh run will not clobber them", "[restart]") {
  const std::string dir = make_temp_dir("cb_keep_");
  const CliResult r =
      run_case(dir, "keep", case_2d, 1, "--set checkpoint.every_steps=5 --set checkpoint.keep=3");
  INFO(r.output);
  REQUIRE(r.code == 0);
  CHECK(checkpoints_in(dir + "/keep/checkpoints") ==
        std::vector<std::string>{"chk_00000015.h5", "chk_00000020.h5", "chk_00000024.h5"});
  const CliResult again = run_case(dir, "keep", case_2d, 1);
  CHECK(again.code == 2);
  CHECK_THAT(again.output, ContainsSubstring("--restart auto"));
  CHECK(checkpoints_in(dir + "/keep/checkpoints").size() == 3);
  fs::remove_all(dir);
}

TEST_CASE("broken, foreign and mismatched checkpoints are refused and left intact",
          "[restart][input]") {
  const std::string dir = make_temp_dir("cb_refuse_");
  REQUIRE(run_case(dir, "good", case_2d, 1, "--set checkpoint.every_steps=12").code == 0);
  const std::string good = dir + "/good/checkpoints/chk_00000024.h5";
  const std::string older = dir + "/good/checkpoints/chk_00000012.h5";
  const std::string before = read_text(good);

  write_text(dir + "/garbage.h5", "this is not an HDF5 file");
  fs::copy_file(good, dir + "/truncated.h5");
  fs::resize_file(dir + "/truncated.h5", fs::file_size(good) / 2);
  for (const auto& [file, message] : {std::pair{dir + "/garbage.h5", "not a readable HDF5 file"},
                                      std::pair{dir + "/truncated.h5", "not a readable HDF5 file"},
                                      std::pair{dir + "/missing.h5", "no such checkpoint"}}) {
    const CliResult r = run_case(dir, "good", case_2d, 1, "--restart " + file);
    INFO(file << ":\n" << r.output);
    CHECK(r.code == 2);
    CHECK_THAT(r.output, ContainsSubstring(file) && ContainsSubstring(message));
  }
  const CliResult grid =
      run_case(dir, "good", case_2d, 2, "--restart auto --set grid.cells=[30,20,1]");
  CHECK(grid.code == 2);
  CHECK_THAT(grid.output, ContainsSubstring("grid"));

  // A checkpoint of another solver: rewrite the solver attribute.
  fs::copy_file(good, dir + "/foreign.h5");
  const hid_t f = H5Fopen((dir + "/foreign.h5").c_str(), H5F_ACC_RDWR, H5P_DEFAULT);
  REQUIRE(f >= 0);
  H5Adelete(f, "solver");
  const hid_t type = H5Tcopy(H5T_C_S1);
  H5Tset_size(type, 3);
  const hid_t space = H5Screate(H5S_SCALAR);
  const hid_t a = H5Acreate2(f, "solver", type, space, H5P_DEFAULT, H5P_DEFAULT);
  H5Awrite(a, type, "cfd");
  H5Aclose(a);
  H5Sclose(space);
  H5Tclose(type);
  H5Fclose(f);
  const CliResult foreign = run_case(dir, "good", case_2d, 1, "--restart " + dir + "/foreign.h5");
  INFO(foreign.output);
  CHECK(foreign.code == 2);
  CHECK_THAT(foreign.output, ContainsSubstring("cfd"));

  CHECK(read_text(good) == before);
  CHECK(fs::exists(older));

  // The newest checkpoint truncated (a crash mid-copy): auto takes the older one.
  fs::resize_file(good, fs::file_size(good) / 3);
  const CliResult resumed = run_case(dir, "good", case_2d, 1, "--restart auto");
  INFO(resumed.output);
  CHECK(resumed.code == 0);
  CHECK_THAT(resumed.output, ContainsSubstring("chk_00000012.h5"));
  fs::remove_all(dir);
}

TEST_CASE("SIGKILL during a run leaves a checkpoint that auto resumes from", "[restart]") {
  const std::string dir = make_temp_dir("cb_kill_");
  const std::string text =
      "[run]\nsolver = \"scalar\"\ncase = \"gaussian\"\nsteps = 100000\n"
      "[grid]\ncells = [64, 64, 64]\n[time]\ncfl = 0.8\n"
      "[scalar]\nvelocity = [1.0, 1.0, 1.0]\n[diagnostics]\nevery_steps = 0\n"
      "[checkpoint]\nevery_steps = 1\nkeep = 2\n";
  write_text(dir + "/kill.toml", text);
  const std::string out = dir + "/kill";
  // Kill at several moments after the first checkpoint exists: with a 2 MB
  // checkpoint every step, about half of each step is spent writing one.
  for (const char* delay : {"0.05", "0.33", "0.71"}) {
    const std::string command = std::string("'") + CLOUDBURST_EXE + "' run " + dir +
                                "/kill.toml --output-dir " + out +
                                " --restart auto > /dev/null 2>&1 & pid=$!; n=0; "
                                "while [ $n -lt 600 ] && ! ls " +
                                out +
                                "/checkpoints/*.h5 > /dev/null 2>&1; do "
                                "sleep 0.05; n=$((n+1)); done; sleep " +
                                delay + "; kill -9 $pid; wait $pid";
    (void)std::system(command.c_str());
    const auto files = checkpoints_in(out + "/checkpoints");
    INFO("after kill " << delay << " s after the first checkpoint: " << files.size() << " files");
    REQUIRE_FALSE(files.empty());
  }
  const CliResult resumed =
      run_cloudburst("run " + dir + "/kill.toml --output-dir " + out +
                     " --restart auto --set run.steps=1 --set checkpoint.every_steps=0");
  INFO(resumed.output);
  CHECK_THAT(resumed.output, ContainsSubstring("resuming from"));
  CHECK(resumed.code == 0);
  fs::remove_all(dir);
}
