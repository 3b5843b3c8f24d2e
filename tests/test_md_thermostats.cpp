// Thermostats through the `cloudburst` program: Nose-Hoover chains against
// Debian's lmp (fix nvt ... tchain 3) on the LAMMPS melt (lj units, 1 and 2
// ranks) and the solvated peptide without SHAKE (real units, Ewald), thermo
// and the chain's energy (f_ID) every 50 steps; stochastic velocity rescaling
// (CSVR) sampling the canonical kinetic-energy distribution with a small drift
// of its effective energy; their input errors.
#include "bad_input.hpp"
#include "cli_runner.hpp"
#include "lmp_compare.hpp"

#include <catch2/catch_test_macros.hpp>

#include <cmath>
#include <filesystem>
#include <map>
#include <string>
#include <utility>
#include <vector>

using namespace cb::test;
namespace fs = std::filesystem;

namespace {

const std::string md_cases = std::string(CLOUDBURST_SOURCE_DIR) + "/cases/md/";

// Checks the diagnostics.csv rows of `out` against lmp's rows of the same
// steps (in order): Temp, PotEng, TotEng, Press, f_1 (the fix nvt energy),
// Enthalpy and Density (per atom and reduced in lj), relative
// `tolerance`.
void check_rows(const std::string& out, const std::vector<std::map<std::string, double>>& lmp,
                double tolerance, const std::string& what) {
  compare_rows(out, lmp,
               {{"Temp", "temp"},
                {"PotEng", "pe"},
                {"TotEng", "tot_eng"},
                {"Press", "press"},
                {"f_1", "ecouple"},
                {"Enthalpy", "enthalpy"},
                {"Density", "density"}},
               tolerance, what);
}

}  // namespace

TEST_CASE("Nose-Hoover chains as lmp fix nvt tchain 3: the LJ melt on 1 and 2 ranks",
          "[md][validation][thermostat][mpi]") {
  // examples/melt (cases/md/lj_melt.toml: 4000 atoms from T 3.0) under fix nvt
  // temp 1.5 1.5 0.5 tchain 3, 250 steps. Measured on 1 rank: every column
  // within 1e-13 of lmp's %.15g rows (the thermostat's temperature before the
  // first kick is summed again here, LAMMPS scales the last one: round-off).
  // Tolerance 1e-9 relative, for the other summation orders on 2 ranks.
  if (run_shell("command -v lmp").code != 0) SKIP("lmp is not installed");
  const std::string dir = make_temp_dir("cb_md_nhc_melt_");
  const auto lmp = lmp_thermo_rows(
      dir, lmp_melt_input("", "neigh_modify every 20 delay 0 check no\n",
                          "fix 1 all nvt temp 1.5 1.5 0.5 tchain 3\n",
                          "step temp pe etotal press f_1 enthalpy density", 50, 250));
  REQUIRE(lmp.size() == 6);
  for (int ranks : {1, 2}) {
    const std::string out = dir + "/np" + std::to_string(ranks);
    const std::string args = "run " + md_cases + "lj_melt.toml --output-dir " + out +
                             " --set output.every_steps=0 --set dump.every_steps=0"
                             " --set thermostat.style=nose_hoover --set thermostat.temperature=1.5"
                             " --set thermostat.damp=0.5";  // chain = 3, the default
    const CliResult r = ranks == 1 ? run_cloudburst(args) : run_cloudburst_mpi(ranks, args);
    INFO(r.output);
    REQUIRE(r.code == 0);
    check_rows(out, lmp, 1e-9, std::to_string(ranks) + " rank(s):");
  }
  fs::remove_all(dir);
}

TEST_CASE("Nose-Hoover chains as lmp fix nvt tchain 3: the peptide in real units",
          "[md][validation][thermostat][molecules]") {
  // validation/md/in.peptide_bench (in.peptide's force field, Ewald 1e-4, 1 fs,
  // no SHAKE) with fix nvt temp 275 275 100 tchain 3 instead of fix nve, 100
  // steps. Measured: every column within 1e-11 of lmp's %.15g rows; tolerance 1e-9.
  const std::string data = lammps_examples + "peptide/data.peptide";
  if (!lmp_with(data)) SKIP("lmp or lammps-examples (" + data + ") is not installed");
  const std::string dir = make_temp_dir("cb_md_nhc_peptide_");
  const std::string input =
      peptide_bench_input("fix 1 all nvt temp 275.0 275.0 100.0 tchain 3",
                          "step temp pe etotal press f_1 enthalpy density", 50);
  const auto lmp = lmp_thermo_rows(dir, input);  // 100 steps, thermo every 50
  REQUIRE(lmp.size() == 3);
  write_text(dir + "/peptide.toml",
             peptide_case(data, "style = \"ewald\"\naccuracy = 1.0e-4\n", 100) +
                 "\n[thermostat]\nstyle = \"nose_hoover\"\ntemperature = 275.0\n"
                 "damp = 100.0\nchain = 3\n\n[diagnostics]\nevery_steps = 50\n");
  const CliResult r = run_cloudburst("run " + dir + "/peptide.toml --output-dir " + dir + "/out");
  INFO(r.output);
  REQUIRE(r.code == 0);
  check_rows(dir + "/out", lmp, 1e-9, "peptide:");
  fs::remove_all(dir);
}

TEST_CASE("CSVR samples the canonical kinetic energy and conserves its effective energy",
          "[md][validation][thermostat]") {
  // 256 LJ atoms (the melt's density, 4^3 cells, shifted cutoff 2.5), CSVR at
  // T0 = 1.5 with damp 0.1 tau, dt 0.005, 40000 steps, seed 2007; T sampled
  // every 10 steps after the first 1000. Canonical: 2K/k_B ~ T0 chi^2(dof) / dof
  // with dof = 3N - 3 = 765 (Bussi et al. 2007), so <T> = T0 and
  // var T = 2 T0^2 / dof = 0.005882. Samples are correlated (lag-1
  // autocorrelation 0.38): standard errors from 20 block averages of T and of
  // (T - <T>)^2, bounds 4 standard errors. Measured: <T> = 1.50200 +- 0.00234,
  // var T = 0.005616 +- 0.000172.
  // The effective energy TotEng + ecouple (per atom): measured least-squares
  // slope 7.9e-6 per atom per tau (bound 3e-5, that of the NVE test of
  // test_md_runs.cpp) and standard deviation 6.6e-4 against 0.14 for TotEng
  // (bound: a tenth; without the thermostat's work booked they are equal).
  const std::string dir = make_temp_dir("cb_md_csvr_");
  const CliResult r = run_cloudburst(
      "run " + md_cases + "lj_melt.toml --output-dir " + dir +
      "/out --set run.steps=40000 --set md.lattice_cells=[4,4,4] --set pair.shift=true"
      " --set neighbor.every=1 --set neighbor.check=true --set diagnostics.every_steps=10"
      " --set thermo.every_steps=0 --set output.every_steps=0 --set dump.every_steps=0"
      " --set thermostat.style=csvr --set thermostat.temperature=1.5"
      " --set thermostat.damp=0.1 --set thermostat.seed=2007");
  INFO(r.output);
  REQUIRE(r.code == 0);
  const std::string csv = dir + "/out/diagnostics.csv";
  const std::vector<double> step = csv_column(csv, "step"), temp = csv_column(csv, "temp"),
                            econserve = csv_column(csv, "econserve"),
                            tot_eng = csv_column(csv, "tot_eng");
  std::vector<double> t, time, e, total;
  for (std::size_t k = 0; k < step.size(); ++k) {
    if (step[k] < 1000) continue;
    t.push_back(temp[k]);
    time.push_back(step[k] * 0.005);
    e.push_back(econserve[k]);
    total.push_back(tot_eng[k]);
  }
  const int blocks = 20;
  const std::size_t per = t.size() / blocks;
  REQUIRE(per >= 100);
  const auto mean = [](const std::vector<double>& x) {
    double s = 0.0;
    for (double v : x) s += v;
    return s / static_cast<double>(x.size());
  };
  const double t0 = 1.5, dof = 3.0 * 256 - 3.0, t_mean = mean(t);
  std::vector<double> block_mean(blocks), block_var(blocks);
  for (int b = 0; b < blocks; ++b) {
    for (std::size_t k = b * per; k < (b + 1) * per; ++k) {
      block_mean[b] += t[k] / per;
      block_var[b] += (t[k] - t_mean) * (t[k] - t_mean) / per;
    }
  }
  const auto standard_error = [&](const std::vector<double>& x) {
    const double m = mean(x);
    double s = 0.0;
    for (double v : x) s += (v - m) * (v - m);
    return std::sqrt(s / (x.size() - 1) / x.size());
  };
  const double t_var = mean(block_var), expected_var = 2.0 * t0 * t0 / dof;
  INFO("<T> " << t_mean << " +- " << standard_error(block_mean) << ", var T " << t_var << " +- "
              << standard_error(block_var) << " (canonical " << expected_var << ")");
  CHECK(std::abs(t_mean - t0) < 4.0 * standard_error(block_mean));
  CHECK(std::abs(t_var - expected_var) < 4.0 * standard_error(block_var));
  double n = 0, st = 0, se = 0, stt = 0, ste = 0;
  for (std::size_t k = 0; k < t.size(); ++k) {
    n += 1;
    st += time[k];
    se += e[k];
    stt += time[k] * time[k];
    ste += time[k] * e[k];
  }
  const double slope = (n * ste - st * se) / (n * stt - st * st);
  const auto deviation = [&](const std::vector<double>& x) {
    return standard_error(x) * std::sqrt(static_cast<double>(x.size()));
  };
  INFO("effective energy drift " << slope << " per atom per tau, standard deviation "
                                 << deviation(e) << " (TotEng " << deviation(total) << ")");
  CHECK(std::abs(slope) < 3e-5);
  CHECK(deviation(e) < 0.1 * deviation(total));
  fs::remove_all(dir);
}

TEST_CASE("thermostat input errors are named", "[md][input][thermostat]") {
  const std::string dir = make_temp_dir("cb_md_thermostat_input_");
  const std::string melt = read_text(md_cases + "lj_melt.toml");
  const std::string nvt = " --set thermostat.temperature=1.5 --set thermostat.damp=0.5";
  check_bad_overrides(
      dir, melt,
      {{"a chain for Langevin",
        "--set thermostat.style=langevin --set thermostat.chain=3" + nvt,
        {"thermostat.chain", "nose_hoover"}},
       {"a chain longer than 10",
        "--set thermostat.style=nose_hoover --set thermostat.chain=11" + nvt,
        {"thermostat.chain", "[1, 10]"}},
       {"a chain of 0",
        "--set thermostat.style=nose_hoover --set thermostat.chain=0" + nvt,
        {"thermostat.chain"}},
       {"a seed for Nose-Hoover",
        "--set thermostat.style=nose_hoover --set thermostat.seed=3" + nvt,
        {"thermostat.seed", "csvr"}},
       {"CSVR without damp",
        "--set thermostat.style=csvr --set thermostat.temperature=1.5",
        {"damp"}},
       {"an unknown style", "--set thermostat.style=v-rescale" + nvt, {"thermostat.style"}}});
  fs::remove_all(dir);
}
