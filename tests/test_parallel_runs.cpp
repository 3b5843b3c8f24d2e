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
#include <cmath>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <string>
#include <thread>
#include <tuple>
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

TEST_CASE("a restart drops rows of diagnostics.csv that are not the run's own",
          "[restart][input]") {
  const std::string dir = make_temp_dir("cb_csv_");
  REQUIRE(run_case(dir, "run", case_2d, 1, "--set run.steps=12").code == 0);
  const std::string csv = dir + "/run/diagnostics.csv";
  write_text(csv, read_text(csv) + "garbage,row\n\x01\x02 binary\n-5,1,1\n");
  const CliResult resumed = run_case(dir, "run", case_2d, 1, "--restart auto");
  INFO(resumed.output);
  REQUIRE(resumed.code == 0);
  const std::string rows = read_text(csv);
  CHECK_THAT(rows, !ContainsSubstring("garbage") && !ContainsSubstring("binary") &&
                       !ContainsSubstring("\n-5,"));
  CHECK_THAT(rows, ContainsSubstring("\n12,") && ContainsSubstring("\n24,"));
  fs::remove_all(dir);
}

namespace {

// Overwrites the numeric root attribute `name` of `file` (HDF5 converts the value).
void set_attribute(const std::string& file, const char* name, double value) {
  const hid_t f = H5Fopen(file.c_str(), H5F_ACC_RDWR, H5P_DEFAULT);
  REQUIRE(f >= 0);
  const hid_t a = H5Aopen(f, name, H5P_DEFAULT);
  REQUIRE(a >= 0);
  const long whole = static_cast<long>(value);
  const hid_t type = H5Aget_type(a);
  const bool integral = H5Tget_class(type) == H5T_INTEGER;
  H5Tclose(type);
  REQUIRE(H5Awrite(a, integral ? H5T_NATIVE_LONG : H5T_NATIVE_DOUBLE,
                   integral ? static_cast<const void*>(&whole) : &value) >= 0);
  H5Aclose(a);
  H5Fclose(f);
}

// Puts a NaN into the middle of the dataset /fields/q of `file`.
void plant_nan(const std::string& file) {
  overwrite_value(file, "/fields/q", read_field(file, "/fields/q").size() / 2, std::nan(""));
}

}  // namespace

TEST_CASE("a checkpoint whose state no run can be in is refused, and nothing is written",
          "[restart][input]") {
  const std::string dir = make_temp_dir("cb_bad_state_");
  REQUIRE(run_case(dir, "good", case_2d, 1).code == 0);
  const std::string good = dir + "/good/checkpoints/chk_00000024.h5";
  struct Bad {
    std::string name, message;
    std::function<void(const std::string&)> spoil;
  };
  const Bad bad[] = {
      {"nan_field", "impossible state: q at cell", plant_nan},
      {"nan_time", "'time' is not a finite time",
       [](const std::string& f) { set_attribute(f, "time", std::nan("")); }},
      {"negative_time", "'time' is not a finite time",
       [](const std::string& f) { set_attribute(f, "time", -1.0); }},
      {"negative_step", "'step' is negative",
       [](const std::string& f) { set_attribute(f, "step", -3.0); }},
  };
  for (const Bad& b : bad) {
    const std::string file = dir + "/" + b.name + ".h5";
    fs::copy_file(good, file);
    b.spoil(file);
    const std::string before = read_text(file);
    for (int ranks : {1, 2}) {
      const std::string out = dir + "/" + b.name + "_out" + std::to_string(ranks);
      const CliResult r = run_cloudburst_mpi(
          ranks, "run " + dir + "/good.toml --restart " + file + " --output-dir " + out);
      INFO(b.name << " on " << ranks << " rank(s):\n" << r.output);
      CHECK(r.code == 2);
      CHECK_THAT(r.output, ContainsSubstring(file) && ContainsSubstring(b.message));
      CHECK_FALSE(fs::exists(out));
    }
    CHECK(read_text(file) == before);
  }
  fs::remove_all(dir);
}

TEST_CASE("a second run into a busy output directory is refused; a killed holder frees it",
          "[restart][input]") {
  const std::string dir = make_temp_dir("cb_lock_");
  const std::string text =
      "[run]\nsolver = \"scalar\"\ncase = \"gaussian\"\nsteps = 1000000\n"
      "[grid]\ncells = [32, 32, 32]\n[diagnostics]\nevery_steps = 0\n"
      "[checkpoint]\nevery_steps = 5\nkeep = 1\n";
  write_text(dir + "/long.toml", text);
  const std::string out = dir + "/out";
  const std::string run_long = std::string("'") + CLOUDBURST_EXE + "' run " + dir +
                               "/long.toml --output-dir " + out + " --restart auto";
  // The holder runs until killed; the second run is tried once it is under way.
  const CliResult second = run_shell(
      run_long + " > " + dir + "/holder.log 2>&1 & pid=$!; n=0; while [ $n -lt 600 ] && ! ls " +
      out +
      "/checkpoints/*.h5 > /dev/null 2>&1; do sleep 0.05; n=$((n+1)); done; echo holder $pid; " +
      run_long + "; echo exit $?; kill -9 $pid; wait $pid 2>/dev/null");
  INFO(second.output);
  const auto holder = second.output.find("holder ");
  REQUIRE(holder != std::string::npos);
  const std::string pid =
      second.output.substr(holder + 7, second.output.find('\n', holder) - holder - 7);
  CHECK_THAT(second.output, ContainsSubstring("another run is writing here") &&
                                ContainsSubstring("pid " + pid) && ContainsSubstring("exit 2"));
  // The killed holder left its lock file, but not its lock.
  const CliResult resumed =
      run_cloudburst("run " + dir + "/long.toml --output-dir " + out +
                     " --restart auto --set run.steps=1 --set checkpoint.every_steps=0");
  INFO(resumed.output);
  CHECK(resumed.code == 0);
  CHECK_THAT(resumed.output, ContainsSubstring("resuming from"));
  fs::remove_all(dir);
}

namespace {

// A 300 KiB file system of our own at `disk` (root and mount rights: CI and
// the developers' machines have both); false where it cannot be mounted.
bool mount_small_disk(const std::string& disk) {
  fs::create_directories(disk);
  return run_shell("mount -t tmpfs -o size=300k tmpfs " + disk).code == 0;
}

// A run on `ranks` ranks that may hang: stopped after 120 s (exit 124).
CliResult run_or_hang(int ranks, const std::string& arguments) {
  return run_shell("timeout 120 " + std::string(CLOUDBURST_MPIEXEC) + " -n " +
                   std::to_string(ranks) + " --oversubscribe '" + CLOUDBURST_EXE + "' " +
                   arguments);
}

}  // namespace

TEST_CASE("a full disk stops the run with exit 3 on every rank, and keeps what was written",
          "[restart][disk]") {
  const std::string dir = make_temp_dir("cb_full_");
  const std::string disk = dir + "/disk";
  if (!mount_small_disk(disk)) {
    fs::remove_all(dir);
    SKIP("cannot mount a tmpfs here");
  }
  const std::string checkpoints =
      "[run]\nsolver = \"scalar\"\ncase = \"gaussian\"\nsteps = 30\n[grid]\ncells = [128, 128, 1]\n"
      "[checkpoint]\nevery_steps = 5\nkeep = 10\n";
  const std::string rows =
      "[run]\nsolver = \"scalar\"\ncase = \"gaussian\"\nsteps = 2000\n[grid]\ncells = [16, 16, 1]\n"
      "[diagnostics]\nevery_steps = 1\n[checkpoint]\nat_end = false\n";
  write_text(dir + "/checkpoints.toml", checkpoints);
  write_text(dir + "/rows.toml", rows);
  for (const std::string name : {"checkpoints", "rows"}) {
    for (int ranks : {1, 2}) {
      run_shell("rm -rf " + disk + "/*");
      const std::string out = disk + "/out";
      const CliResult r =
          run_or_hang(ranks, "run " + dir + "/" + name + ".toml --output-dir " + out);
      INFO(name << " on " << ranks << " rank(s):\n" << r.output);
      CHECK(r.code == 3);  // not a hang (124), not a crash (139)
      CHECK_THAT(r.output, ContainsSubstring("no space left"));
      for (const auto& e : fs::directory_iterator(out + "/checkpoints")) {
        CHECK(e.path().extension() == ".h5");  // no .partial left behind
        CHECK(read_field(e.path().string(), "/fields/q").size() == 128u * 128u);
      }
    }
  }
  run_shell("umount " + disk);
  fs::remove_all(dir);
}

TEST_CASE("a full disk during field and particle output leaves no truncated file",
          "[disk][particles]") {
  const std::string dir = make_temp_dir("cb_full_output_");
  const std::string disk = dir + "/disk";
  if (!mount_small_disk(disk)) {
    fs::remove_all(dir);
    SKIP("cannot mount a tmpfs here");
  }
  // 128 KiB of fields per step; 864 atoms as a LAMMPS dump and an HDF5 file per step.
  write_text(dir + "/fields.toml",
             "[run]\nsolver = \"scalar\"\ncase = \"gaussian\"\nsteps = 30\n[grid]\n"
             "cells = [128, 128, 1]\n[output]\nevery_steps = 1\n[checkpoint]\nat_end = false\n");
  const std::string fields = dir + "/fields.toml";
  const std::string particles = std::string(CLOUDBURST_SOURCE_DIR) +
                                "/cases/md/lj_melt.toml --set md.lattice_cells=[6,6,6] "
                                "--set run.steps=100 --set dump.every_steps=1 "
                                "--set output.every_steps=1 --set checkpoint.at_end=false";
  for (const std::string& what : {fields, particles}) {
    for (int ranks : {1, 2}) {
      run_shell("rm -rf " + disk + "/*");
      const std::string out = disk + "/out";
      const CliResult r = run_or_hang(ranks, "run " + what + " --output-dir " + out);
      INFO(what << " on " << ranks << " rank(s):\n" << r.output);
      CHECK(r.code == 3);
      CHECK_THAT(r.output, ContainsSubstring("no space left"));
      int complete = 0;
      for (const auto& [sub, dataset, size] :
           {std::tuple{"fields", "/q", 128u * 128u}, std::tuple{"particles", "/x", 864u * 3u}}) {
        if (!fs::exists(out + "/" + sub)) continue;
        for (const auto& e : fs::directory_iterator(out + "/" + sub)) {
          INFO(e.path());
          CHECK(e.path().extension() == ".h5");
          CHECK(read_field(e.path().string(), dataset).size() == size);
          ++complete;
        }
      }
      if (fs::exists(out + "/dumps")) {
        for (const auto& e : fs::directory_iterator(out + "/dumps")) {
          CHECK(e.path().extension() == ".lammpstrj");  // written whole or not at all
        }
      }
      CHECK(complete > 0);  // the run got some way before the disk filled
    }
  }
  run_shell("umount " + disk);
  fs::remove_all(dir);
}

TEST_CASE("a CFD checkpoint with a negative density is refused", "[restart][input][cfd]") {
  const std::string dir = make_temp_dir("cb_bad_rho_");
  const std::string sod =
      "[run]\nsolver = \"cfd\"\ncase = \"sod\"\nsteps = 4\n[grid]\ncells = [64, 1, 1]\n";
  REQUIRE(run_case(dir, "good", sod, 1).code == 0);
  const std::string file = dir + "/negative.h5";
  fs::copy_file(dir + "/good/checkpoints/chk_00000004.h5", file);
  overwrite_value(file, "/fields/rho", 10, -1.0);
  for (int ranks : {1, 2}) {
    const std::string out = dir + "/out" + std::to_string(ranks);
    const CliResult r = run_cloudburst_mpi(
        ranks, "run " + dir + "/good.toml --restart " + file + " --output-dir " + out);
    INFO(r.output);
    CHECK(r.code == 2);
    CHECK_THAT(r.output, ContainsSubstring(file) &&
                             ContainsSubstring("rho <= 0 at cell (i, j, k) = (10, 0, 0)"));
    CHECK_FALSE(fs::exists(out));
  }
  fs::remove_all(dir);
}
