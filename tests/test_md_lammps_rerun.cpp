// LAMMPS reads what the MD solver writes (issue 20): Debian's lmp reads the
// final.data of cases/md/lj_melt.toml run on 2 ranks and re-runs its dumps
// (rerun ... dump x y z vx vy vz); lmp's thermo rows at the dumped steps must
// be the program's, every printed digit. The case's lists (rebuilt every 20
// steps without a check, as in.melt) would miss pairs by step 50 that rerun's
// fresh lists find, so the run checks every step. Skipped without lmp.
#include "cli_runner.hpp"

#include <catch2/catch_test_macros.hpp>

#include <filesystem>
#include <map>
#include <sstream>
#include <string>

using namespace cb::test;

namespace {

// The thermo rows (the text after the step number) by step: after a "Step
// Temp ..." header, the lines that are six numbers.
std::map<long, std::string> thermo_rows(const std::string& text) {
  std::map<long, std::string> rows;
  std::istringstream lines(text);
  std::string line;
  bool header = false;
  while (std::getline(lines, line)) {
    if (line.find("Step Temp") != std::string::npos) header = true;
    std::istringstream words(line);
    double values[6];
    int count = 0;
    while (count < 6 && words >> values[count]) ++count;
    std::string extra;
    if (!header || count < 6 || (words >> extra)) continue;
    const std::size_t start = line.find_first_not_of(' ');
    rows[long(values[0])] = line.substr(line.find(' ', start));
  }
  return rows;
}

}  // namespace

TEST_CASE("lmp reads final.data and re-runs the dumps with the program's thermo",
          "[md][validation][lammps]") {
  if (run_shell("command -v lmp").code != 0) SKIP("lmp is not installed");
  const std::string dir = make_temp_dir("cb_md_rerun_");
  const CliResult r = run_cloudburst_mpi(
      2,
      "run " + std::string(CLOUDBURST_SOURCE_DIR) +
          "/cases/md/lj_melt.toml --set run.steps=100 --set 'output.fields=[\"vx\",\"vy\",\"vz\"]'"
          " --set output.write_data=true --set neighbor.every=1 --set neighbor.check=true"
          " --output-dir " +
          dir + "/out");
  INFO(r.output);
  REQUIRE(r.code == 0);
  std::string dumps;
  for (const char* step : {"00000000", "00000050", "00000100"})
    dumps += " out/dumps/dump_" + std::string(step) + ".lammpstrj";
  write_text(dir + "/in.rerun",
             "units lj\natom_style atomic\npair_style lj/cut 2.5\n"
             "read_data out/final.data\nneighbor 0.3 bin\nthermo 50\nrerun" +
                 dumps + " dump x y z vx vy vz box yes\n");
  const CliResult lmp = run_shell("cd " + dir + " && lmp -in in.rerun -log none -echo none");
  INFO(lmp.output);
  REQUIRE(lmp.code == 0);
  const auto ours = thermo_rows(r.output), theirs = thermo_rows(lmp.output);
  for (long step : {0L, 50L, 100L}) {
    REQUIRE(ours.count(step) == 1);
    REQUIRE(theirs.count(step) == 1);
    CHECK(ours.at(step) == theirs.at(step));
  }
  std::filesystem::remove_all(dir);
}
