// The solvated peptide of LAMMPS's in.peptide (lammps-examples'
// peptide/data.peptide: CHARMM's switched LJ, charmm angles with Urey-Bradley,
// charmm dihedrals with 1-4 pairs, impropers, special_bonds charmm) through the
// `cloudburst` program against Debian's lmp run by the test on the same input
// (skipped where either is missing): every energy term, the pressure and every
// atom's force on 1, 2 and 4 ranks, with Ewald and with PPPM; 20 NVE steps of
// thermo_style multi, every printed digit.
#include "cli_runner.hpp"
#include "lmp_compare.hpp"

#include <catch2/catch_test_macros.hpp>
#include <catch2/matchers/catch_matchers_string.hpp>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <map>
#include <sstream>
#include <string>
#include <vector>

using namespace cb::test;
using Catch::Matchers::ContainsSubstring;
namespace fs = std::filesystem;

namespace {

// The lines of `text` after each "---- Step N ----- CPU" rule of thermo_style
// multi (4 lines a block), keyed by step.
std::map<long, std::string> multi_blocks(const std::string& text) {
  std::map<long, std::string> blocks;
  std::istringstream lines(text);
  std::string line;
  while (std::getline(lines, line)) {
    if (line.rfind("---------------- Step", 0) != 0) continue;
    const long step = std::stol(line.substr(21));
    std::string block;
    for (int k = 0; k < 4 && std::getline(lines, line); ++k) block += line + "\n";
    blocks[step] = block;
  }
  return blocks;
}

// in.peptide's force field (lj/charmm/coul/long 8/10, charmm angles and
// dihedrals with their weighted 1-4 pairs, harmonic bonds and impropers,
// special_bonds charmm) with `kspace` (an lmp kspace_style line) and lmp's
// pair_modify table 0 (the erfc of coulomb.hpp), dumping every atom's force
// to forces.dump at step 0.
std::string peptide_lmp(const std::string& data, const std::string& kspace) {
  return "units real\natom_style full\npair_style lj/charmm/coul/long 8.0 10.0 10.0\n"
         "pair_modify table 0\nbond_style harmonic\nangle_style charmm\n"
         "dihedral_style charmm\nimproper_style harmonic\n" +
         kspace + "\nread_data " + data +
         "\nneighbor 2.0 bin\n"
         "thermo_style custom step pe evdwl ecoul elong ebond eangle edihed eimp press\n"
         "thermo_modify format float %.15g\n"
         "dump forces all custom 1 forces.dump id fx fy fz\n"
         "dump_modify forces format float %.15g\nrun 0\n";
}

// Every atom's force in run dir/np<r> (ranks r) against lmp's forces.dump in
// `dir`: each component within `tolerance` of the largest lmp force component.
// Our dumps print 10 digits: the measured difference is that rounding (5e-9
// kcal/mol/A against a largest force of 58.6, 8.5e-11 of it, Ewald and PPPM,
// 1, 2 and 4 ranks), so 1e-9 is used where the issue asks for 1e-6.
void check_forces_against_lmp(const std::string& dir, const std::vector<int>& rank_counts,
                              double tolerance) {
  const std::vector<std::string> f = {"fx", "fy", "fz"};
  const auto theirs = dump_by_id(dir + "/forces.dump", f);
  double largest = 0.0;
  for (const auto& [id, force] : theirs)
    for (double component : force) largest = std::max(largest, std::abs(component));
  for (int ranks : rank_counts) {
    const auto ours =
        dump_by_id(dir + "/np" + std::to_string(ranks) + "/dumps/dump_00000000.lammpstrj", f);
    REQUIRE(ours.size() == theirs.size());
    double worst = 0.0;
    long worst_id = 0;
    for (const auto& [id, force] : theirs) {
      for (int d = 0; d < 3; ++d) {
        const double difference = std::abs(ours.at(id)[d] - force[d]);
        if (difference > worst) worst = difference, worst_id = id;
      }
    }
    INFO("on " << ranks << " rank(s): largest force " << largest << ", worst difference " << worst
               << " (atom " << worst_id << ")");
    CHECK(worst <= tolerance * largest);
  }
}

}  // namespace

TEST_CASE("the solvated peptide as lmp computes it (in.peptide with Ewald)",
          "[md][validation][molecules]") {
  // kspace ewald 1e-4 in place of in.peptide's pppm.
  const std::string data = lammps_examples + "peptide/data.peptide";
  if (!lmp_with(data)) SKIP("lmp or lammps-examples (" + data + ") is not installed");
  const std::string dir = make_temp_dir("cb_md_peptide_");
  const auto reference = lmp_thermo(dir, peptide_lmp(data, "kspace_style ewald 0.0001"));
  check_against_lmp(dir, peptide_case(data, "style = \"ewald\"\naccuracy = 1.0e-4\n"), reference,
                    {1, 2, 4}, "g_ewald = 0.25494425, kmax = 6 6 6, 462 k vectors", 1e-9);
  check_forces_against_lmp(dir, {1, 2, 4}, 1e-9);
  // The data file written on 4 ranks (with every Coeffs section) read by lmp
  // under the same styles, and by cloudburst with no coefficients in the case:
  // the same energies and pressure, to the order of the sums.
  const std::string written = dir + "/np4/final.data";
  const auto again = lmp_thermo(dir, peptide_lmp(written, "kspace_style ewald 0.0001"));
  for (const auto& [keyword, value] : reference)
    check_relative(again.at(keyword), value, 1e-12, keyword + " of lmp reading final.data");
  check_against_lmp(dir + "/np4", peptide_case(written, "style = \"ewald\"\naccuracy = 1.0e-4\n"),
                    reference, {1}, "g_ewald = 0.25494425", 1e-12);
  fs::remove_all(dir);
}

TEST_CASE("the solvated peptide with PPPM as lmp computes it (in.peptide)",
          "[md][validation][molecules][pppm]") {
  // in.peptide's kspace_style pppm 0.0001: lmp chooses G = 0.26872465 and a
  // 15^3 mesh. Every term within 1e-9 relative (measured on 1, 2 and 4
  // ranks: 2.5e-14 at worst, E_long 2.4e-15, Press 1.3e-15; the sums differ
  // from LAMMPS's in order only).
  const std::string data = lammps_examples + "peptide/data.peptide";
  if (!lmp_with(data)) SKIP("lmp or lammps-examples (" + data + ") is not installed");
  const std::string dir = make_temp_dir("cb_md_peptide_pppm_");
  const auto reference = lmp_thermo(dir, peptide_lmp(data, "kspace_style pppm 0.0001"));
  check_against_lmp(dir, peptide_case(data, "style = \"pppm\"\naccuracy = 1.0e-4\n"), reference,
                    {1, 2, 4},
                    "kspace pppm: g_ewald = 0.26872465, grid = 15 15 15, order 5, estimated "
                    "relative force accuracy 6.872429e-05",
                    1e-9);
  check_forces_against_lmp(dir, {1, 2, 4}, 1e-9);
  // `check` says the same before anything runs.
  const CliResult check = run_cloudburst("check " + dir + "/case.toml");
  INFO(check.output);
  CHECK(check.code == 0);
  CHECK_THAT(check.output, ContainsSubstring("# kspace: pppm, g_ewald = 0.26872465, mesh 15 15 15, "
                                             "order 5, estimated relative force accuracy "
                                             "6.872429e-05"));
  fs::remove_all(dir);
}

TEST_CASE("the peptide's trajectory: 20 NVE steps in thermo_style multi, as lmp prints them",
          "[md][validation][molecules]") {
  // validation/md/in.peptide_bench (the same force field and Ewald 1e-4, NVE at
  // 1 fs without SHAKE) in thermo_style multi: the blocks of steps 0, 10 and 20
  // (after the CPU line) must be the same text, every printed digit, on 2 ranks.
  const std::string data = lammps_examples + "peptide/data.peptide";
  if (!lmp_with(data)) SKIP("lmp or lammps-examples (" + data + ") is not installed");
  const std::string dir = make_temp_dir("cb_md_peptide_nve_");
  const std::string bench = std::string(CLOUDBURST_SOURCE_DIR) + "/validation/md/in.peptide_bench";
  const CliResult lmp =
      run_shell("cd " + dir + " && lmp -in " + bench +
                " -var steps 20 -var thermo_style multi -var thermo_every 10" + " -log none");
  INFO(lmp.output);
  REQUIRE(lmp.code == 0);
  write_text(dir + "/peptide.toml",
             peptide_case(data, "style = \"ewald\"\naccuracy = 1.0e-4\n", 20));
  const CliResult r =
      run_cloudburst_mpi(2, "run " + dir + "/peptide.toml --output-dir " + dir +
                                "/out --set thermo.style=multi" + " --set thermo.every_steps=10");
  INFO(r.output);
  REQUIRE(r.code == 0);
  const auto ours = multi_blocks(r.output), theirs = multi_blocks(lmp.output);
  for (long step : {0L, 10L, 20L}) {
    REQUIRE(theirs.count(step) == 1);
    CHECK(ours.at(step) == theirs.at(step));
  }
  fs::remove_all(dir);
}

TEST_CASE("energies tallied in the force pass are the separate pass's bits",
          "[md][molecules][energy]") {
  // On the steps where thermo is due (or a barostat needs the pressure) the
  // force pass also tallies energies and virial (force_field.hpp,
  // add_forces_and_energy); on the others the diagnostics take them from a
  // separate pass. Both must give the same bits: the same NVE trajectory
  // sampled every step with thermo every step (tallied) and with thermo only
  // at the start and end (separate), with full and half lists, for the
  // peptide (lj/charmm/coul/long, specials, PPPM, every bonded style) and
  // SETTLE water (lj/cut/coul/long, PPPM).
  const std::string data = lammps_examples + "peptide/data.peptide";
  const std::string water = lammps_examples + "HEAT/data.spce";
  if (!fs::exists(data) || !fs::exists(water)) SKIP("lammps-examples is not installed");
  const std::string dir = make_temp_dir("cb_md_tally_");
  write_text(dir + "/peptide.toml", peptide_case(data, "style = \"pppm\"\naccuracy = 1.0e-4\n", 6));
  const std::string cases[] = {
      dir + "/peptide.toml --set dump.every_steps=0",
      std::string(CLOUDBURST_SOURCE_DIR) + "/cases/md/spce_water_nve.toml --set run.steps=6"};
  const std::vector<std::string> columns = {"pe",     "press", "evdwl", "ecoul", "elong", "ebond",
                                            "eangle", "pxx",   "pyy",   "pzz",   "pxy",   "pyz"};
  for (const std::string& input : cases) {
    for (const std::string list : {"full", "half"}) {
      std::map<std::string, std::string> out;
      for (const std::string thermo : {"1", "0"}) {
        out[thermo] = dir + "/" + list + "_thermo" + thermo;
        const CliResult r = run_cloudburst(
            "run " + input + " --output-dir " + out[thermo] +
            " --set diagnostics.every_steps=1 --set output.every_steps=0 --set neighbor.list=" +
            list + " --set thermo.every_steps=" + thermo);
        INFO(r.output);
        REQUIRE(r.code == 0);
      }
      for (const std::string& column : columns) {
        INFO(input << ", " << list << " list, " << column);
        const auto tallied = csv_column(out["1"] + "/diagnostics.csv", column);
        const auto separate = csv_column(out["0"] + "/diagnostics.csv", column);
        REQUIRE(tallied.size() == 7);
        CHECK(tallied == separate);
      }
      fs::remove_all(out["1"]);
      fs::remove_all(out["0"]);
    }
  }
  fs::remove_all(dir);
}
