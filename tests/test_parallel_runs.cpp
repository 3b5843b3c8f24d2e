// Whole runs of the `cloudburst` program under mpiexec: the scalar solver gives
// bitwise-identical fields on 1, 2, 3 and 4 ranks; a restarted run (same or
// another rank count) matches an uninterrupted one bit for bit; checkpoints
// survive SIGKILL, and bad ones are refused with exit 2 and left untouched.
#include "cli_runner.hpp"
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

const std::string case_3d =
    "[run]\nsolver = \"scalar\"\ncase = \"sine\"\nend_time = 0.3\n"
    "[grid]\ncells = [13, 10, 9]\n"
    "[time]\ncfl = 0.6\n"
    "[scalar]\nvelocity = [1.0, -0.5, 0.25]\ndiffusivity = 0.002\nlimiter = \"minmod\"\n"
    "[initial]\nwaves = [1, 2, 1]\n";

// Runs `case_text` (plus `args`) on `ranks` ranks into dir/name; returns the result.
CliResult run_case(const std::string& dir, const std::string& name, const std::string& case_text,
                   int ranks, const std::string& args = "") {
  write_text(dir + "/" + name + ".toml", case_text);
  return run_cloudburst_mpi(
      ranks, "run " + dir + "/" + name + ".toml --output-dir " + dir + "/" + name + " " + args);
}

std::vector<std::string> checkpoints_in(const std::string& dir) {
  std::vector<std::string> files;
  for (const auto& e : fs::directory_iterator(dir)) files.push_back(e.path().filename().string());
  std::sort(files.begin(), files.end());
  return files;
}

std::string last_checkpoint(const std::string& out) {
  return out + "/checkpoints/" + checkpoints_in(out + "/checkpoints").back();
}

}  // namespace

TEST_CASE("fields are bitwise identical on 1, 2, 3 and 4 ranks", "[mpi][decomposition]") {
  const std::string dir = make_temp_dir("cb_ranks_");
  for (const auto& [name, text] : {std::pair{"2d", case_2d}, std::pair{"3d", case_3d}}) {
    std::vector<double> reference;
    for (int ranks : {1, 2, 3, 4}) {
      const std::string run = std::string(name) + "_np" + std::to_string(ranks);
      const CliResult r = run_case(dir, run, text, ranks);
      INFO(run << ":\n" << r.output);
      REQUIRE(r.code == 0);
      const auto q = read_field(last_checkpoint(dir + "/" + run), "/fields/q");
      if (ranks == 1) reference = q;
      CHECK(bitwise_equal(q, reference));
    }
  }
  // Forced, uneven rank grids in 3-D.
  const auto reference = read_field(last_checkpoint(dir + "/3d_np1"), "/fields/q");
  for (const char* grid : {"[1,2,2]", "[4,1,1]", "[1,1,3]"}) {
    const int ranks = std::string(grid) == "[1,1,3]" ? 3 : 4;
    const std::string run = std::string("3d_grid") + std::to_string(ranks) + grid[1];
    const CliResult r =
        run_case(dir, run, case_3d, ranks, std::string("--set parallel.ranks=") + grid);
    INFO(grid << ":\n" << r.output);
    REQUIRE(r.code == 0);
    CHECK(bitwise_equal(read_field(last_checkpoint(dir + "/" + run), "/fields/q"), reference));
  }
  fs::remove_all(dir);
}

TEST_CASE("a restarted run matches an uninterrupted one bit for bit", "[mpi][restart]") {
  const std::string dir = make_temp_dir("cb_restart_");
  REQUIRE(run_case(dir, "straight", case_2d, 2).code == 0);
  const auto straight = read_field(dir + "/straight/checkpoints/chk_00000024.h5", "/fields/q");

  for (const auto& [first_ranks, second_ranks] :
       {std::pair{2, 2}, std::pair{1, 3}, std::pair{4, 1}}) {
    const std::string name = "split" + std::to_string(first_ranks) + std::to_string(second_ranks);
    const CliResult half = run_case(dir, name, case_2d, first_ranks, "--set run.steps=12");
    REQUIRE(half.code == 0);
    const CliResult rest = run_case(dir, name, case_2d, second_ranks, "--restart auto");
    INFO(rest.output);
    REQUIRE(rest.code == 0);
    CHECK_THAT(rest.output, ContainsSubstring("resuming from"));
    CHECK(bitwise_equal(read_field(dir + "/" + name + "/checkpoints/chk_00000024.h5", "/fields/q"),
                        straight));
  }
  // With an end time: restart from a mid-run checkpoint of a 2-rank run on 3 ranks.
  REQUIRE(run_case(dir, "t_straight", case_3d, 2,
                   "--set checkpoint.every_steps=3 --set checkpoint.keep=100")
              .code == 0);
  const CliResult rest = run_case(dir, "t_split", case_3d, 3,
                                  "--restart " + dir + "/t_straight/checkpoints/chk_00000003.h5");
  INFO(rest.output);
  REQUIRE(rest.code == 0);
  CHECK(last_checkpoint(dir + "/t_split") != dir + "/t_split/checkpoints/chk_00000003.h5");
  CHECK(bitwise_equal(read_field(last_checkpoint(dir + "/t_split"), "/fields/q"),
                      read_field(last_checkpoint(dir + "/t_straight"), "/fields/q")));
  fs::remove_all(dir);
}

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
