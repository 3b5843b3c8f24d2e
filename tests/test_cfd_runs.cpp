// Whole runs of the CFD solver through the `cloudburst` program under mpiexec
// (issue 6, DESIGN.md §4 and §6): checkpoint fields bitwise identical on 1, 2
// and 4 ranks split in x, y, both, and z (3-D), with outflow, periodic,
// no-slip (moving lid, viscous corners), inflow and the time-dependent
// double-Mach boundaries; and restarts (same and other rank counts) that match
// an uninterrupted run bit for bit.
#include "cli_runner.hpp"
#include "h5_read.hpp"

#include <catch2/catch_test_macros.hpp>
#include <catch2/matchers/catch_matchers_string.hpp>

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

using namespace cb::test;
using Catch::Matchers::ContainsSubstring;
namespace fs = std::filesystem;

namespace {

const std::vector<std::string> fields = {"rho", "mom_x", "mom_y", "mom_z", "energy"};

std::string cfd_case(const std::string& name, const std::string& cells, int steps,
                     const std::string& extra = "") {
  return "[run]\nsolver = \"cfd\"\ncase = \"" + name + "\"\nsteps = " + std::to_string(steps) +
         "\n[grid]\ncells = " + cells + "\n[diagnostics]\nevery_steps = 5\n" + extra;
}

CliResult run_case(const std::string& dir, const std::string& name, const std::string& text,
                   int ranks, const std::string& args = "") {
  write_text(dir + "/" + name + ".toml", text);
  return run_cloudburst_mpi(
      ranks, "run " + dir + "/" + name + ".toml --output-dir " + dir + "/" + name + " " + args);
}

std::string differing_fields(const std::string& file, const std::string& reference) {
  std::string differ;
  for (const auto& name : fields) {
    if (!bitwise_equal(read_field(file, "/fields/" + name),
                       read_field(reference, "/fields/" + name))) {
      differ += name + " ";
    }
  }
  return differ;
}

int product(const std::string& grid) {  // "[a,b,c]" -> a * b * c
  int p = 1;
  for (char c : grid) {
    if (c >= '1' && c <= '9') p *= c - '0';
  }
  return p;
}

// The case on one rank, then on each rank grid: bitwise equal checkpoints.
void check_invariance(const std::string& dir, const std::string& label, const std::string& text,
                      int steps, const std::vector<std::string>& grids) {
  const CliResult serial = run_case(dir, label + "_1", text, 1);
  INFO(label << " on 1 rank:\n" << serial.output);
  REQUIRE(serial.code == 0);
  char chk[32];
  std::snprintf(chk, sizeof chk, "/checkpoints/chk_%08d.h5", steps);
  const std::string reference = dir + "/" + label + "_1" + chk;
  for (const std::string& grid : grids) {
    std::string run = label + "_" + grid;
    run.erase(std::remove_if(run.begin(), run.end(), [](char c) { return c == '[' || c == ']'; }),
              run.end());
    std::replace(run.begin(), run.end(), ',', 'x');
    const CliResult r = run_case(dir, run, text, product(grid), "--set parallel.ranks=" + grid);
    INFO(label << " on ranks " << grid << ":\n" << r.output);
    REQUIRE(r.code == 0);
    CHECK(differing_fields(dir + "/" + run + chk, reference) == "");
  }
}

}  // namespace

TEST_CASE("CFD fields are bitwise identical on 1, 2 and 4 ranks", "[cfd][mpi]") {
  const std::string dir = make_temp_dir("cb_cfd_ranks_");
  // 1-D shock tubes split along their axis (x, and z for the z orientation).
  check_invariance(dir, "sod", cfd_case("sod", "[64, 1, 1]", 30), 30, {"[2,1,1]", "[4,1,1]"});
  check_invariance(dir, "sodz",
                   cfd_case("sod", "[1, 1, 48]", 20, "[initial]\norientation = \"z\"\n"), 20,
                   {"[1,1,4]"});
  // Periodic vortex with WENO5 (three ghost layers), split in x, y and both.
  check_invariance(
      dir, "vortex",
      cfd_case("isentropic_vortex", "[24, 24, 1]", 10, "[cfd]\nreconstruction = \"weno5\"\n"), 10,
      {"[2,1,1]", "[1,2,1]", "[2,2,1]", "[1,4,1]"});
  // The fourth-order WENO5 path: four ghost layers, transverse corrections
  // that read rank-corner ghosts; periodic, and walls with viscous fluxes.
  const std::string fourth = "[cfd]\nreconstruction = \"weno5\"\nfourth_order = true\n";
  check_invariance(dir, "vortex4", cfd_case("isentropic_vortex", "[24, 24, 1]", 10, fourth), 10,
                   {"[2,1,1]", "[1,2,1]", "[2,2,1]"});
  check_invariance(dir, "cavity4",
                   cfd_case("cavity", "[20, 20, 1]", 10, fourth + "low_mach = true\n"), 10,
                   {"[2,2,1]"});
  // Finite-difference WENO5: split-flux stencils across rank boundaries,
  // periodic, and walls with viscous fluxes.
  const std::string fd = "[cfd]\nreconstruction = \"weno5\"\nfinite_difference = true\n";
  check_invariance(dir, "vortex_fd", cfd_case("isentropic_vortex", "[24, 24, 1]", 10, fd), 10,
                   {"[2,1,1]", "[2,2,1]"});
  check_invariance(dir, "cavity_fd", cfd_case("cavity", "[20, 20, 1]", 10, fd), 10, {"[2,2,1]"});
  // No-slip walls with the moving lid, viscous fluxes through rank corners,
  // the low-Mach correction.
  check_invariance(dir, "cavity", cfd_case("cavity", "[20, 20, 1]", 20, "[cfd]\nlow_mach = true\n"),
                   20, {"[2,2,1]", "[4,1,1]"});
  // Inflow, reflecting bottom beyond x = 1/6 and the moving-shock top.
  check_invariance(dir, "dmr", cfd_case("double_mach", "[48, 12, 1]", 15), 15,
                   {"[2,2,1]", "[4,1,1]"});
  // 3-D viscous Taylor-Green, split in z, in x and y, and in y and z.
  check_invariance(dir, "tgv", cfd_case("taylor_green", "[10, 10, 10]", 4), 4,
                   {"[1,1,2]", "[2,2,1]", "[1,2,2]"});
  fs::remove_all(dir);
}

TEST_CASE("a restarted CFD run matches an uninterrupted one bit for bit", "[cfd][mpi][restart]") {
  // 12 steps straight against 6 + restart + 6, on the same and on other rank
  // counts; double_mach has a time-dependent boundary, so the restart time
  // must be exact too.
  const std::string dir = make_temp_dir("cb_cfd_restart_");
  for (const auto& [name, text] :
       {std::pair{std::string("dmr"), cfd_case("double_mach", "[40, 10, 1]", 12)},
        std::pair{std::string("cavity"), cfd_case("cavity", "[16, 16, 1]", 12)}}) {
    REQUIRE(run_case(dir, name + "_straight", text, 2).code == 0);
    const std::string straight = dir + "/" + name + "_straight/checkpoints/chk_00000012.h5";
    for (const auto& [first, second] : {std::pair{2, 2}, std::pair{1, 4}, std::pair{4, 1}}) {
      const std::string run = name + "_" + std::to_string(first) + std::to_string(second);
      const CliResult half = run_case(dir, run, text, first, "--set run.steps=6");
      INFO(half.output);
      REQUIRE(half.code == 0);
      const CliResult rest = run_case(dir, run, text, second, "--restart auto");
      INFO(rest.output);
      REQUIRE(rest.code == 0);
      CHECK_THAT(rest.output, ContainsSubstring("resuming from"));
      CHECK(differing_fields(dir + "/" + run + "/checkpoints/chk_00000012.h5", straight) == "");
    }
  }
  fs::remove_all(dir);
}
