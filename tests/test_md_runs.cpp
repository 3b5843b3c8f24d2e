// Whole MD runs through the `cloudburst` program: the LAMMPS
// bench/in.lj and examples/melt thermo reproduced from the case files on 1, 2
// and 4 ranks, NVE energy conservation, restart equivalence, sub-boxes
// thinner than cutoff + skin (ghosts over several ranks), a box shorter than
// it refused; charged ions with the cut Coulomb, Ewald and PPPM sums against LAMMPS's rows.
#include "bad_input.hpp"
#include "cli_runner.hpp"
#include "h5_read.hpp"

#include <catch2/catch_test_macros.hpp>
#include <catch2/matchers/catch_matchers_string.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
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

const std::string md_cases = std::string(CLOUDBURST_SOURCE_DIR) + "/cases/md/";

CliResult run_md(int ranks, const std::string& case_file, const std::string& out,
                 const std::string& extra = "") {
  const std::string args = "run " + md_cases + case_file + " --output-dir " + out + " " + extra;
  return ranks == 1 ? run_cloudburst(args) : run_cloudburst_mpi(ranks, args);
}

// A salt case of cases/md with its data file named by absolute path (to run
// from a copy elsewhere).
std::string salt_case(const std::string& name) {
  const std::string data = "\"data/salt_charge.data\"";
  std::string text = read_text(md_cases + name);
  text.replace(text.find(data), data.size(), "\"" + md_cases + "data/salt_charge.data\"");
  return text;
}

// The thermo row of `step` ("Temp E_pair E_mol TotEng Press" as printed), or "".
std::string thermo_row(const std::string& output, long step) {
  std::istringstream lines(output);
  std::string line;
  while (std::getline(lines, line)) {
    std::istringstream words(line);
    long s = -1;
    std::string first;
    if (!(words >> first) || first.find_first_not_of("0123456789") != std::string::npos) continue;
    s = std::stol(first);
    if (s != step || line.size() < 60 || line.find("diagnostics") != std::string::npos) continue;
    std::string rest, word;
    while (words >> word) rest += (rest.empty() ? "" : " ") + word;
    return rest;
  }
  return "";
}

double max_difference(const std::vector<double>& a, const std::vector<double>& b) {
  REQUIRE(a.size() == b.size());
  double most = 0.0;
  for (std::size_t k = 0; k < a.size(); ++k) most = std::max(most, std::abs(a[k] - b[k]));
  return most;
}

// Runs `steps` straight and `first` + checkpoint + restart on `ranks_after`
// ranks; returns the largest differences of x and v at the end (by atom id).
struct RestartDifference {
  double dx = -1.0, dv = -1.0;
  bool same_images = false;
};

RestartDifference restart_difference(const std::string& dir, const std::string& opts, int steps,
                                     int first, int ranks_before, int ranks_after) {
  const std::string name = std::to_string(steps) + "_" + std::to_string(first) + "_" +
                           std::to_string(ranks_before) + std::to_string(ranks_after);
  const std::string all = opts + " --set run.steps=" + std::to_string(steps);
  const std::string straight_dir =
      dir + "/straight" + std::to_string(steps) + "_" + std::to_string(ranks_before);
  char end_name[32];
  std::snprintf(end_name, sizeof end_name, "/checkpoints/chk_%08d.h5", steps);
  const std::string straight = straight_dir + end_name;
  if (!fs::exists(straight)) {
    const CliResult r = run_md(ranks_before, "lj_melt.toml", straight_dir, all);
    INFO(r.output);
    REQUIRE(r.code == 0);
  }
  const std::string out = dir + "/split" + name;
  const CliResult half =
      run_md(ranks_before, "lj_melt.toml", out, opts + " --set run.steps=" + std::to_string(first));
  INFO(half.output);
  REQUIRE(half.code == 0);
  const CliResult rest = run_md(ranks_after, "lj_melt.toml", out, all + " --restart auto");
  INFO(rest.output);
  REQUIRE(rest.code == 0);
  const std::string file = out + end_name;
  RestartDifference d;
  d.dx = max_difference(by_id(file, "x"), by_id(straight, "x"));
  d.dv = max_difference(by_id(file, "v"), by_id(straight, "v"));
  d.same_images = by_id(file, "image") == by_id(straight, "image");
  return d;
}

}  // namespace

TEST_CASE("LAMMPS bench/in.lj thermo on 1, 2 and 4 ranks", "[md][validation][mpi]") {
  // Reference: LAMMPS bench/in.lj (Debian's lmp 20220106 prints the same rows
  // as the published bench logs): every printed digit must agree.
  const std::string dir = make_temp_dir("cb_md_bench_");
  for (int ranks : {1, 2, 4}) {
    const CliResult r = run_md(ranks, "lj_bench.toml", dir + "/np" + std::to_string(ranks));
    INFO(r.output);
    REQUIRE(r.code == 0);
    CHECK_THAT(r.output, ContainsSubstring("Step Temp E_pair E_mol TotEng Press"));
    CHECK(thermo_row(r.output, 0) == "1.44 -6.7733681 0 -4.6134356 -5.0197073");
    CHECK(thermo_row(r.output, 100) == "0.7574531 -5.7585055 0 -4.6223613 0.20726105");
  }
  fs::remove_all(dir);
}

TEST_CASE("LAMMPS examples/melt thermo", "[md][validation]") {
  // Reference: examples/melt/in.melt run by Debian's lmp 20220106 (rows in the
  // header of cases/md/lj_melt.toml).
  const std::string dir = make_temp_dir("cb_md_melt_");
  const CliResult r = run_md(1, "lj_melt.toml", dir + "/out");
  INFO(r.output);
  REQUIRE(r.code == 0);
  CHECK(thermo_row(r.output, 0) == "3 -6.7733681 0 -2.2744931 -3.7033504");
  CHECK(thermo_row(r.output, 50) == "1.6842865 -4.8082494 0 -2.2824513 5.5666131");
  CHECK(thermo_row(r.output, 250) == "1.6645597 -4.7774327 0 -2.2812174 5.7526089");
  fs::remove_all(dir);
}

TEST_CASE("LAMMPS units real and metal: argon thermo", "[md][validation][units]") {
  // Reference: the input in the header of cases/md/argon_real.toml run by
  // Debian's lmp 20220106 in units real and units metal (energies totals,
  // kcal/mol or eV; pressure in atm or bar); every printed digit must agree.
  const std::string dir = make_temp_dir("cb_md_units_");
  const CliResult real = run_md(1, "argon_real.toml", dir + "/real");
  INFO(real.output);
  REQUIRE(real.code == 0);
  CHECK(thermo_row(real.output, 0) == "100 -1665.3197 0 -1408.0758 725.63235");
  CHECK(thermo_row(real.output, 50) == "45.897731 -1517.4057 0 -1399.3366 2143.0641");
  CHECK(thermo_row(real.output, 250) == "50.284387 -1529.4805 0 -1400.127 2030.8762");
  const CliResult metal =
      run_md(2, "argon_real.toml", dir + "/metal",
             "--set md.units=metal --set pair.epsilon=0.0103 --set time.dt=0.005");
  INFO(metal.output);
  REQUIRE(metal.code == 0);
  CHECK(thermo_row(metal.output, 0) == "100 -72.04029 0 -60.88514 734.38681");
  CHECK(thermo_row(metal.output, 250) == "50.348201 -66.157852 0 -60.541434 2055.1913");
  fs::remove_all(dir);
}

TEST_CASE("LAMMPS lj/cut/coul/cut: charged ions on 1 and 4 ranks, restarted",
          "[md][validation][charges]") {
  // Reference: cases/md/salt_coul_cut.toml's data file run by Debian's lmp
  // (rows in the case header); every printed digit must agree. A restart at
  // step 100 carries the charges in the checkpoint and ends on the same bits.
  const std::string dir = make_temp_dir("cb_md_salt_");
  for (int ranks : {1, 4}) {
    const CliResult r = run_md(ranks, "salt_coul_cut.toml", dir + "/np" + std::to_string(ranks));
    INFO(r.output);
    REQUIRE(r.code == 0);
    CHECK(thermo_row(r.output, 0) == "1400 -179965.67 0 -175796.71 -67215.599");
    CHECK(thermo_row(r.output, 100) == "822.58752 -285336.88 0 -282887.35 -140965.85");
    CHECK(thermo_row(r.output, 200) == "923.23613 -273880.91 0 -271131.67 -126073.12");
  }
  const std::string split = dir + "/split";
  REQUIRE(run_md(1, "salt_coul_cut.toml", split, "--set run.steps=100").code == 0);
  const CliResult rest = run_md(1, "salt_coul_cut.toml", split, "--restart auto");
  INFO(rest.output);
  REQUIRE(rest.code == 0);
  const std::string end = "/checkpoints/chk_00000200.h5";
  CHECK(by_id(split + end, "q") == by_id(dir + "/np1" + end, "q"));
  CHECK(max_difference(by_id(split + end, "x"), by_id(dir + "/np1" + end, "x")) == 0.0);
  CHECK(max_difference(by_id(split + end, "v"), by_id(dir + "/np1" + end, "v")) == 0.0);
  fs::remove_all(dir);
}

TEST_CASE("LAMMPS lj/cut/coul/long + kspace ewald: the same g, k vectors and thermo",
          "[md][validation][charges][ewald]") {
  // Reference: cases/md/salt_ewald.toml's input run by Debian's lmp (rows and
  // LAMMPS's g_ewald in the case header; lmp prints "KSpace vectors: actual
  // max1d max3d = 1535 9 3429"). Every printed digit must agree; 2 ranks.
  const std::string dir = make_temp_dir("cb_md_ewald_");
  const CliResult r = run_md(2, "salt_ewald.toml", dir + "/out", "--set run.steps=100");
  INFO(r.output);
  REQUIRE(r.code == 0);
  CHECK_THAT(r.output, ContainsSubstring("kspace ewald: g_ewald = 0.30821542, kmax = 9 9 9, "
                                         "1535 k vectors"));
  CHECK(thermo_row(r.output, 0) == "1400 -96602.562 0 -92433.601 17755.506");
  CHECK(thermo_row(r.output, 50) == "556.76306 -94093.192 0 -92435.247 41641.212");
  CHECK(thermo_row(r.output, 100) == "733.79246 -94619.894 0 -92434.786 38190.115");
  fs::remove_all(dir);
}

TEST_CASE("LAMMPS lj/cut/coul/long + kspace pppm: the same g, mesh and thermo on 1 and 4 ranks",
          "[md][validation][charges][pppm]") {
  // Reference: cases/md/salt_pppm.toml's input run by Debian's lmp (rows at
  // %.15g in the case header). The sums differ from LAMMPS's in order only
  // (FFT, charge assignment, ghost-point sums): measured 3e-13 relative at
  // worst over these 50 steps, on either rank count.
  const std::string dir = make_temp_dir("cb_md_pppm_");
  const double lmp[2][5] = {
      {1400, -96602.6638383306, -92433.7029024006, 17754.5610404857, -58439.8906027393},
      {556.759606198366, -94092.9702164591, -92435.0351814986, 41645.9084175595, -58358.214396561}};
  const char* names[5] = {"temp", "e_pair", "tot_eng", "press", "elong"};
  for (int ranks : {1, 4}) {
    const std::string out = dir + "/np" + std::to_string(ranks);
    const CliResult r = run_md(ranks, "salt_pppm.toml", out, "--set run.steps=50");
    INFO(r.output);
    REQUIRE(r.code == 0);
    CHECK_THAT(r.output,
               ContainsSubstring("kspace pppm: g_ewald = 0.31200925, grid = 27 27 27, "
                                 "order 5, estimated relative force accuracy 1.117622e-05"));
    CHECK(thermo_row(r.output, 0) == "1400 -96602.664 0 -92433.703 17754.561");
    CHECK(thermo_row(r.output, 50) == "556.75961 -94092.97 0 -92435.035 41645.908");
    for (int row = 0; row < 2; ++row) {
      for (int c = 0; c < 4; ++c) {
        const double ours = csv_column(out + "/diagnostics.csv", names[c]).at(row);
        INFO(names[c] << " at step " << 50 * row << " on " << ranks << " rank(s): cloudburst "
                      << ours << ", lmp " << lmp[row][c]);
        CHECK(std::abs(ours - lmp[row][c]) <= 1e-9 * std::abs(lmp[row][c]));
      }
    }
  }
  fs::remove_all(dir);
}

TEST_CASE("PPPM input errors are named", "[md][input][pppm]") {
  const std::string dir = make_temp_dir("cb_md_pppm_bad_");
  const std::string pppm = salt_case("salt_pppm.toml");
  const std::string cut = salt_case("salt_coul_cut.toml");
  check_bad_overrides(dir, cut,
                      {{"pppm without coul/long",
                        "--set kspace.style=pppm --set kspace.accuracy=1e-5",
                        {"kspace.style", "pppm", "needs [pair] style"}}});
  check_bad_overrides(
      dir, pppm,
      {{"order 8", "--set kspace.order=8", {"kspace", "order", "[2, 7]"}},
       {"a mesh with a zero", "--set kspace.mesh=[27,0,27]", {"kspace", "mesh", "out of range"}},
       {"a mesh with a negative entry",
        "--set kspace.mesh=[-3,27,27]",
        {"kspace", "mesh", "out of range"}}});
  // A mesh of 2 points along x over 4 ranks along x: two own none.
  write_text(dir + "/coarse.toml", pppm);
  const CliResult r =
      run_cloudburst_mpi(4, "run " + dir + "/coarse.toml --output-dir " + dir +
                                "/out --set kspace.mesh=[2,4,4] --set parallel.ranks=[4,1,1]");
  INFO(r.output);
  CHECK(r.code == 2);
  CHECK_THAT(r.output, ContainsSubstring("kspace pppm: the mesh of 2 points along x does not "
                                         "divide across 4 ranks along x: a rank would own no"));
  CHECK_FALSE(fs::exists(dir + "/out"));
  fs::remove_all(dir);
}

TEST_CASE("PPPM ghost points over several ranks", "[md][pppm][mpi]") {
  // A mesh of 4 points along each axis over 2 ranks along x: each owns 2
  // points, and the order-5 stencils of its atoms reach 3 points below and
  // above, so the ghost layers come in two hops (the neighbour's points, then
  // its ghosts: here the rank's own points across the periodic face). The
  // energies and pressure on 2 and 4 ([4,1,1], one point per rank) ranks are
  // the single rank's to round-off.
  const std::string dir = make_temp_dir("cb_md_pppm_hops_");
  write_text(dir + "/coarse.toml", salt_case("salt_pppm.toml"));
  const std::string args =
      "run " + dir + "/coarse.toml --set kspace.mesh=[4,4,4] --set run.steps=20 --output-dir ";
  const CliResult one = run_cloudburst(args + dir + "/np1");
  INFO(one.output);
  REQUIRE(one.code == 0);
  for (const std::string grid : {"[2,1,1]", "[4,1,1]"}) {
    const std::string out = dir + "/grid" + grid.substr(1, 5);
    const CliResult r =
        run_cloudburst_mpi(grid[1] - '0', args + out + " --set parallel.ranks=" + grid);
    INFO(grid << ": " << r.output);
    REQUIRE(r.code == 0);
    for (const std::string column : {"elong", "pe", "press"}) {
      const double expected = csv_column(dir + "/np1/diagnostics.csv", column).back();
      const double got = csv_column(out + "/diagnostics.csv", column).back();
      INFO(column << ": 1 rank " << expected << ", " << grid << " " << got);
      CHECK(std::abs(got - expected) <= 1e-10 * std::abs(expected));
    }
  }
  fs::remove_all(dir);
}

TEST_CASE("unit-system input errors are named", "[md][input][units]") {
  const std::string dir = make_temp_dir("cb_md_units_bad_");
  const std::string real = read_text(md_cases + "argon_real.toml");
  check_bad_overrides(
      dir, real,
      {{"lj units with a lattice constant", "--set md.units=lj", {"lattice_constant", "lj"}},
       {"real units with a reduced density",
        "--set md.density=0.8",
        {"md.density", "lattice_constant"}},
       {"an unknown unit system", "--set md.units=cgs", {"md.units", "cgs"}}});
  std::string salt = read_text(md_cases + "salt_coul_cut.toml");
  const std::string data = "\"data/salt_charge.data\"";
  salt.replace(salt.find(data), data.size(), "\"" + md_cases + "data/salt_charge.data\"");
  check_bad_overrides(dir, salt,
                      {{"charges read as atom_style atomic",
                        "--set md.atom_style=atomic",
                        {"Atoms section of style 'charge'", "atomic"}},
                       {"a Coulomb key on plain lj",
                        "--set pair.style=lj --set pair.dielectric=2.0",
                        {"dielectric", "lj/cut/coul/cut"}},
                       {"coul/long without a k-space sum",
                        "--set pair.style=lj/cut/coul/long",
                        {"pair.style", "needs [kspace] style"}},
                       {"an Ewald sum without coul/long",
                        "--set kspace.style=ewald --set kspace.accuracy=1e-5",
                        {"kspace.style", "needs [pair] style"}},
                       {"g_ewald without kmax",
                        "--set pair.style=lj/cut/coul/long --set kspace.style=ewald "
                        "--set kspace.g_ewald=0.3",
                        {"g_ewald and kmax go together"}}});
  check_bad_overrides(dir, real,
                      {{"a Coulomb pair style without charges",
                        "--set pair.style=lj/cut/coul/cut",
                        {"pair.style", "needs charges"}}});
  std::string no_mass = real;
  no_mass.erase(no_mass.find("mass = 39.948"), std::string("mass = 39.948").size());
  std::string no_cutoff = real;
  no_cutoff.erase(no_cutoff.find("cutoff = 8.5"), std::string("cutoff = 8.5").size());
  check_bad_overrides(dir, no_mass, {{"real units without a mass", "", {"mass", "no default"}}});
  check_bad_overrides(dir, no_cutoff,
                      {{"real units without a cutoff", "", {"'cutoff' in [pair]"}}});
  fs::remove_all(dir);
}

TEST_CASE("NVE conserves energy with the shifted potential", "[md][validation]") {
  // 4000 atoms of the melt, shifted LJ, dt = 0.005, 10 tau. The validation
  // target is a drift below 1e-5 per atom per tau over 100 tau (that run is in
  // validation/md and validation/report.md). Over this short run the least-squares slope
  // after the 2-tau melt transient is limited by the O(dt^2) energy
  // fluctuations (about 1e-4 per atom, so a slope uncertainty near 1e-5 over
  // 8 tau): the bound here is 3e-5; a pair missed by the lists or a wrong
  // force gives drifts of 1e-3 and more.
  const std::string dir = make_temp_dir("cb_md_nve_");
  const CliResult r = run_md(
      1, "lj_melt.toml", dir + "/out",
      "--set run.steps=2000 --set pair.shift=true --set neighbor.every=1 "
      "--set neighbor.check=true --set diagnostics.every_steps=20 --set thermo.every_steps=0");
  INFO(r.output);
  REQUIRE(r.code == 0);
  const std::vector<double> step = csv_column(dir + "/out/diagnostics.csv", "step");
  const std::vector<double> energy = csv_column(dir + "/out/diagnostics.csv", "tot_eng");
  double n = 0, st = 0, se = 0, stt = 0, ste = 0;
  for (std::size_t k = 0; k < step.size(); ++k) {
    if (step[k] < 400) continue;
    const double t = 0.005 * step[k];
    n += 1;
    st += t;
    se += energy[k];
    stt += t * t;
    ste += t * energy[k];
  }
  REQUIRE(n > 70);
  const double slope = (n * ste - st * se) / (n * stt - st * st);
  INFO("energy drift " << slope << " per atom per tau");
  CHECK(std::abs(slope) < 3e-5);
  fs::remove_all(dir);
}

TEST_CASE("an MD restart matches an uninterrupted run", "[md][restart][mpi]") {
  // N steps straight against N1 + checkpoint + restart + (N - N1), 864 atoms
  // of the melt at T = 3, lists rebuilt every 5 steps (often enough that no
  // pair is missed). The force on an atom is summed in an order fixed by the
  // atom ids (half-list pairs by id, rows sorted by id, owned atoms in id
  // order), so on 1 rank the restart is bit for bit wherever it falls: between
  // two rebuilds, at a rebuild step, after an odd number of steps, and with
  // the Langevin, Nose-Hoover (a chain of 3) and CSVR thermostats (their state
  // is in the checkpoint; the CSVR stream is keyed by the step).
  const std::string dir = make_temp_dir("cb_md_restart_");
  const std::string nve =
      "--set neighbor.every=5 --set thermo.every_steps=10 --set md.lattice_cells=[6,6,6]";
  const std::string langevin = nve +
                               " --set thermostat.style=langevin --set thermostat.temperature=2.0"
                               " --set thermostat.damp=0.5 --set thermostat.seed=4928";
  const std::string nose_hoover = nve +
                                  " --set thermostat.style=nose_hoover"
                                  " --set thermostat.temperature=2.0 --set thermostat.damp=0.5";
  const std::string csvr = nve +
                           " --set thermostat.style=csvr --set thermostat.temperature=2.0"
                           " --set thermostat.damp=0.5 --set thermostat.seed=2007";
  // The default neighbour settings: rebuilt when some atom moved half the
  // skin, checked every step (the checkpoint holds the build positions).
  const std::string checked =
      "--set neighbor.every=1 --set neighbor.check=true"
      " --set thermo.every_steps=10 --set md.lattice_cells=[6,6,6]";
  struct Split {
    std::string what, tag, opts;
    int steps, first;
  };
  for (const Split& s :
       {Split{"between rebuilds", "nve", nve, 44, 22}, Split{"at a rebuild", "nve", nve, 44, 20},
        Split{"every = 1, check = true", "checked", checked, 60, 23},
        Split{"odd, across a rebuild", "nve", nve, 47, 23},
        Split{"Langevin", "langevin", langevin, 44, 22},
        Split{"Nose-Hoover", "nose_hoover", nose_hoover, 45, 22},
        Split{"CSVR", "csvr", csvr, 45, 22}}) {
    fs::create_directories(dir + "/" + s.tag);
    const RestartDifference d =
        restart_difference(dir + "/" + s.tag, s.opts, s.steps, s.first, 1, 1);
    INFO(s.what << " (" << s.first << " + " << s.steps - s.first << " steps, 1 rank): max |dx| "
                << d.dx << ", max |dv| " << d.dv);
    CHECK(d.dx == 0.0);
    CHECK(d.dv == 0.0);
    CHECK(d.same_images);
  }
  fs::remove_all(dir);
}

TEST_CASE("an MD restart on 2 ranks, and on another rank count", "[md][restart][mpi]") {
  // On the same rank count the owner of an atom is the one of its position at
  // the last rebuild, which the checkpoint stores (x_build): bit for bit at a
  // rebuild step and between two. On another rank count forces on some atoms
  // are summed in another order: the runs agree to round-off. Bound: 1e-10
  // (differences of 1e-16 grown by the chaotic dynamics over 0.1 tau stay
  // below 1e-13).
  const std::string dir = make_temp_dir("cb_md_restart2_");
  const std::string nve =
      "--set neighbor.every=5 --set thermo.every_steps=10 --set md.lattice_cells=[6,6,6]";
  const std::string checked =
      "--set neighbor.every=1 --set neighbor.check=true"
      " --set thermo.every_steps=10 --set md.lattice_cells=[6,6,6]";
  {
    fs::create_directories(dir + "/checked");
    const RestartDifference d = restart_difference(dir + "/checked", checked, 60, 23, 2, 2);
    INFO("2 ranks, every = 1, check = true, 23 + 37 steps: max |dx| " << d.dx << ", max |dv| "
                                                                      << d.dv);
    CHECK(d.dx == 0.0);
    CHECK(d.dv == 0.0);
  }
  for (long first : {20L, 22L}) {
    const RestartDifference d = restart_difference(dir, nve, 44, first, 2, 2);
    INFO("2 ranks, " << first << " + " << 44 - first << " steps: max |dx| " << d.dx << ", max |dv| "
                     << d.dv);
    CHECK(d.dx == 0.0);
    CHECK(d.dv == 0.0);
    CHECK(d.same_images);
  }
  {
    const RestartDifference d = restart_difference(dir, nve, 44, 22, 2, 1);
    INFO("2 -> 1 ranks, 22 + 22 steps: max |dx| " << d.dx << ", max |dv| " << d.dv);
    CHECK(d.dx < 1e-10);
    CHECK(d.dv < 1e-10);
    CHECK(d.same_images);
  }
  {
    const RestartDifference d = restart_difference(dir, nve, 44, 22, 1, 2);
    INFO("1 -> 2 ranks, 22 + 22 steps: max |dx| " << d.dx << ", max |dv| " << d.dv);
    CHECK(d.dx < 1e-10);
    CHECK(d.dv < 1e-10);
  }
  fs::remove_all(dir);
}

TEST_CASE("sub-boxes thinner than cutoff + skin: ghosts over several ranks", "[md][mpi]") {
  // examples/melt on 6^3 fcc cells (10.08 sigma) with cutoff 4.0 + skin 0.3:
  // over 3 ranks along x the sub-boxes are 3.36 sigma thick (2 hops), over 4
  // ranks 1.68 or 3.36 (uneven, 3 hops), over [2,2,1] 5.04 (one hop); the
  // thermo rows equal the single rank's to every printed digit.
  const std::string dir = make_temp_dir("cb_md_thin_");
  const std::string opts =
      "--set md.lattice_cells=[6,6,6] --set pair.cutoff=4.0 --set run.steps=100 ";
  const CliResult one = run_md(1, "lj_melt.toml", dir + "/np1", opts);
  INFO(one.output);
  REQUIRE(one.code == 0);
  for (const std::string grid : {"[3,1,1]", "[4,1,1]", "[2,2,1]"}) {
    const int ranks = (grid[1] - '0') * (grid[3] - '0') * (grid[5] - '0');
    const CliResult r = run_md(ranks, "lj_melt.toml", dir + "/grid" + grid.substr(1, 5),
                               opts + "--set parallel.ranks=" + grid);
    INFO(grid << ": " << r.output);
    REQUIRE(r.code == 0);
    for (long step : {0L, 50L, 100L}) {
      CHECK_FALSE(thermo_row(r.output, step).empty());
      CHECK(thermo_row(r.output, step) == thermo_row(one.output, step));
    }
  }
  fs::remove_all(dir);
}

TEST_CASE("a box shorter than cutoff + skin along a periodic axis is refused", "[md][input]") {
  // One fcc cell (1.68 sigma) along x, less than 2.5 + 0.3.
  const std::string dir = make_temp_dir("cb_md_short_box_");
  const CliResult r = run_md(1, "lj_melt.toml", dir + "/out", "--set md.lattice_cells=[1,6,6]");
  INFO(r.output);
  CHECK(r.code == 2);
  CHECK_THAT(r.output, ContainsSubstring("shorter than cutoff + skin"));
  CHECK_FALSE(fs::exists(dir + "/out"));
  fs::remove_all(dir);
}
