// The slab correction (LAMMPS kspace_modify slab, Yeh & Berkowitz 1999) and
// the non-periodic z boundary it needs, through the `cloudburst` program
// against Debian's lmp run by the test on the same input (skipped where lmp is
// missing): four layers of a polarised rock-salt crystal (400 ions, every ion
// nudged and the cations raised, so that the slab has a dipole moment along
// z) with vacuum above and below, boundary p p f, slab 3.0, with Ewald and
// with PPPM: every energy term and the pressure on 1, 2 and 4 ranks (the z
// axis split in two on 2 and 4), and after 20 NVE steps; the same slab with a
// net charge; the input errors of the boundary and slab keys; an atom leaving
// through a fixed face.
#include "bad_input.hpp"
#include "cli_runner.hpp"
#include "lmp_compare.hpp"

#include <catch2/catch_test_macros.hpp>
#include <catch2/matchers/catch_matchers_string.hpp>

#include <cmath>
#include <cstdint>
#include <filesystem>
#include <map>
#include <sstream>
#include <string>
#include <vector>

using namespace cb::test;
using Catch::Matchers::ContainsSubstring;
namespace fs = std::filesystem;

namespace {

// A displacement in [-amplitude, amplitude) from (atom, axis) alone (SplitMix64).
double nudge(std::uint64_t atom, int axis, double amplitude) {
  std::uint64_t z = atom * 3 + axis + 0x9e3779b97f4a7c15ULL;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  z ^= z >> 31;
  return amplitude * (2.0 * static_cast<double>(z >> 11) / 9007199254740992.0 - 1.0);
}

// Rock salt (a = 5.64 A) 5 x 5 x 2 cells, z in [0, 8.46], in a box 28.2 x
// 28.2 x 30 from z = -10: Na+ (type 1) raised 0.1 A, every ion nudged by up
// to 0.15 A; the first ion's charge `first_charge` (1: neutral).
void write_slab_data(const std::string& path, double first_charge = 1.0) {
  std::ostringstream atoms;
  atoms.precision(17);
  const double half = 2.82;
  int id = 0;
  for (int k = 0; k < 4; ++k) {
    for (int j = 0; j < 10; ++j) {
      for (int i = 0; i < 10; ++i) {
        ++id;
        const int type = (i + j + k) % 2 == 0 ? 1 : 2;
        const double q = id == 1 ? first_charge : type == 1 ? 1.0 : -1.0;
        const double x = i * half + nudge(id, 0, 0.15), y = j * half + nudge(id, 1, 0.15);
        const double z = k * half + nudge(id, 2, 0.15) + (type == 1 ? 0.1 : 0.0);
        atoms << id << " " << type << " " << q << " " << x << " " << y << " " << z << "\n";
      }
    }
  }
  write_text(path,
             "salt slab for tests/test_md_slab.cpp\n\n400 atoms\n2 atom types\n\n"
             "-0.5 27.7 xlo xhi\n-0.5 27.7 ylo yhi\n-10.0 20.0 zlo zhi\n\n"
             "Masses\n\n1 22.99\n2 35.45\n\nAtoms # charge\n\n" +
                 atoms.str());
}

// The lmp input: boundary p p f, lj/cut/coul/long 8 and `kspace` (with
// kspace_modify slab 3.0), then `steps` steps of NVE at 1 fs.
std::string slab_lmp(const std::string& kspace, int steps) {
  std::string text =
      "units real\natom_style charge\nboundary p p f\nread_data slab.data\n"
      "pair_style lj/cut/coul/long 8.0\npair_coeff 1 1 0.1 2.5\npair_coeff 2 2 0.1 4.4\n"
      "pair_modify table 0\n" +
      kspace +
      "\nkspace_modify slab 3.0\nneighbor 2.0 bin\n"
      "thermo_style custom step pe evdwl ecoul elong press etotal\n"
      "thermo_modify format float %.15g\n";
  if (steps > 0) text += "fix 1 all nve\nrun " + std::to_string(steps) + " post no\n";
  return text + "run 0\n";
}

// The same as a case file; `kspace` the body of its [kspace] section.
std::string slab_case(const std::string& kspace) {
  return R"([run]
solver = "md"
case = "data_file"
steps = 0

[time]
dt = 1.0

[md]
units = "real"
atom_style = "charge"
data_file = "slab.data"
boundary = ["p", "p", "f"]

[pair]
style = "lj/cut/coul/long"
cutoff = 8.0
coeff_1_1 = [0.1, 2.5]
coeff_2_2 = [0.1, 4.4]

[neighbor]
skin = 2.0

[diagnostics]
every_steps = 20

[kspace]
)" + kspace +
         "slab = 3.0\n";
}

const std::map<std::string, std::string> columns = {{"PotEng", "pe"},    {"E_vdwl", "evdwl"},
                                                    {"E_coul", "ecoul"}, {"E_long", "elong"},
                                                    {"Press", "press"},  {"TotEng", "tot_eng"}};

// Every column of the last diagnostics row against lmp's, relative; returns
// the largest difference.
double compare_row(const std::string& out, const std::map<std::string, double>& reference,
                   double tolerance, const std::string& where) {
  double worst = 0.0;
  for (const auto& [keyword, column] : columns) {
    const double ours = csv_column(out + "/diagnostics.csv", column).back();
    const double lmp = reference.at(keyword);
    const double relative = std::abs(ours - lmp) / std::abs(lmp);
    INFO(keyword << " " << where << ": cloudburst " << ours << ", lmp " << lmp << ", relative "
                 << relative);
    CHECK(relative <= tolerance);
    worst = std::max(worst, relative);
  }
  return worst;
}

// The slab at step 0 on 1, 2 (1 x 1 x 2) and 4 (1 x 2 x 2) ranks and after 20
// steps on 2, against lmp's 15-digit rows; the run prints `summary`.
// Measured: 4.6e-15 relative at worst with Ewald, 2.8e-14 with PPPM (the sums
// differ from LAMMPS's in order only).
void check_slab(const std::string& prefix, const std::string& lmp_kspace, const std::string& kspace,
                const std::string& summary) {
  const std::string dir = make_temp_dir(prefix);
  write_slab_data(dir + "/slab.data");
  write_text(dir + "/slab.toml", slab_case(kspace));
  const auto reference = lmp_thermo(dir, slab_lmp(lmp_kspace, 0));
  const std::vector<std::pair<int, std::string>> grids = {
      {1, ""}, {2, " --set 'parallel.ranks=[1,1,2]'"}, {4, " --set 'parallel.ranks=[1,2,2]'"}};
  double worst = 0.0;
  for (const auto& [ranks, grid] : grids) {
    const std::string out = dir + "/np" + std::to_string(ranks);
    const std::string args = "run " + dir + "/slab.toml --output-dir " + out + grid;
    const CliResult r = ranks == 1 ? run_cloudburst(args) : run_cloudburst_mpi(ranks, args);
    INFO(r.output);
    REQUIRE(r.code == 0);
    CHECK_THAT(r.output, ContainsSubstring(summary));
    worst = std::max(worst, compare_row(out, reference, 1e-12,
                                        "at step 0 on " + std::to_string(ranks) + " rank(s)"));
  }
  const auto later = lmp_thermo(dir, slab_lmp(lmp_kspace, 20));
  const std::string out = dir + "/np2_20";
  const CliResult r =
      run_cloudburst_mpi(2, "run " + dir + "/slab.toml --output-dir " + out +
                                " --set run.steps=20 --set 'parallel.ranks=[1,1,2]'");
  INFO(r.output);
  REQUIRE(r.code == 0);
  worst = std::max(worst, compare_row(out, later, 1e-11, "after 20 steps on 2 ranks"));
  WARN(prefix << " largest relative difference from lmp: " << worst);
  fs::remove_all(dir);
}

bool have_lmp() {
  return run_shell("command -v lmp").code == 0;
}

}  // namespace

TEST_CASE("a polarised salt slab with Ewald and the slab correction as lmp computes it",
          "[md][validation][slab]") {
  if (!have_lmp()) SKIP("lmp is not installed");
  check_slab("cb_md_slab_ewald_", "kspace_style ewald 1.0e-5",
             "style = \"ewald\"\naccuracy = 1.0e-5\n",
             "kspace ewald: g_ewald = 0.37753649, kmax = 11 11 30, 8670 k vectors");
}

TEST_CASE("a polarised salt slab with PPPM and the slab correction as lmp computes it",
          "[md][validation][slab][pppm]") {
  if (!have_lmp()) SKIP("lmp is not installed");
  check_slab("cb_md_slab_pppm_", "kspace_style pppm 1.0e-5",
             "style = \"pppm\"\naccuracy = 1.0e-5\n",
             "kspace pppm: g_ewald = 0.3835526, grid = 32 32 75, order 5, estimated relative "
             "force accuracy 1.054829e-05");
}

namespace {

// `valid` with `from` replaced by `to`, written to DIR/bad.toml: exit 2, a
// message with each of `expected`, nothing written.
void check_bad_text(const std::string& dir, std::string text, const std::string& from,
                    const std::string& to, const std::vector<std::string>& expected) {
  text.replace(text.find(from), from.size(), to);
  write_text(dir + "/bad.toml", text);
  const CliResult r = run_cloudburst("run " + dir + "/bad.toml --output-dir " + dir + "/out");
  INFO(to << ":\n" << r.output);
  CHECK(r.code == 2);
  for (const auto& e : expected) CHECK_THAT(r.output, ContainsSubstring(e));
  CHECK_FALSE(fs::exists(dir + "/out"));
}

}  // namespace

TEST_CASE("a charged slab: the correction's terms in the net charge as lmp computes them",
          "[md][validation][slab][pppm]") {
  // The slab with its first ion at +1.5 (net charge 0.5): LAMMPS's slabcorr
  // adds -Q sum q z^2 and -Q^2 Lz^2 / 12, and Ewald and PPPM the neutralising
  // background; every term at step 0 on 1 and 2 (z split) ranks (measured:
  // 1.0e-15 relative with Ewald, 1.2e-14 with PPPM).
  if (!have_lmp()) SKIP("lmp is not installed");
  const std::string dir = make_temp_dir("cb_md_slab_charged_");
  write_slab_data(dir + "/slab.data", 1.5);
  for (const std::string style : {"ewald", "pppm"}) {
    const auto reference = lmp_thermo(dir, slab_lmp("kspace_style " + style + " 1.0e-5", 0));
    write_text(dir + "/slab.toml", slab_case("style = \"" + style + "\"\naccuracy = 1.0e-5\n"));
    for (int ranks : {1, 2}) {
      const std::string out = dir + "/" + style + std::to_string(ranks);
      const std::string args = "run " + dir + "/slab.toml --output-dir " + out +
                               (ranks == 1 ? "" : " --set 'parallel.ranks=[1,1,2]'");
      const CliResult r = ranks == 1 ? run_cloudburst(args) : run_cloudburst_mpi(ranks, args);
      INFO(r.output);
      REQUIRE(r.code == 0);
      const double worst =
          compare_row(out, reference, 1e-12, style + " on " + std::to_string(ranks) + " rank(s)");
      WARN("charged slab, " << style << ", " << ranks
                            << " rank(s): largest relative difference from lmp " << worst);
    }
  }
  fs::remove_all(dir);
}

TEST_CASE("boundary and slab input errors are named", "[md][input][slab]") {
  const std::string dir = make_temp_dir("cb_md_slab_errors_");
  write_slab_data(dir + "/slab.data");
  const std::string valid = slab_case("style = \"ewald\"\naccuracy = 1.0e-5\n");
  const std::string boundary = "boundary = [\"p\", \"p\", \"f\"]";
  // In the file: the message names bad.toml:LINE (boundary on line 13, slab
  // on line 30).
  check_bad_text(dir, valid, boundary, "boundary = [\"p\", \"p\", \"p\"]",
                 {"bad.toml:30:", "[kspace] slab needs [md] boundary = [\"p\", \"p\", \"f\"]"});
  check_bad_text(dir, valid, "slab = 3.0", "slab = 1.5",
                 {"bad.toml:30:", "[kspace] slab = 1.5 is out of range", "[2, inf)"});
  check_bad_text(dir, valid, boundary, "boundary = [\"p\", \"p\", \"s\"]",
                 {"bad.toml:13:", "\"s\" along z is not supported"});
  check_bad_text(dir, valid, "slab = 3.0", "",
                 {"bad.toml:", "needs a periodic box", "with [kspace] slab"});
  check_bad_overrides(
      dir, valid,
      {{"two letters", "--set 'md.boundary=[\"p\",\"f\"]'", {"md.boundary", "one letter per axis"}},
       {"slab without k-space",
        "--set kspace.style=none --set pair.style=lj/cut/coul/cut",
        {"[kspace] slab needs style = \"ewald\" or \"pppm\""}},
       {"slab with a fixed y",
        "--set 'md.boundary=[\"p\",\"f\",\"f\"]'",
        {"[kspace] slab needs [md] boundary", "periodic in x and y"}}});
  fs::remove_all(dir);
}

TEST_CASE("an atom leaving through a fixed face stops the run as LAMMPS's lost atoms",
          "[md][slab]") {
  const std::string dir = make_temp_dir("cb_md_lost_");
  write_text(dir + "/two.data",
             "two atoms\n\n2 atoms\n1 atom types\n\n0 10 xlo xhi\n0 10 ylo yhi\n0 10 zlo zhi\n\n"
             "Masses\n\n1 1.0\n\nAtoms # atomic\n\n1 1 5 5 5\n2 1 2 2 9.5\n\n"
             "Velocities\n\n1 0 0 0\n2 0 0 5\n");
  write_text(dir + "/two.toml", R"([run]
solver = "md"
case = "data_file"
steps = 100
[md]
data_file = "two.data"
boundary = ["p", "p", "f"]
[pair]
style = "lj"
cutoff = 2.5
)");
  const CliResult r = run_cloudburst("run " + dir + "/two.toml --output-dir " + dir + "/out");
  INFO(r.output);
  CHECK(r.code == 3);
  CHECK_THAT(r.output, ContainsSubstring("Lost atoms: original 2 current 1"));
  // Before it leaves, dumps write the box as fixed along z.
  const CliResult early = run_cloudburst("run " + dir + "/two.toml --output-dir " + dir +
                                         "/out_early --set run.steps=10 --set dump.every_steps=10");
  INFO(early.output);
  CHECK(early.code == 0);
  CHECK_THAT(read_text(dir + "/out_early/dumps/dump_00000010.lammpstrj"),
             ContainsSubstring("ITEM: BOX BOUNDS pp pp ff"));
  // Periodic along z the same atom wraps and the run ends normally.
  const CliResult periodic = run_cloudburst("run " + dir + "/two.toml --output-dir " + dir +
                                            "/out_p --set 'md.boundary=[\"p\",\"p\",\"p\"]'");
  INFO(periodic.output);
  CHECK(periodic.code == 0);
  fs::remove_all(dir);
}
