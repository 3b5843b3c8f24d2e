// Barostats through the `cloudburst` program: isotropic Berendsen against
// Debian's lmp (fix nve + fix press/berendsen iso) on the LAMMPS melt with
// the tail correction, 1 and 2 ranks; stochastic cell rescaling (C-rescale)
// holding the mean pressure at its target, agreeing across rank counts and
// restarting bit for bit; their input errors.
#include "bad_input.hpp"
#include "block_stats.hpp"
#include "cli_runner.hpp"
#include "h5_read.hpp"
#include "kernels/md/barostat.hpp"
#include "lmp_compare.hpp"

#include <catch2/catch_test_macros.hpp>
#include <catch2/matchers/catch_matchers_floating_point.hpp>
#include <catch2/matchers/catch_matchers_string.hpp>

#include <algorithm>
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

const std::string no_files = " --set output.every_steps=0 --set dump.every_steps=0";

CliResult run_md(int ranks, const std::string& out, const std::string& opts) {
  const std::string args =
      "run " + md_cases + "lj_melt.toml --output-dir " + out + no_files + " " + opts;
  return ranks == 1 ? run_cloudburst(args) : run_cloudburst_mpi(ranks, args);
}

// C-rescale on 256 atoms of the melt (4^3 cells) under CSVR at T = 1.5
// (the target pressure set by each test).
const std::string c_rescale =
    "--set md.lattice_cells=[4,4,4] --set neighbor.every=1 --set neighbor.check=true"
    " --set thermostat.style=csvr --set thermostat.temperature=1.5 --set thermostat.damp=0.1"
    " --set thermostat.seed=2007 --set barostat.style=c_rescale --set barostat.damp=0.5"
    " --set barostat.compressibility=0.05 --set barostat.seed=4711";

}  // namespace

TEST_CASE("barostat kernels: hand-computed factors and remaps", "[md][kernels][barostat]") {
  namespace kmd = cb::kernels::md;
  using Catch::Matchers::WithinRel;
  // Berendsen: (1 - 0.005 / 2 (1 - 3) / 10)^(1/3) = 1.0005^(1/3).
  CHECK_THAT(kmd::berendsen_dilation(1.0, 3.0, 0.005, 2.0, 10.0),
             WithinRel(std::cbrt(1.0005), 1e-15));
  CHECK(kmd::berendsen_dilation(2.0, 2.0, 0.005, 2.0, 10.0) == 1.0);
  // C-rescale, P0 2, P 3, dt 0.005, tau 0.5, beta 0.05, kT 1.5, V 300:
  // drift -0.1 (2 - 3) 0.005 = 5e-4; noise sqrt(2 1.5 0.05 0.005 / 150) =
  // sqrt(5e-6) per unit Gaussian; mu = exp((drift + noise xi) / 3).
  const double drift = 5e-4, noise = std::sqrt(5e-6);
  for (double xi : {0.0, 1.0, -2.5}) {
    CHECK_THAT(kmd::c_rescale_dilation(2.0, 3.0, 0.005, 0.5, 0.05, 1.5, 300.0, 1.0, xi),
               WithinRel(std::exp((drift + noise * xi) / 3.0), 1e-14));
  }
  // nktv2p scales k_B T / V into pressure units: the noise by its root.
  CHECK_THAT(kmd::c_rescale_dilation(3.0, 3.0, 0.005, 0.5, 0.05, 1.5, 300.0, 4.0, 1.0),
             WithinRel(std::exp(2.0 * noise / 3.0), 1e-14));
  // [0, 10] scaled by 1.1 about its centre 5: [-0.5, 10.5]; x = 2.5 (a
  // quarter) goes to -0.5 + 11 / 4 = 2.25.
  double lo = 0.0, hi = 0.0;
  kmd::dilate_about_centre(0.0, 10.0, 1.1, lo, hi);
  CHECK_THAT(lo, WithinRel(-0.5, 1e-14));
  CHECK_THAT(hi, WithinRel(10.5, 1e-14));
  CHECK_THAT(kmd::remap_coordinate(2.5, 0.0, 0.1, lo, hi - lo), WithinRel(2.25, 1e-14));
}

TEST_CASE("Berendsen barostat as lmp fix press/berendsen iso: the LJ melt on 1 and 2 ranks",
          "[md][validation][barostat][mpi]") {
  // examples/melt (4000 atoms from T 3.0, pair_modify tail yes) under fix nve
  // + fix press/berendsen iso 1.0 1.0 2.0 modulus 10, 100 steps, lists
  // checked every step; the volume grows by about 10 %. Tolerance 1e-8 relative.
  if (run_shell("command -v lmp").code != 0) SKIP("lmp is not installed");
  const std::string dir = make_temp_dir("cb_md_berendsen_p_");
  const auto lmp = lmp_thermo_rows(
      dir, lmp_melt_input("pair_modify tail yes\n", "neigh_modify every 1 delay 0 check yes\n",
                          "fix 1 all nve\nfix 2 all press/berendsen iso 1.0 "
                          "1.0 2.0 modulus 10.0\n",
                          "step temp pe etotal press vol density", 20, 100));
  REQUIRE(lmp.size() == 6);
  for (int ranks : {1, 2}) {
    const std::string out = dir + "/np" + std::to_string(ranks);
    const CliResult r = run_md(ranks, out,
                               "--set run.steps=100 --set thermo.every_steps=20"
                               " --set diagnostics.every_steps=20 --set pair.tail=true"
                               " --set neighbor.every=1 --set neighbor.check=true"
                               " --set barostat.style=berendsen --set barostat.pressure=1.0"
                               " --set barostat.damp=2.0 --set barostat.modulus=10.0");
    INFO(r.output);
    REQUIRE(r.code == 0);
    compare_rows(out, lmp, npt_columns, 1e-8, std::to_string(ranks) + " rank(s):");
  }
  CHECK(lmp.back().at("Volume") > 1.05 * lmp.front().at("Volume"));
  fs::remove_all(dir);
}

namespace {

// Rock salt (`salt_case`: cases/md/salt_ewald.toml or salt_pppm.toml, 1000
// ions, units real, lj/cut/coul/long 10 with the k-space style of
// `lmp_kspace`) under fix nve + fix press/berendsen iso 1.0 1.0 100.0
// modulus 250000, 100 steps: the volume grows by 7 %, the k-space part
// follows the box (LAMMPS kspace->setup()). Thermo rows against lmp's on 1
// and 2 ranks within `tolerance`; a restart at step 50 on `restart_ranks`
// ranks ends on the same bits.
void check_salt(const std::string& salt_case, const std::string& lmp_kspace, double tolerance,
                int restart_ranks) {
  const std::string data = md_cases + "data/salt_charge.data";
  if (!lmp_with(data)) SKIP("lmp or " + data + " is missing");
  const std::string dir = make_temp_dir("cb_md_berendsen_salt_");
  const auto lmp = lmp_thermo_rows(
      dir, "units real\natom_style charge\npair_style lj/cut/coul/long 10.0\nread_data " + data +
               "\npair_coeff 1 1 0.1 2.5\npair_coeff 2 2 0.1 4.4\npair_modify table 0\n" +
               lmp_kspace +
               "\nneighbor 2.0 bin\nneigh_modify every 1 delay 0 check yes\n"
               "timestep 1.0\nfix 1 all nve\n"
               "fix 2 all press/berendsen iso 1.0 1.0 100.0 modulus 250000.0\n"
               "thermo_style custom step temp pe etotal press vol density\n"
               "thermo_modify format float %.15g\nthermo 20\nrun 100\n");
  REQUIRE(lmp.size() == 6);
  const std::string opts =
      "--set thermo.every_steps=20 --set diagnostics.every_steps=20 --set output.every_steps=0"
      " --set dump.every_steps=0 --set barostat.style=berendsen --set barostat.pressure=1.0"
      " --set barostat.damp=100.0 --set barostat.modulus=250000.0";
  const auto run = [&](int ranks, const std::string& out, const std::string& more) {
    const std::string args =
        "run " + md_cases + salt_case + " --output-dir " + out + " " + opts + " " + more;
    return ranks == 1 ? run_cloudburst(args) : run_cloudburst_mpi(ranks, args);
  };
  for (int ranks : {1, 2}) {
    const std::string out = dir + "/np" + std::to_string(ranks);
    const CliResult r = run(ranks, out, "--set run.steps=100");
    INFO(r.output);
    REQUIRE(r.code == 0);
    compare_rows(out, lmp, npt_columns, tolerance,
                 salt_case + " on " + std::to_string(ranks) + " rank(s):");
  }
  const std::string split = dir + "/split";
  const CliResult first = run(restart_ranks, split, "--set run.steps=50");
  INFO(first.output);
  REQUIRE(first.code == 0);
  const CliResult rest = run(restart_ranks, split, "--set run.steps=100 --restart auto");
  INFO(rest.output);
  REQUIRE(rest.code == 0);
  const std::string straight =
      dir + "/np" + std::to_string(restart_ranks) + "/checkpoints/chk_00000100.h5";
  for (const char* name : {"x", "v"}) {
    INFO("restart at 50 on " << restart_ranks << " rank(s): " << name);
    CHECK(by_id(split + "/checkpoints/chk_00000100.h5", name) == by_id(straight, name));
  }
  CHECK(lmp.back().at("Volume") > 1.05 * lmp.front().at("Volume"));
  fs::remove_all(dir);
}

}  // namespace

TEST_CASE("Berendsen barostat with an Ewald sum as lmp: rock salt on 1 and 2 ranks, restarted",
          "[md][validation][barostat][ewald][mpi]") {
  // k_max, k vectors and weights follow the box. Measured: within 1.1e-13 of
  // lmp's %.15g rows on 1 and 2 ranks; tolerance 1e-8 relative.
  check_salt("salt_ewald.toml", "kspace_style ewald 1.0e-5", 1e-8, 1);
}

TEST_CASE("Berendsen barostat with PPPM as lmp: rock salt on 1 and 2 ranks, restarted",
          "[md][validation][barostat][pppm][mpi]") {
  // The mesh spacing, ghost mesh layers and G(k) follow the box (27^3 mesh,
  // order 5). Measured: within 3.1e-13 of lmp's %.15g rows on 1 and 2 ranks;
  // tolerance 1e-8 relative.
  check_salt("salt_pppm.toml", "kspace_style pppm 1.0e-5", 1e-8, 2);
}

TEST_CASE("Berendsen barostat with molecules as lmp: the peptide on 1 and 2 ranks",
          "[md][validation][barostat][molecules][mpi]") {
  // validation/md/in.peptide_bench (in.peptide's force field, Ewald 1e-4, 1 fs,
  // no SHAKE) with fix press/berendsen iso 1.0 1.0 100.0 modulus 20000 beside
  // fix nve, 100 steps: bonded terms take their minimum images in the new
  // box; the pressure tensor's diagonal (pair, Ewald, bonded terms and 1-4
  // pairs by axis). Measured: within 1.1e-11 of lmp's %.15g rows (Press; the
  // others 2e-13); tolerance 1e-8 relative.
  const std::string data = lammps_examples + "peptide/data.peptide";
  if (!lmp_with(data)) SKIP("lmp or lammps-examples (" + data + ") is not installed");
  const std::string dir = make_temp_dir("cb_md_berendsen_peptide_");
  const std::string input = peptide_bench_input(
      "fix 1 all nve\nfix 2 all press/berendsen iso 1.0 1.0 100.0 modulus 20000.0",
      "step temp pe etotal press vol density pxx pyy pzz pxy pxz pyz", 20);
  const auto lmp = lmp_thermo_rows(dir, input);
  REQUIRE(lmp.size() == 6);
  write_text(dir + "/peptide.toml",
             peptide_case(data, "style = \"ewald\"\naccuracy = 1.0e-4\n", 100) +
                 "\n[barostat]\nstyle = \"berendsen\"\npressure = 1.0\ndamp = 100.0\n"
                 "modulus = 20000.0\n\n[diagnostics]\nevery_steps = 20\n");
  for (int ranks : {1, 2}) {
    const std::string out = dir + "/np" + std::to_string(ranks);
    const std::string args = "run " + dir + "/peptide.toml --output-dir " + out;
    const CliResult r = ranks == 1 ? run_cloudburst(args) : run_cloudburst_mpi(ranks, args);
    INFO(r.output);
    REQUIRE(r.code == 0);
    compare_rows(out, lmp, npt_tensor_columns, 1e-8,
                 "peptide on " + std::to_string(ranks) + " rank(s):");
  }
  fs::remove_all(dir);
}

TEST_CASE("C-rescale: the mean pressure at its target, volume fluctuations as compressibility",
          "[md][validation][barostat]") {
  // 256 LJ atoms, CSVR at T = 1.5 (damp 0.1), C-rescale with tau_p = 0.5 and
  // beta_T = 0.05 at P0 = 4.5, 5.0 and 5.5, 20000 steps of 0.005 each; P and
  // V every 10 steps over the second half, standard errors from 20 block
  // averages. (1) <P> within 4 standard errors of P0 at each. (2) The
  // isobaric-isothermal ensemble's fluctuation-response relation (the test
  // of the noise term): kappa_T = var V / (k_B T <V>) at P0 = 5 against
  // -(<V>(5.5) - <V>(4.5)) / (1.0 <V>(5)), within 3 combined standard errors.
  // Measured: <P> 4.538 +- 0.042, 5.034 +- 0.043, 5.535 +- 0.045; kappa_T
  // 0.0333 +- 0.0032 (fluctuations) against 0.0405 +- 0.0024 (response).
  const std::string dir = make_temp_dir("cb_md_c_rescale_");
  std::map<double, NptSample> at;
  for (double target : {4.5, 5.0, 5.5}) {
    const std::string out = dir + "/p" + std::to_string(target);
    const CliResult r = run_md(1, out,
                               c_rescale + " --set barostat.pressure=" + std::to_string(target) +
                                   " --set run.steps=20000 --set diagnostics.every_steps=10"
                                   " --set thermo.every_steps=0");
    INFO(r.output);
    REQUIRE(r.code == 0);
    const std::string csv = out + "/diagnostics.csv";
    const NptSample s = npt_sample(csv_column(csv, "step"), csv_column(csv, "press"),
                                   csv_column(csv, "vol"), 10000, 20);
    INFO("P0 " << target << ": <P> " << s.p << " +- " << s.p_error << ", <V> " << s.v << " +- "
               << s.v_error << ", var V " << s.var << " +- " << s.var_error);
    CHECK(std::abs(s.p - target) < 4.0 * s.p_error);
    CHECK(s.p_error < 0.1);
    at[target] = s;
  }
  const Compressibility k = compressibility(at[4.5], at[5.0], at[5.5], 0.5, 1.5);
  INFO("kappa_T " << k.fluctuation << " +- " << k.fluctuation_error << " (fluctuations), "
                  << k.response << " +- " << k.response_error << " (response)");
  CHECK(std::abs(k.fluctuation - k.response) <
        3.0 * std::hypot(k.fluctuation_error, k.response_error));
  fs::remove_all(dir);
}

TEST_CASE("C-rescale: 1 and 2 ranks agree, restarts are bit for bit",
          "[md][barostat][restart][mpi]") {
  // 40 steps of the C-rescale run above: 2 ranks against 1 to round-off (the
  // noise is keyed by the step, not the rank); 20 + 20 steps with a
  // checkpoint against 40 straight, on 1 and on 2 ranks: the same box and
  // the same positions and velocities, bit for bit.
  const std::string dir = make_temp_dir("cb_md_c_rescale_restart_");
  const std::string opts = c_rescale +
                           " --set barostat.pressure=2.0 --set thermo.every_steps=10"
                           " --set diagnostics.every_steps=10";
  std::map<int, std::string> straight;
  for (int ranks : {1, 2}) {
    const std::string out = dir + "/straight" + std::to_string(ranks);
    const CliResult r = run_md(ranks, out, opts + " --set run.steps=40");
    INFO(r.output);
    REQUIRE(r.code == 0);
    straight[ranks] = out + "/checkpoints/chk_00000040.h5";
    const std::string split = dir + "/split" + std::to_string(ranks);
    const CliResult first = run_md(ranks, split, opts + " --set run.steps=20");
    INFO(first.output);
    REQUIRE(first.code == 0);
    const CliResult rest = run_md(ranks, split, opts + " --set run.steps=40 --restart auto");
    INFO(rest.output);
    REQUIRE(rest.code == 0);
    const std::string end = split + "/checkpoints/chk_00000040.h5";
    for (const char* name : {"x", "v", "image"}) {
      INFO(ranks << " rank(s), restart at 20: " << name);
      CHECK(by_id(end, name) == by_id(straight[ranks], name));
    }
    for (const char* column : {"vol", "press", "pe", "temp"}) {
      INFO(ranks << " rank(s), restart at 20: " << column << " at step 40");
      CHECK(csv_column(split + "/diagnostics.csv", column).back() ==
            csv_column(out + "/diagnostics.csv", column).back());
    }
  }
  const std::vector<double> one = by_id(straight[1], "x"), two = by_id(straight[2], "x");
  REQUIRE(one.size() == two.size());
  double most = 0.0;
  for (std::size_t k = 0; k < one.size(); ++k) most = std::max(most, std::abs(one[k] - two[k]));
  const double v1 = csv_column(dir + "/straight1/diagnostics.csv", "vol").back();
  const double v2 = csv_column(dir + "/straight2/diagnostics.csv", "vol").back();
  INFO("1 vs 2 ranks after 40 steps: max |dx| " << most << ", volume " << v1 << " vs " << v2);
  CHECK(most < 1e-10);
  CHECK(std::abs(v1 - v2) < 1e-12 * v1);
  fs::remove_all(dir);
}

TEST_CASE("barostat input errors are named", "[md][input][barostat]") {
  const std::string dir = make_temp_dir("cb_md_barostat_input_");
  const std::string melt = read_text(md_cases + "lj_melt.toml");
  const std::string berendsen =
      " --set barostat.style=berendsen --set barostat.pressure=1.0 --set barostat.damp=1.0";
  check_bad_overrides(
      dir, melt,
      {{"an unknown style", "--set barostat.style=parrinello_rahman", {"barostat.style"}},
       {"a negative damp",
        "--set barostat.style=berendsen --set barostat.pressure=1.0 --set barostat.damp=-1.0",
        {"barostat.damp"}},
       {"a zero modulus", berendsen + " --set barostat.modulus=0.0", {"barostat.modulus"}},
       {"no pressure", "--set barostat.style=berendsen --set barostat.damp=1.0", {"pressure"}},
       {"a compressibility for Berendsen",
        berendsen + " --set barostat.compressibility=0.1",
        {"barostat.compressibility", "c_rescale"}},
       {"C-rescale without compressibility",
        "--set barostat.style=c_rescale --set barostat.pressure=1.0 --set barostat.damp=1.0"
        " --set barostat.temperature=1.0",
        {"compressibility"}},
       {"C-rescale without a temperature",
        "--set barostat.style=c_rescale --set barostat.pressure=1.0 --set barostat.damp=1.0"
        " --set barostat.compressibility=0.1",
        {"temperature"}},
       {"a key without a style", "--set barostat.pressure=1.0", {"barostat.pressure", "none"}},
       {"MTK without the Nose-Hoover thermostat",
        "--set barostat.style=mtk --set barostat.pressure=1.0 --set barostat.damp=1.0",
        {"barostat.style", "nose_hoover"}},
       {"a modulus for MTK",
        "--set thermostat.style=nose_hoover --set thermostat.temperature=1.0"
        " --set thermostat.damp=0.5 --set barostat.style=mtk --set barostat.pressure=1.0"
        " --set barostat.damp=1.0 --set barostat.modulus=10.0",
        {"barostat.modulus", "berendsen"}},
       {"a coupling for Berendsen",
        berendsen + " --set barostat.coupling=\"aniso\"",
        {"barostat.coupling", "mtk"}},
       {"an unknown MTK coupling",
        "--set thermostat.style=nose_hoover --set thermostat.temperature=1.0"
        " --set thermostat.damp=0.5 --set barostat.style=mtk --set barostat.pressure=1.0"
        " --set barostat.damp=1.0 --set barostat.coupling=\"xy\"",
        {"barostat.coupling"}},
       {"an MTK chain of none",
        "--set thermostat.style=nose_hoover --set thermostat.temperature=1.0"
        " --set thermostat.damp=0.5 --set barostat.style=mtk --set barostat.pressure=1.0"
        " --set barostat.damp=1.0 --set barostat.chain=0",
        {"barostat.chain"}},
       {"a box fixed along z",
        "--set 'md.boundary=[\"p\",\"p\",\"f\"]'" + berendsen,
        {"barostat.style", "periodic"}}});
  fs::remove_all(dir);
}

TEST_CASE("a box that shrinks below the ghost reach stops the run", "[md][barostat][mpi]") {
  // 256 atoms on 2 ranks along x (sub-boxes 3.36 thick, one ghost hop for
  // cutoff + skin = 3.1) compressed towards P0 = 30: measured, the sub-boxes
  // pass below 3.1 at step 10; the run stops there with exit 3 and says why.
  using Catch::Matchers::ContainsSubstring;
  const std::string dir = make_temp_dir("cb_md_barostat_thin_");
  const CliResult r = run_md(2, dir + "/out",
                             "--set md.lattice_cells=[4,4,4] --set neighbor.skin=0.6"
                             " --set neighbor.every=1 --set neighbor.check=true --set run.steps=100"
                             " --set barostat.style=berendsen --set barostat.pressure=30.0"
                             " --set barostat.damp=0.5 --set barostat.modulus=10.0");
  INFO(r.output);
  CHECK(r.code == 3);
  CHECK_THAT(r.output, ContainsSubstring("the box shrank to sub-boxes"));
  CHECK_THAT(r.output, ContainsSubstring("would need 2 hops"));
  fs::remove_all(dir);
}
