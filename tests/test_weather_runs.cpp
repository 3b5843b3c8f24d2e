// Whole runs of the weather solver through the `cloudburst` program under
// mpiexec (issue 4, DESIGN.md §4 and §6): checkpoint fields bitwise identical
// on 1, 2 and 4 ranks split in x, in z, in both (2-D) and in x and y (3-D),
// with the injection inflow and lateral walls included; and restarts (same or
// another rank count, an odd number of steps before the restart, an end time
// that shortens the last step, the forced gravity_waves case) that match an
// uninterrupted run bit for bit.
// Known outside cause of intermittent failures here: Open MPI before 4.1.7
// (Debian 12 ships 4.1.4) can lose part of a collective HDF5 write through
// OMPIO's unlocked data sieving on local file systems (open-mpi/ompi#12718,
// fixed upstream by range locking: fs_ufs_lock_algorithm = 3).
#include "cli_runner.hpp"
#include "h5_read.hpp"

#include <hdf5.h>

#include <catch2/catch_test_macros.hpp>
#include <catch2/matchers/catch_matchers_string.hpp>

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <string>
#include <vector>

using namespace cb::test;
using Catch::Matchers::ContainsSubstring;
namespace fs = std::filesystem;

namespace {

const std::vector<std::string> fields_2d = {"rho_pert", "rho_u", "rho_w", "rho_theta_pert"};
const std::vector<std::string> fields_3d = {"rho_pert", "rho_u", "rho_w", "rho_theta_pert",
                                            "rho_v"};

// A weather case file: `stop` is "steps = N" or "end_time = T".
std::string weather_case(const std::string& name, const std::string& cells, const std::string& stop,
                         const std::string& extra = "") {
  return "[run]\nsolver = \"weather\"\ncase = \"" + name + "\"\n" + stop +
         "\n[grid]\ncells = " + cells + "\n[diagnostics]\nevery_steps = 10\n" + extra;
}

// A scalar double attribute of `object` ("/" or "/solver_state").
double read_attribute(const std::string& file, const std::string& object, const std::string& name) {
  const hid_t f = H5Fopen(file.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
  REQUIRE(f >= 0);
  const hid_t a = H5Aopen_by_name(f, object.c_str(), name.c_str(), H5P_DEFAULT, H5P_DEFAULT);
  REQUIRE(a >= 0);
  double value = 0;
  REQUIRE(H5Aread(a, H5T_NATIVE_DOUBLE, &value) >= 0);
  H5Aclose(a);
  H5Fclose(f);
  return value;
}

// Every checkpoint field of `file` bitwise equal to that of `reference`;
// returns the names that differ.
std::string differing_fields(const std::string& file, const std::string& reference,
                             const std::vector<std::string>& names) {
  std::string differ;
  for (const auto& name : names) {
    if (!bitwise_equal(read_field(file, "/fields/" + name),
                       read_field(reference, "/fields/" + name))) {
      differ += name + " ";
    }
  }
  return differ;
}

// Runs `case_text` (plus `args`) on `ranks` ranks into dir/name.
CliResult run_case(const std::string& dir, const std::string& name, const std::string& case_text,
                   int ranks, const std::string& args = "") {
  write_text(dir + "/" + name + ".toml", case_text);
  return run_cloudburst_mpi(
      ranks, "run " + dir + "/" + name + ".toml --output-dir " + dir + "/" + name + " " + args);
}

std::string last_checkpoint(const std::string& out) {
  std::vector<std::string> files;
  for (const auto& e : fs::directory_iterator(out + "/checkpoints")) {
    if (e.path().extension() == ".h5") files.push_back(e.path().string());
  }
  REQUIRE_FALSE(files.empty());
  std::sort(files.begin(), files.end());
  return files.back();
}

int product(const std::string& grid) {  // "[a,b,c]" -> a * b * c
  int p = 1;
  for (char c : grid) {
    if (c >= '1' && c <= '9') p *= c - '0';
  }
  return p;
}

// Runs `case_text` on one rank, then on each rank grid of `grids`; every
// checkpoint field must be bitwise identical to the 1-rank run.
void check_decomposition_invariance(const std::string& dir, const std::string& label,
                                    const std::string& case_text,
                                    const std::vector<std::string>& names,
                                    const std::vector<std::string>& grids) {
  const CliResult serial = run_case(dir, label + "_serial", case_text, 1);
  INFO(label << " on 1 rank:\n" << serial.output);
  REQUIRE(serial.code == 0);
  const std::string reference = last_checkpoint(dir + "/" + label + "_serial");
  for (const std::string& grid : grids) {
    std::string run = label + "_" + grid;
    run.erase(std::remove_if(run.begin(), run.end(), [](char c) { return c == '[' || c == ']'; }),
              run.end());
    std::replace(run.begin(), run.end(), ',', 'x');
    const CliResult r =
        run_case(dir, run, case_text, product(grid), "--set parallel.ranks=" + grid);
    INFO(label << " on ranks " << grid << ":\n" << r.output);
    REQUIRE(r.code == 0);
    const std::string file = last_checkpoint(dir + "/" + run);
    CHECK(fs::path(file).filename() == fs::path(reference).filename());
    CHECK(differing_fields(file, reference, names) == "");
  }
}

}  // namespace

TEST_CASE("weather fields are bitwise identical on 1, 2, 3 and 4 ranks", "[weather][mpi]") {
  // DESIGN.md §4 and issue 4, "Decomposition invariance": split in x, in z and
  // in both (2-D), in x, y and z (3-D); the periodic x boundary, the walls at
  // the bottom and top and the halo corners all cross rank boundaries.
  const std::string dir = make_temp_dir("cb_weather_ranks_");
  check_decomposition_invariance(
      dir, "thermal2d", weather_case("thermal", "[64, 1, 32]", "steps = 30"), fields_2d,
      {"[2,1,1]", "[1,1,2]", "[2,1,2]", "[4,1,1]", "[1,1,4]", "[3,1,1]"});
  check_decomposition_invariance(dir, "thermal3d",
                                 weather_case("thermal", "[16, 16, 12]", "steps = 12"), fields_3d,
                                 {"[2,2,1]", "[2,1,1]", "[1,2,1]", "[1,1,2]"});
  fs::remove_all(dir);
}

TEST_CASE("inflow and lateral walls are decomposition invariant", "[weather][mpi]") {
  // injection feeds its jet only on the rank at x = 0; straka has walls at
  // x = -25.6 and 25.6 km that only the outer ranks see; both split in x.
  const std::string dir = make_temp_dir("cb_weather_bc_ranks_");
  check_decomposition_invariance(dir, "injection",
                                 weather_case("injection", "[64, 1, 32]", "steps = 30"), fields_2d,
                                 {"[2,1,1]"});
  check_decomposition_invariance(dir, "straka", weather_case("straka", "[64, 1, 16]", "steps = 30"),
                                 fields_2d, {"[2,1,1]"});
  fs::remove_all(dir);
}

TEST_CASE("a restarted weather run matches an uninterrupted one bit for bit",
          "[weather][mpi][restart]") {
  // DESIGN.md §6 and issue 4, "Restart equivalence": 14 steps straight against
  // 7 + restart + 7. Seven is odd, so the second half starts with the z-first
  // sweep order: the alternating direction flag must come back from the
  // checkpoint (and so must dt, mass0 and te0).
  const std::string dir = make_temp_dir("cb_weather_restart_");
  const std::string thermal = weather_case("thermal", "[48, 1, 24]", "steps = 14");
  REQUIRE(run_case(dir, "straight", thermal, 2).code == 0);
  const std::string straight = dir + "/straight/checkpoints/chk_00000014.h5";
  for (const auto& [first_ranks, second_ranks] :
       {std::pair{2, 2}, std::pair{1, 4}, std::pair{4, 1}}) {
    const std::string name = "split" + std::to_string(first_ranks) + std::to_string(second_ranks);
    const CliResult half = run_case(dir, name, thermal, first_ranks, "--set run.steps=7");
    INFO(half.output);
    REQUIRE(half.code == 0);
    const std::string half_file = dir + "/" + name + "/checkpoints/chk_00000007.h5";
    CHECK(read_attribute(half_file, "/solver_state", "direction_switch") == 0.0);
    const CliResult rest = run_case(dir, name, thermal, second_ranks, "--restart auto");
    INFO(rest.output);
    REQUIRE(rest.code == 0);
    CHECK_THAT(rest.output, ContainsSubstring("resuming from"));
    const std::string file = dir + "/" + name + "/checkpoints/chk_00000014.h5";
    CHECK(differing_fields(file, straight, fields_2d) == "");
    CHECK(read_attribute(file, "/", "time") == read_attribute(straight, "/", "time"));
    CHECK(read_attribute(file, "/solver_state", "direction_switch") ==
          read_attribute(straight, "/solver_state", "direction_switch"));
  }

  // An end time that is no multiple of dt (dt = 1.5 * 416.67 m / 450 m/s =
  // 1.389 s; the 8th step is shortened to land on 10 s): restart a 2-rank run
  // from its step-3 checkpoint on 4 ranks split in x and z.
  const std::string timed = weather_case("thermal", "[48, 1, 24]", "end_time = 10.0",
                                         "[checkpoint]\nevery_steps = 3\nkeep = 10\n");
  REQUIRE(run_case(dir, "t_straight", timed, 2).code == 0);
  const CliResult resumed = run_case(
      dir, "t_split", timed, 4,
      "--set parallel.ranks=[2,1,2] --restart " + dir + "/t_straight/checkpoints/chk_00000003.h5");
  INFO(resumed.output);
  REQUIRE(resumed.code == 0);
  const std::string t_straight = last_checkpoint(dir + "/t_straight");
  const std::string t_split = last_checkpoint(dir + "/t_split");
  CHECK(fs::path(t_split).filename() == "chk_00000008.h5");
  CHECK(fs::path(t_straight).filename() == "chk_00000008.h5");
  CHECK(read_attribute(t_split, "/", "time") == 10.0);
  CHECK(differing_fields(t_split, t_straight, fields_2d) == "");

  // The forced case (gravity_waves adds a w forcing in every sweep).
  const std::string waves = weather_case("gravity_waves", "[48, 1, 24]", "steps = 14");
  REQUIRE(run_case(dir, "w_straight", waves, 2).code == 0);
  REQUIRE(run_case(dir, "w_split", waves, 2, "--set run.steps=7").code == 0);
  const CliResult rest = run_case(dir, "w_split", waves, 2, "--restart auto");
  INFO(rest.output);
  REQUIRE(rest.code == 0);
  CHECK(differing_fields(dir + "/w_split/checkpoints/chk_00000014.h5",
                         dir + "/w_straight/checkpoints/chk_00000014.h5", fields_2d) == "");
  fs::remove_all(dir);
}
