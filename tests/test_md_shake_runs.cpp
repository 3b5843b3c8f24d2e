// SHAKE in the time step through the `cloudburst` program ([constraints],
// solvers/md/constraints.hpp) against Debian's lmp: LAMMPS's in.peptide as
// written (NVT tchain 1, SHAKE b 4 6 8 10 12 14 18 a 31, PPPM 1e-4, 2 fs, 300
// steps) on 1 and 2 ranks and, with lmp's Coulomb table off, 20 steps on 1, 2
// and 4 ranks; SPC/E water (HEAT/data.spce) with rigid molecules (b 1 a 1) on
// 1, 2 and 4 ranks; SETTLE's SPC/E run against SHAKE's converged to 1e-14
// on 1 and 2 ranks; a restart with SHAKE, RATTLE (2 ranks) or SETTLE bit for bit; the input
// errors.
#include "bad_input.hpp"
#include "cli_runner.hpp"
#include "h5_read.hpp"
#include "lmp_compare.hpp"

#include <catch2/catch_test_macros.hpp>
#include <catch2/generators/catch_generators.hpp>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

using namespace cb::test;
namespace fs = std::filesystem;

namespace {

// Relative tolerance of the SPC/E rows (measured on 1 and 2 ranks: 2e-13 at
// most, TotEng and Press).
constexpr double spce_tolerance = 1e-10;

// Relative tolerance of SETTLE's SPC/E rows against SHAKE's converged to
// 1e-14 (measured over pe, ke, tot_eng, press, temp and 21 rows: 1.5e-13 on
// 1 rank, 2.0e-13 on 2; SHAKE at its default 1e-4 differs by 1.1e-3).
constexpr double settle_tolerance = 1e-11;

const std::string peptide_data = lammps_examples + "peptide/data.peptide";

// in.peptide's fix nvt and fix shake as case-file sections.
const std::string peptide_nvt_shake = R"(
[thermostat]
style = "nose_hoover"
temperature = 275.0
damp = 100.0
chain = 1

[constraints]
style = "shake"
tolerance = 1.0e-4
max_iterations = 10
bond_types = [4, 6, 8, 10, 12, 14, 18]
angle_types = [31]

[diagnostics]
every_steps = 50
)";

// in.peptide as written: 300 steps of 2 fs, neigh_modify delay 5.
std::string peptide_case_text() {
  std::string text = peptide_case(peptide_data, "style = \"pppm\"\naccuracy = 1.0e-4\n", 300);
  for (const auto& [from, to] : {std::pair<std::string, std::string>{"dt = 1.0", "dt = 2.0"},
                                 {"skin = 2.0", "skin = 2.0\ndelay = 5"}}) {
    REQUIRE(text.find(from) != std::string::npos);
    text.replace(text.find(from), from.size(), to);
  }
  return text + peptide_nvt_shake;
}

}  // namespace

TEST_CASE("in.peptide with SHAKE, fix nvt and exact Coulomb: 20 steps as lmp's, 1, 2 and 4 ranks",
          "[md][validation][shake][mpi]") {
  // in.peptide with pair_modify table 0 (our real-space Coulomb is not
  // tabulated): every thermo column of every step within 1e-10 of lmp's
  // %.15g (measured on 1 rank: 5e-13 at most, Press).
  if (!lmp_with(peptide_data)) SKIP("lmp or lammps-examples is not installed");
  const std::string dir = make_temp_dir("cb_md_shake_peptide20_");
  const auto lmp = lmp_thermo_rows(dir, lmp_peptide_input(20, 1, "pair_modify table 0"));
  REQUIRE(lmp.size() == 21);
  write_text(dir + "/peptide.toml", peptide_case_text());
  for (int ranks : {1, 2, 4}) {
    const std::string out = dir + "/np" + std::to_string(ranks);
    const CliResult r =
        run_cloudburst_mpi(ranks, "run " + dir + "/peptide.toml --output-dir " + out +
                                      " --set run.steps=20 --set diagnostics.every_steps=1");
    INFO(r.output);
    REQUIRE(r.code == 0);
    compare_rows(out, lmp, peptide_columns, 1e-10, "np" + std::to_string(ranks) + ":");
  }
  fs::remove_all(dir);
}

TEST_CASE("in.peptide as written (tabulated Coulomb in lmp): 300 steps, 1 and 2 ranks",
          "[md][validation][shake][mpi]") {
  // LAMMPS tabulates the real-space Coulomb (pair_modify table 12, its
  // default); we do not, so the runs part slowly. Measured largest relative
  // differences over steps 0..300 (every 50) on 1 rank: Temp 1.5e-5, PotEng
  // 2.4e-6, TotEng 9.3e-7, E_bond 4.2e-5, E_angle 1.8e-4, E_long 2.3e-7,
  // Press 4.1e-3 (0.8 atm), f_1 1.0e-3; step 300 TotEng -5251.3649 (lmp
  // -5251.3638), E_long -33909.0870 (-33909.0791), Press -470.95 (-471.55).
  if (!lmp_with(peptide_data)) SKIP("lmp or lammps-examples is not installed");
  const std::string dir = make_temp_dir("cb_md_shake_peptide_");
  const auto lmp = lmp_thermo_rows(dir, lmp_peptide_input(300, 50, ""));
  REQUIRE(lmp.size() == 7);
  write_text(dir + "/peptide.toml", peptide_case_text());
  for (int ranks : {1, 2}) {
    const std::string out = dir + "/np" + std::to_string(ranks);
    const CliResult r =
        run_cloudburst_mpi(ranks, "run " + dir + "/peptide.toml --output-dir " + out);
    INFO(r.output);
    REQUIRE(r.code == 0);
    const std::string what = "np" + std::to_string(ranks) + ":";
    compare_rows(out, lmp,
                 {{"Temp", "temp"},
                  {"PotEng", "pe"},
                  {"TotEng", "tot_eng"},
                  {"E_bond", "ebond"},
                  {"E_long", "elong"}},
                 1e-4, what);
    compare_rows(out, lmp, {{"E_angle", "eangle"}}, 1e-3, what);
    compare_rows(out, lmp, {{"Press", "press"}, {"f_1", "ecouple"}}, 1e-2, what);
  }
  fs::remove_all(dir);
}

namespace {

const std::string spce_case = spce_water_case("shake");

}  // namespace

TEST_CASE("rigid SPC/E water (SHAKE b 1 a 1) as lmp runs it", "[md][validation][shake][mpi]") {
  const std::string data = lammps_examples + "HEAT/data.spce";
  if (!lmp_with(data)) SKIP("lmp or lammps-examples is not installed");
  const std::string dir = make_temp_dir("cb_md_shake_spce_");
  const auto lmp = lmp_thermo_rows(dir, lmp_spce_water_input());
  REQUIRE(lmp.size() == 5);
  write_text(dir + "/spce.toml", spce_case);
  const std::map<std::string, std::string> columns = {{"Temp", "temp"},
                                                      {"PotEng", "pe"},
                                                      {"TotEng", "tot_eng"},
                                                      {"Press", "press"},
                                                      {"E_long", "elong"}};
  for (int ranks : {1, 2, 4}) {
    const std::string out = dir + "/np" + std::to_string(ranks);
    const CliResult r = run_cloudburst_mpi(ranks, "run " + dir + "/spce.toml --output-dir " + out);
    INFO(r.output);
    REQUIRE(r.code == 0);
    compare_rows(out, lmp, columns, spce_tolerance, "np" + std::to_string(ranks) + ":");
    // The constrained bonds and angles leave the bonded energy, as in LAMMPS.
    for (const char* column : {"ebond", "eangle"})
      for (double e : csv_column(out + "/diagnostics.csv", column)) CHECK(e == 0.0);
  }
  fs::remove_all(dir);
}

TEST_CASE("rigid SPC/E water under a Berendsen barostat as lmp runs it, 1 and 2 ranks",
          "[md][validation][shake][barostat][mpi]") {
  // SPC/E with fix press/berendsen iso 1.0 1.0 100.0 modulus 20000 after the SHAKE fix:
  // the box shrinks or grows each step and SHAKE's minimum images follow it.
  const std::string data = lammps_examples + "HEAT/data.spce";
  if (!lmp_with(data)) SKIP("lmp or lammps-examples is not installed");
  const std::string dir = make_temp_dir("cb_md_shake_npt_");
  std::string input = lmp_spce_water_input();
  const std::string shake_fix = "fix 2 all shake 0.0001 10 0 b 1 a 1\n";
  REQUIRE(input.find(shake_fix) != std::string::npos);
  input.replace(input.find(shake_fix), shake_fix.size(),
                shake_fix + "fix 3 all press/berendsen iso 1.0 1.0 100.0 modulus 20000.0\n");
  input.replace(input.find("elong"), 5, "elong vol density");
  const auto lmp = lmp_thermo_rows(dir, input);
  REQUIRE(lmp.size() == 5);
  CHECK(lmp.back().at("Volume") != lmp.front().at("Volume"));
  std::map<std::string, std::string> columns = npt_columns;
  columns["E_long"] = "elong";
  write_text(dir + "/spce.toml", spce_case +
                                     "\n[barostat]\nstyle = \"berendsen\"\npressure = 1.0\n"
                                     "damp = 100.0\nmodulus = 20000.0\n");
  for (int ranks : {1, 2}) {
    const std::string out = dir + "/np" + std::to_string(ranks);
    const CliResult r = run_cloudburst_mpi(ranks, "run " + dir + "/spce.toml --output-dir " + out);
    INFO(r.output);
    REQUIRE(r.code == 0);
    compare_rows(out, lmp, columns, spce_tolerance, "np" + std::to_string(ranks) + ":");
  }
  fs::remove_all(dir);
}

TEST_CASE("rigid SPC/E water: SETTLE's run is SHAKE's converged to 1e-14, 1 and 2 ranks",
          "[md][validation][settle][mpi]") {
  // SETTLE solves each water exactly; SHAKE (LAMMPS's multiplier test at
  // 1e-14 amu, up to 100 iterations) converges to round-off, so the two runs
  // agree to round-off, while SHAKE at its default 1e-4 differs by far more
  // (the last check: the comparison resolves the constraint solution).
  const std::string data = lammps_examples + "HEAT/data.spce";
  if (!fs::exists(data)) SKIP(data + " is not installed (lammps-examples)");
  const std::string dir = make_temp_dir("cb_md_settle_spce_");
  write_text(dir + "/shake.toml", spce_case);
  write_text(dir + "/settle.toml", spce_water_case("settle"));
  const std::string every_step = " --set run.steps=20 --set diagnostics.every_steps=1";
  const std::string tight =
      " --set constraints.tolerance=1e-14 --set constraints.max_iterations=100";
  for (const std::string& run : {"shake.toml --output-dir " + dir + "/shake" + tight,
                                 "shake.toml --output-dir " + dir + "/loose"}) {
    const CliResult r = run_cloudburst("run " + dir + "/" + run + every_step);
    INFO(r.output);
    REQUIRE(r.code == 0);
  }
  const std::vector<std::string> columns = {"pe", "ke", "tot_eng", "press", "temp"};
  const auto largest_difference = [&](const std::string& out) {
    double largest = 0.0;
    for (const std::string& column : columns) {
      const auto ours = csv_column(out + "/diagnostics.csv", column);
      const auto reference = csv_column(dir + "/shake/diagnostics.csv", column);
      REQUIRE(ours.size() == 21);
      REQUIRE(reference.size() == 21);
      for (std::size_t row = 0; row < ours.size(); ++row)
        largest =
            std::max(largest, std::abs(ours[row] - reference[row]) / std::abs(reference[row]));
    }
    return largest;
  };
  for (int ranks : {1, 2}) {
    const std::string out = dir + "/settle_np" + std::to_string(ranks);
    const CliResult r =
        run_cloudburst_mpi(ranks, "run " + dir + "/settle.toml --output-dir " + out + every_step);
    INFO(r.output);
    REQUIRE(r.code == 0);
    const double difference = largest_difference(out);
    INFO("np" << ranks << ": largest relative difference " << difference);
    CHECK(difference <= settle_tolerance);
    for (const char* column : {"ebond", "eangle"})
      for (double e : csv_column(out + "/diagnostics.csv", column)) CHECK(e == 0.0);
  }
  const double loose = largest_difference(dir + "/loose");
  INFO("SHAKE at tolerance 1e-4: " << loose);
  CHECK(loose > 100.0 * settle_tolerance);
  fs::remove_all(dir);
}

TEST_CASE("SETTLE refuses a cluster that is not a rigid water, stops on an unreachable one",
          "[md][cli][settle]") {
  const std::string data = lammps_examples + "HEAT/data.spce";
  if (!fs::exists(data)) SKIP(data + " is not installed (lammps-examples)");
  const std::string dir = make_temp_dir("cb_md_settle_bad_");
  write_text(dir + "/settle.toml", spce_water_case("settle"));
  // Without angle_types each water is a 3-atom star: its H-H distance free.
  const CliResult r = run_cloudburst("run " + dir + "/settle.toml --output-dir " + dir +
                                     "/out --set constraints.angle_types=[]");
  INFO(r.output);
  CHECK(r.code == 2);
  CHECK(r.output.find("[constraints] style = \"settle\" is for rigid water only") !=
        std::string::npos);
  CHECK(r.output.find("is not 3 atoms with their angle frozen") != std::string::npos);
  // A 10 fs step moves some waters beyond any rigid triangle: exit 3 naming one.
  const CliResult failed = run_cloudburst("run " + dir + "/settle.toml --output-dir " + dir +
                                          "/failed --set time.dt=10.0 --set run.steps=10");
  INFO(failed.output);
  CHECK(failed.code == 3);
  CHECK(failed.output.find("SETTLE found no rigid water reaching the predicted positions of the "
                           "cluster of atoms ") != std::string::npos);
  fs::remove_all(dir);
}

// On 2 ranks some atoms change owners by step 20 at 2 fs, so the restarted
// run's atoms are spread over the ranks otherwise than at step 0: the charge
// sums behind PPPM's g_ewald come from the checkpoint (charge_sums.hpp).
TEST_CASE("a restart with SHAKE, RATTLE or SETTLE matches the uninterrupted run bit for bit",
          "[md][restart][shake][rattle][settle]") {
  const std::string data = lammps_examples + "HEAT/data.spce";
  if (!fs::exists(data)) SKIP(data + " is not installed (lammps-examples)");
  const auto [style, ranks] = GENERATE(
      table<std::string, int>({{"shake", 1}, {"rattle", 2}, {"settle", 1}, {"settle", 2}}));
  INFO("style " << style << ", " << ranks << " ranks");
  const std::string dir = make_temp_dir("cb_md_" + style + "_restart_");
  write_text(dir + "/spce.toml", spce_water_case(style));
  const std::string run = "run " + dir + "/spce.toml --set parallel.ranks=[" +
                          std::to_string(ranks) + ",1,1] --output-dir ";
  REQUIRE(run_cloudburst_mpi(ranks, run + dir + "/straight --set run.steps=40").code == 0);
  REQUIRE(run_cloudburst_mpi(ranks, run + dir + "/split --set run.steps=20").code == 0);
  const CliResult rest =
      run_cloudburst_mpi(ranks, run + dir + "/split --set run.steps=40 --restart auto");
  INFO(rest.output);
  REQUIRE(rest.code == 0);
  const std::string end = "/checkpoints/chk_00000040.h5";
  for (const char* name : {"/particles/x", "/particles/v", "/particles/f_constraint"})
    CHECK(read_field(dir + "/split" + end, name) == read_field(dir + "/straight" + end, name));
  for (const char* column : {"pe", "press", "temp"})
    CHECK(csv_column(dir + "/split/diagnostics.csv", column).back() ==
          csv_column(dir + "/straight/diagnostics.csv", column).back());
  fs::remove_all(dir);
}

TEST_CASE("bad [constraints] input exits 2 naming the key", "[md][cli][shake]") {
  const std::string data = lammps_examples + "HEAT/data.spce";
  if (!fs::exists(data)) SKIP(data + " is not installed (lammps-examples)");
  const std::string dir = make_temp_dir("cb_md_shake_bad_");
  check_bad_overrides(
      dir, spce_case,
      {{"unknown key", "--set constraints.tolerence=1e-4", {"tolerence"}},
       {"unknown style", "--set constraints.style=lincs", {"constraints.style", "settle"}},
       {"settle with a tolerance",
        "--set constraints.style=settle --set constraints.tolerance=1e-4",
        {"constraints.tolerance", "SETTLE is exact"}},
       {"bond type outside the data file's",
        "--set constraints.bond_types=[2]",
        {"constraints.bond_types", "not a bond type"}},
       {"angle type outside", "--set constraints.angle_types=[0]", {"constraints.angle_types"}},
       {"tolerance not positive", "--set constraints.tolerance=0", {"constraints.tolerance"}},
       {"nothing selected",
        "--set constraints.bond_types=[] --set constraints.angle_types=[]",
        {"constrains nothing"}},
       {"keys without a style", "--set constraints.style=none", {"needs style"}},
       {"molecules without atom_style full", "--set md.atom_style=charge", {"full"}}});
  // A lattice of atoms has no molecules to constrain.
  const CliResult r = run_cloudburst(
      "run " + std::string(CLOUDBURST_SOURCE_DIR) + "/cases/md/lj_melt.toml --output-dir " + dir +
      "/melt --set constraints.style=shake --set constraints.masses=[1.0]");
  INFO(r.output);
  CHECK(r.code == 2);
  CHECK(r.output.find("needs molecules") != std::string::npos);
  // A cluster that does not converge stops the run: exit 3 naming its atoms.
  write_text(dir + "/spce.toml", spce_case);
  const CliResult failed =
      run_cloudburst("run " + dir + "/spce.toml --output-dir " + dir + "/failed" +
                     " --set constraints.max_iterations=1 --set constraints.tolerance=1e-14");
  INFO(failed.output);
  CHECK(failed.code == 3);
  CHECK(failed.output.find("SHAKE did not converge within 1 iterations") != std::string::npos);
  CHECK(failed.output.find("for the cluster of atoms ") != std::string::npos);
  fs::remove_all(dir);
}
