// What a weather restart must carry beyond its fields: after an odd number of
// steps the next step starts with the z-first sweep order, so the alternating
// direction flag (and mass0, te0) come from the checkpoint's solver state.
// Decomposition invariance and bitwise restarts of the weather cases are in
// the table of tests/test_grid_solvers.cpp.
#include "grid_runs.hpp"

#include <hdf5.h>

#include <catch2/catch_test_macros.hpp>

#include <filesystem>
#include <string>

using namespace cb::test;

namespace {

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

}  // namespace

TEST_CASE("a weather checkpoint carries the sweep order and the reference integrals",
          "[weather][restart]") {
  const std::string dir = make_temp_dir("cb_weather_state_");
  const std::string thermal =
      "[run]\nsolver = \"weather\"\ncase = \"thermal\"\nsteps = 14\n[grid]\ncells = [48, 1, 24]\n";
  REQUIRE(run_case(dir, "straight", thermal, 1).code == 0);
  const CliResult half = run_case(dir, "split", thermal, 1, "--set run.steps=7");
  INFO(half.output);
  REQUIRE(half.code == 0);
  const std::string half_file = dir + "/split/checkpoints/chk_00000007.h5";
  CHECK(read_attribute(half_file, "/solver_state", "direction_switch") == 0.0);
  REQUIRE(run_case(dir, "split", thermal, 1, "--restart auto").code == 0);
  const std::string straight = dir + "/straight/checkpoints/chk_00000014.h5";
  const std::string resumed = dir + "/split/checkpoints/chk_00000014.h5";
  for (const char* name : {"direction_switch", "mass0", "te0"})
    CHECK(read_attribute(resumed, "/solver_state", name) ==
          read_attribute(straight, "/solver_state", name));
  CHECK(read_attribute(resumed, "/", "time") == read_attribute(straight, "/", "time"));
  std::filesystem::remove_all(dir);
}
