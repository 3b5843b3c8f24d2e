// The particle output of whole MD runs through the `cloudburst` program
// (docs/checkpoint-format.md): LAMMPS dumps, XDMF particle output and the final data file of a
// 2-rank run, a particle checkpoint restarted on another rank count, and bad
// output input refused before anything is written.
#include "cli_runner.hpp"
#include "h5_read.hpp"
#include "io/lammps_data.hpp"

#include <hdf5.h>

#include <catch2/catch_test_macros.hpp>
#include <catch2/matchers/catch_matchers_string.hpp>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <numeric>
#include <sstream>
#include <string>
#include <vector>

using namespace cb::test;
using Catch::Matchers::ContainsSubstring;
namespace fs = std::filesystem;

namespace {

// 864 atoms (6^3 fcc cells) of the lj_melt liquid; thick enough for 4 ranks.
std::string small_melt(long steps, const std::string& extra) {
  return "[run]\nsolver = \"md\"\ncase = \"lattice\"\nsteps = " + std::to_string(steps) +
         "\n[time]\ndt = 0.005\n[md]\nlattice = \"fcc\"\ndensity = 0.8442\n"
         "lattice_cells = [6, 6, 6]\ntemperature = 3.0\nseed = 87287\n"
         "[pair]\ncutoff = 2.5\n[neighbor]\nskin = 0.3\nevery = 5\ncheck = false\n"
         "[diagnostics]\nevery_steps = 10\n" +
         extra;
}

CliResult run_case(int ranks, const std::string& dir, const std::string& text,
                   const std::string& out, const std::string& extra = "") {
  const std::string path = dir + "/case.toml";
  write_text(path, text);
  const std::string args = "run " + path + " --output-dir " + out + " " + extra;
  return ranks == 1 ? run_cloudburst(args) : run_cloudburst_mpi(ranks, args);
}

std::vector<std::string> lines_of(const std::string& path) {
  std::istringstream in(read_text(path));
  std::vector<std::string> lines;
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

// The last value of column `name` in diagnostics.csv.
double last_value(const std::string& csv, const std::string& name) {
  const std::vector<std::string> lines = lines_of(csv);
  std::vector<std::string> header, row;
  std::stringstream h(lines.front()), r(lines.back());
  for (std::string cell; std::getline(h, cell, ',');) header.push_back(cell);
  for (std::string cell; std::getline(r, cell, ',');) row.push_back(cell);
  const auto at = std::find(header.begin(), header.end(), name) - header.begin();
  REQUIRE(std::size_t(at) < row.size());
  return std::stod(row[at]);
}

}  // namespace

TEST_CASE("an MD run writes LAMMPS dumps, XDMF particles and a data file", "[particles][cli]") {
  const std::string dir = make_temp_dir("cb_particle_runs_");
  const std::string out = dir + "/out";
  const CliResult run = run_case(2, dir,
                                 small_melt(20,
                                            "[dump]\nevery_steps = 10\n[output]\nevery_steps = 20\n"
                                            "fields = [\"vx\", \"vy\", \"vz\", \"pe\"]\n"
                                            "write_data = true\n"),
                                 out);
  INFO(run.output);
  REQUIRE(run.code == 0);
  CHECK_THAT(run.output, ContainsSubstring("864 atoms in the box"));
  for (const char* step : {"00000000", "00000010", "00000020"}) {
    const std::vector<std::string> dump =
        lines_of(out + "/dumps/dump_" + std::string(step) + ".lammpstrj");
    REQUIRE(dump.size() == 9 + 864);
    CHECK(dump[0] == "ITEM: TIMESTEP");
    CHECK(dump[3] == "864");
    CHECK(dump[4] == "ITEM: BOX BOUNDS pp pp pp");
    CHECK(dump[8] == "ITEM: ATOMS id type x y z vx vy vz pe");
    for (int a = 0; a < 864; ++a) CHECK(std::stol(dump[9 + a]) == a + 1);  // sorted by id
  }
  CHECK_FALSE(fs::exists(out + "/dumps/dump_00000005.lammpstrj"));
  const std::string xmf = read_text(out + "/particles.xmf");
  CHECK_THAT(xmf, ContainsSubstring("Name=\"step_0\""));
  CHECK_THAT(xmf, ContainsSubstring("Name=\"step_20\""));
  CHECK(xmf.find("Name=\"step_10\"") == std::string::npos);
  CHECK_THAT(xmf, ContainsSubstring("particles/particles_00000020.h5:/pe"));
  CHECK(read_field(out + "/particles/particles_00000020.h5", "/x").size() == 3 * 864);

  // The data file holds the final state bit for bit (the end checkpoint's arrays by id).
  const cb::io::LammpsData data = cb::io::read_lammps_data(out + "/final.data");
  const std::string checkpoint = out + "/checkpoints/chk_00000020.h5";
  CHECK(data.atoms.size() == 864);
  CHECK(data.title.find("timestep = 20") != std::string::npos);
  CHECK(bitwise_equal(data.atoms.x, by_id(checkpoint, "x")));
  CHECK(bitwise_equal(data.atoms.v, by_id(checkpoint, "v")));
  fs::remove_all(dir);
}

TEST_CASE("an MD checkpoint restarts on another rank count", "[particles][cli][restart]") {
  const std::string dir = make_temp_dir("cb_particle_runs_");
  const std::string text = small_melt(20, "[checkpoint]\nevery_steps = 10\n");
  const CliResult straight = run_case(2, dir, text, dir + "/straight");
  REQUIRE(straight.code == 0);
  for (int ranks : {1, 4}) {
    const std::string out = dir + "/resumed_" + std::to_string(ranks);
    const CliResult resumed = run_case(
        ranks, dir, text, out, "--restart " + dir + "/straight/checkpoints/chk_00000010.h5");
    INFO(resumed.output);
    REQUIRE(resumed.code == 0);
    CHECK_THAT(resumed.output, ContainsSubstring("at step 10"));
    // Other summation orders: equal to round-off after 10 more steps.
    for (const char* name : {"tot_eng", "press", "temp"}) {
      const double a = last_value(dir + "/straight/diagnostics.csv", name);
      const double b = last_value(out + "/diagnostics.csv", name);
      CHECK(std::abs(a - b) <= 1e-10 * std::abs(a));
    }
  }
  fs::remove_all(dir);
}

TEST_CASE("bad particle output input is refused before anything is written", "[particles][cli]") {
  const std::string dir = make_temp_dir("cb_particle_runs_");
  const CliResult misspelt =
      run_case(1, dir, small_melt(10, "[output]\nfields = [\"vq\"]\n"), dir + "/a");
  CHECK(misspelt.code == 2);
  CHECK_THAT(misspelt.output, ContainsSubstring("'vq' is not a field of this solver"));
  CHECK_THAT(misspelt.output, ContainsSubstring("did you mean"));
  CHECK_FALSE(fs::exists(dir + "/a"));

  const CliResult negative =
      run_case(1, dir, small_melt(10, "[dump]\nevery_steps = -1\n"), dir + "/b");
  CHECK(negative.code == 2);
  CHECK_THAT(negative.output, ContainsSubstring("every_steps"));

  write_text(dir + "/weather.toml",
             "[run]\nsolver = \"weather\"\ncase = \"thermal\"\nsteps = 1\n[grid]\n"
             "cells = [20, 1, 10]\n[dump]\nevery_steps = 1\n");
  const CliResult grid = run_cloudburst("check " + dir + "/weather.toml");
  CHECK(grid.code == 2);
  CHECK_THAT(grid.output, ContainsSubstring("dump"));

  // A checkpoint of another box and atom count is named and refused.
  REQUIRE(run_case(1, dir, small_melt(5, ""), dir + "/c").code == 0);
  std::string other = small_melt(10, "");
  other.replace(other.find("[6, 6, 6]"), 9, "[7, 6, 6]");
  const CliResult mismatch =
      run_case(1, dir, other, dir + "/d", "--restart " + dir + "/c/checkpoints/chk_00000005.h5");
  CHECK(mismatch.code == 2);
  CHECK_THAT(mismatch.output, ContainsSubstring("checkpoint holds 864 atoms"));
  fs::remove_all(dir);
}

TEST_CASE("particle checkpoints with impossible atoms are refused, nothing written",
          "[particles][cli][restart][input]") {
  const std::string dir = make_temp_dir("cb_bad_atoms_");
  const std::string text = small_melt(10, "");
  REQUIRE(run_case(1, dir, text, dir + "/good").code == 0);
  const std::string good = dir + "/good/checkpoints/chk_00000010.h5";
  const double first_id = read_field(good, "/particles/id")[0];
  struct Bad {
    std::string name, dataset;
    std::size_t index;
    double value;
    std::string message;
  };
  const Bad bad[] = {
      {"nan_x", "/particles/x", 4, std::nan(""), "/particles/x: atom id"},
      {"inf_v", "/particles/v", 7, INFINITY, "non-finite velocity"},
      {"far_away", "/particles/x", 3, -1e6, "more than a box length outside"},
      {"zero_id", "/particles/id", 5, 0.0, "/particles/id: atom id 0"},
      {"duplicate_id", "/particles/id", 9, first_id, "is held by two atoms"},
  };
  for (const Bad& b : bad) {
    const std::string file = dir + "/" + b.name + ".h5";
    fs::copy_file(good, file);
    overwrite_value(file, b.dataset, b.index, b.value);
    for (int ranks : {1, 2}) {
      const std::string out = dir + "/" + b.name + std::to_string(ranks);
      const CliResult r = run_case(ranks, dir, text, out, "--restart " + file);
      INFO(b.name << " on " << ranks << " rank(s):\n" << r.output);
      CHECK(r.code == 2);
      CHECK_THAT(r.output, ContainsSubstring(file) && ContainsSubstring(b.message));
      CHECK_FALSE(fs::exists(out));
    }
  }
  fs::remove_all(dir);
}
