// SHAKE cluster finding (solvers/md/shake_clusters.hpp) against Debian's
// LAMMPS: for in.peptide and SPC/E water (lammps-examples) under several
// selections (b, a, t, m), the cluster counts LAMMPS prints and the very bonds
// and angles it constrains (those whose types fix shake turns negative,
// dumped by compute property/local), and the same errors for a cluster of 5
// atoms and for connected clusters. The counts Debian's lmp (29 Sep 2021)
// printed are also checked without lmp. Then hand-built molecules: shapes,
// central atoms, the mass tolerance, errors, target lengths, dof.
#include "cli_runner.hpp"
#include "io/lammps_data.hpp"
#include "lmp_compare.hpp"
#include "solvers/md/shake_clusters.hpp"

#include "core/error.hpp"

#include <catch2/catch_test_macros.hpp>
#include <catch2/matchers/catch_matchers_string.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>
#include <string>

using Catch::Matchers::ContainsSubstring;
using cb::kernels::md::ClusterShape;
using cb::md::ShakeCluster;
using cb::md::ShakeSelection;

namespace {

const std::string peptide_data = cb::test::lammps_examples + "peptide/data.peptide";
const std::string spce_data = cb::test::lammps_examples + "HEAT/data.spce";

const std::string peptide_styles = cb::test::lmp_peptide_setup();
const std::string spce_styles = cb::test::lmp_spce_setup();

using BondKey = std::array<std::int64_t, 3>;   // lower id, higher id, type
using AngleKey = std::array<std::int64_t, 4>;  // centre, lower end, higher end, type

struct Constrained {
  cb::md::ShakeCounts counts;
  std::set<BondKey> bonds;
  std::set<AngleKey> angles;
};

BondKey bond_key(std::int64_t i, std::int64_t j, std::int64_t type) {
  return {std::min(i, j), std::max(i, j), type};
}
AngleKey angle_key(std::int64_t centre, std::int64_t i, std::int64_t j, std::int64_t type) {
  return {centre, std::min(i, j), std::max(i, j), type};
}

Constrained ours(const std::vector<ShakeCluster>& clusters) {
  Constrained c;
  c.counts = cb::md::count_clusters(clusters);
  for (const ShakeCluster& cluster : clusters) {
    for (int k = 0; k + 1 < cluster.size(); ++k)
      c.bonds.insert(bond_key(cluster.atoms[0], cluster.atoms[k + 1], cluster.bond_types[k]));
    if (cluster.shape == ClusterShape::angle3)
      c.angles.insert(
          angle_key(cluster.atoms[0], cluster.atoms[1], cluster.atoms[2], cluster.angle_type));
  }
  return c;
}

cb::io::LammpsData read_full(const std::string& path) {
  return cb::io::read_lammps_data(path, {true, true, true}, cb::AtomStyle::full);
}

std::vector<ShakeCluster> find(const cb::io::LammpsData& data, const ShakeSelection& selection) {
  const cb::md::ShakeAtoms atoms{data.atoms.id, data.atoms.type, data.masses};
  return cb::md::find_shake_clusters(data.atoms.topology, atoms, selection);
}

// The rows of a `dump local` whose type (second column) is negative: the
// bonds or angles fix shake constrains.
std::vector<std::vector<std::int64_t>> negative_rows(const std::string& path) {
  std::ifstream in(path);
  std::vector<std::vector<std::int64_t>> rows;
  std::string line;
  for (int header = 0; header < 9 && std::getline(in, line); ++header) {
  }
  while (std::getline(in, line)) {
    std::istringstream words(line);
    std::vector<std::int64_t> row;
    for (std::int64_t value = 0; words >> value;) row.push_back(value);
    if (row.size() >= 2 && row[1] < 0) rows.push_back(row);
  }
  return rows;
}

// Runs lmp with `styles` and `fix shake ... <selection>`; its counts and
// constrained terms, or the error it printed (in `error`).
Constrained lmp_shake(const std::string& styles, const std::string& selection,
                      std::string* error = nullptr) {
  const std::string dir = cb::test::make_temp_dir("cb_md_shake_");
  cb::test::write_text(
      dir + "/in.lmp",
      styles + "fix s all shake 0.0001 10 0 " + selection +
          "\ncompute bnd all property/local btype batom1 batom2\n"
          "compute ang all property/local atype aatom1 aatom2 aatom3\n"
          "dump b all local 1 dump.bond index c_bnd[1] c_bnd[2] c_bnd[3]\n"
          "dump a all local 1 dump.angle index c_ang[1] c_ang[2] c_ang[3] c_ang[4]\nrun 0\n");
  const cb::test::CliResult r =
      cb::test::run_shell("cd " + dir + " && lmp -in in.lmp -log none -echo none");
  Constrained c;
  if (error) {
    std::smatch m;
    if (std::regex_search(r.output, m, std::regex("ERROR: ([^(\n]*)"))) *error = m[1];
    return c;
  }
  INFO(r.output);
  REQUIRE(r.code == 0);
  auto count = [&](const std::string& what) {
    std::smatch m;
    REQUIRE(std::regex_search(r.output, m, std::regex("(\\d+) = # of " + what)));
    return std::stoll(m[1]);
  };
  c.counts = {count("size 2 clusters"), count("size 3 clusters"), count("size 4 clusters"),
              count("frozen angles")};
  for (const auto& row : negative_rows(dir + "/dump.bond"))
    c.bonds.insert(bond_key(row[2], row[3], -row[1]));
  for (const auto& row : negative_rows(dir + "/dump.angle"))
    c.angles.insert(angle_key(row[3], row[2], row[4], -row[1]));
  return c;
}

void check_counts(const cb::md::ShakeCounts& a, const cb::md::ShakeCounts& b) {
  CHECK(a.size2 == b.size2);
  CHECK(a.size3 == b.size3);
  CHECK(a.size4 == b.size4);
  CHECK(a.frozen_angles == b.frozen_angles);
}

struct Example {
  std::string name, data, styles, lmp_selection;
  ShakeSelection selection;
  cb::md::ShakeCounts recorded;  // Debian lmp 29 Sep 2021
};

const std::vector<Example> examples = {
    {"in.peptide's fix shake",
     peptide_data,
     peptide_styles,
     "b 4 6 8 10 12 14 18 a 31",
     {{4, 6, 8, 10, 12, 14, 18}, {31}, {}, {}},
     {19, 6, 3, 640}},
    {"peptide by mass",
     peptide_data,
     peptide_styles,
     "m 1.0",
     {{}, {}, {}, {1.0}},
     {19, 646, 3, 0}},
    {"peptide by atom type",
     peptide_data,
     peptide_styles,
     "t 4 10 11 14",
     {{}, {}, {4, 10, 11, 14}, {}},
     {19, 646, 3, 0}},
    {"peptide, mixed",
     peptide_data,
     peptide_styles,
     "b 18 a 31 m 16.0",
     {{18}, {31}, {}, {16.0}},
     {6, 1, 0, 640}},
    {"peptide, chains", peptide_data, peptide_styles, "b 9 7", {{9, 7}, {}, {}, {}}, {1, 2, 0, 0}},
    {"SPC/E rigid water", spce_data, spce_styles, "b 1 a 1", {{1}, {1}, {}, {}}, {0, 0, 0, 1024}},
    {"SPC/E by mass", spce_data, spce_styles, "m 1.008", {{}, {}, {}, {1.008}}, {0, 1024, 0, 0}},
};

}  // namespace

TEST_CASE("SHAKE clusters: LAMMPS's counts and constrained bonds and angles") {
  for (const Example& example : examples) {
    INFO(example.name << ": fix shake ... " << example.lmp_selection);
    if (!std::filesystem::exists(example.data)) {
      WARN("skipped: no " << example.data);
      continue;
    }
    const Constrained mine = ours(find(read_full(example.data), example.selection));
    check_counts(mine.counts, example.recorded);
    if (!cb::test::lmp_with(example.data)) {
      WARN("lmp not found: recorded counts only");
      continue;
    }
    const Constrained lmp = lmp_shake(example.styles, example.lmp_selection);
    check_counts(mine.counts, lmp.counts);
    CHECK(mine.bonds.size() == lmp.bonds.size());
    CHECK(mine.bonds == lmp.bonds);
    CHECK(mine.angles.size() == lmp.angles.size());
    CHECK(mine.angles == lmp.angles);
  }
}

TEST_CASE("SHAKE clusters: LAMMPS's errors for 5-atom and connected clusters") {
  if (!std::filesystem::exists(peptide_data)) SKIP("no " + peptide_data);
  const cb::io::LammpsData peptide = read_full(peptide_data);
  ShakeSelection all_bonds;
  for (int type = 1; type <= 18; ++type) all_bonds.bond_types.push_back(type);
  CHECK_THROWS_WITH(find(peptide, all_bonds),
                    ContainsSubstring("Shake cluster of more than 4 atoms"));
  CHECK_THROWS_WITH(find(peptide, {{}, {}, {}, {12.0}}),
                    ContainsSubstring("Shake cluster of more than 4 atoms"));

  // H-C-C-H: both carbons have two constrained bonds.
  const std::string dir = cb::test::make_temp_dir("cb_md_shake_chain_");
  cb::test::write_text(dir + "/data.chain",
                       "chain\n\n4 atoms\n2 atom types\n3 bonds\n1 bond types\n\n"
                       "0 10 xlo xhi\n0 10 ylo yhi\n0 10 zlo zhi\n\nMasses\n\n1 1.008\n2 12.011\n\n"
                       "Atoms # full\n\n1 1 1 0 1 5 5\n2 1 2 0 2 5 5\n3 1 2 0 3.5 5 5\n"
                       "4 1 1 0 4.5 5 5\n\nBonds\n\n1 1 1 2\n2 1 2 3\n3 1 3 4\n");
  CHECK_THROWS_WITH(find(read_full(dir + "/data.chain"), {{1}, {}, {}, {}}),
                    ContainsSubstring("Shake clusters are connected"));
  if (!cb::test::lmp_with(peptide_data)) return;
  std::string error;
  lmp_shake(peptide_styles, "b 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18", &error);
  CHECK_THAT(error, ContainsSubstring("Shake cluster of more than 4 atoms"));
  error.clear();
  lmp_shake("units real\natom_style full\nbond_style zero\nread_data " + dir + "/data.chain\n",
            "b 1", &error);
  CHECK_THAT(error, ContainsSubstring("Shake clusters are connected"));
}

namespace {

// A hand-built system: atoms (id, type) and bonds/angles (type, ids...).
struct Molecules {
  cb::Topology topology;
  cb::md::ShakeAtoms atoms;
  Molecules() {
    topology.types[0] = 3;  // bond types
    topology.types[1] = 2;  // angle types
    atoms.type_masses = {1.008, 15.9994, 12.011};
  }
  void atom(std::int64_t id, int type) {
    atoms.id.push_back(id);
    atoms.type.push_back(type);
  }
  void bond(int type, std::int64_t i, std::int64_t j) {
    topology.of(cb::TermKind::bond).type.push_back(type);
    for (std::int64_t id : {i, j}) topology.of(cb::TermKind::bond).atoms.push_back(id);
  }
  void angle(int type, std::int64_t i, std::int64_t centre, std::int64_t j) {
    topology.of(cb::TermKind::angle).type.push_back(type);
    for (std::int64_t id : {i, centre, j}) topology.of(cb::TermKind::angle).atoms.push_back(id);
  }
  std::vector<ShakeCluster> find(const ShakeSelection& selection) const {
    return cb::md::find_shake_clusters(topology, atoms, selection);
  }
};

// Water 10 (O) - 12, 11 (H); a lone O-H pair 21 (O) - 20 (H); methyl 30 (C)
// with H 33, 31, 32 bonded in that order; bond types: 1 O-H, 2 C-H, 3 O-C.
Molecules hand_built() {
  Molecules m;
  m.atom(10, 2), m.atom(11, 1), m.atom(12, 1), m.atom(20, 1), m.atom(21, 2);
  m.atom(30, 3), m.atom(31, 1), m.atom(32, 1), m.atom(33, 1);
  m.bond(1, 10, 12), m.bond(1, 11, 10), m.bond(1, 21, 20);
  m.bond(2, 30, 33), m.bond(2, 30, 31), m.bond(2, 32, 30);
  m.angle(1, 11, 10, 12), m.angle(2, 31, 30, 32);
  return m;
}

}  // namespace

TEST_CASE("SHAKE clusters of hand-built molecules") {
  const Molecules m = hand_built();
  SECTION("bond types: central atoms first, partners by id") {
    const auto clusters = m.find({{1, 2}, {}, {}, {}});
    REQUIRE(clusters.size() == 3);
    CHECK(clusters[0].shape == ClusterShape::star3);
    CHECK(clusters[0].atoms[0] == 10);
    CHECK(clusters[0].atoms[1] == 11);
    CHECK(clusters[0].atoms[2] == 12);
    CHECK(clusters[1].shape == ClusterShape::pair);  // the lower id is central
    CHECK(clusters[1].atoms[0] == 20);
    CHECK(clusters[1].atoms[1] == 21);
    CHECK(clusters[1].bond_types[0] == 1);
    CHECK(clusters[2].shape == ClusterShape::star4);
    CHECK(clusters[2].atoms[0] == 30);
    CHECK(clusters[2].atoms[3] == 33);
    CHECK(cb::md::constraint_count(clusters) == 2 + 1 + 3);
  }
  SECTION("a frozen angle needs its type selected and the central atom as vertex") {
    const auto clusters = m.find({{1}, {1}, {}, {}});
    REQUIRE(clusters.size() == 2);
    CHECK(clusters[0].shape == ClusterShape::angle3);
    CHECK(clusters[0].angle_type == 1);
    CHECK(cb::md::constraint_count(clusters) == 3 + 1);
    Molecules wrong_vertex = m;
    wrong_vertex.topology.of(cb::TermKind::angle).atoms[1] = 11;
    wrong_vertex.topology.of(cb::TermKind::angle).atoms[0] = 10;
    CHECK(wrong_vertex.find({{1}, {1}, {}, {}})[0].shape == ClusterShape::star3);
    CHECK(m.find({{1}, {2}, {}, {}})[0].shape == ClusterShape::star3);
  }
  SECTION("masses within 0.1 of a listed one, atom types of either end") {
    CHECK(m.find({{}, {}, {}, {1.1}}).size() == 3);  // |1.1 - 1.008| <= 0.1
    CHECK(m.find({{}, {}, {}, {1.2}}).empty());
    CHECK(m.find({{}, {}, {}, {16.0}}).size() == 2);  // the O-H bonds only
    CHECK(m.find({{}, {}, {3}, {}}).size() == 1);     // carbon: the methyl
  }
  SECTION("errors") {
    Molecules five = m;
    five.atom(34, 1);
    five.bond(2, 34, 30);
    CHECK_THROWS_WITH(five.find({{2}, {}, {}, {}}),
                      ContainsSubstring("Shake cluster of more than 4 atoms: atom 30"));
    Molecules connected = m;
    connected.bond(3, 10, 21);  // water O to the O of the O-H pair
    CHECK_THROWS_WITH(connected.find({{1, 3}, {}, {}, {}}),
                      ContainsSubstring("Shake clusters are connected: bonded atoms 10 and 21"));
    CHECK_THROWS_WITH(m.find({{4}, {}, {}, {}}), ContainsSubstring("Invalid bond type index"));
    CHECK_THROWS_WITH(m.find({{}, {0}, {}, {}}), ContainsSubstring("Invalid angle type index"));
    CHECK_THROWS_WITH(m.find({{}, {}, {4}, {}}), ContainsSubstring("Invalid atom type index"));
    CHECK_THROWS_WITH(m.find({{}, {}, {}, {0.0}}), ContainsSubstring("Invalid atom mass"));
    Molecules missing = m;
    missing.bond(1, 21, 99);
    CHECK_THROWS_AS(missing.find({{3}, {}, {}, {}}), cb::InputError);
  }
}

TEST_CASE("SHAKE target lengths: bond r0 and the frozen angle's third side") {
  const Molecules m = hand_built();
  const double pi = std::acos(-1.0);
  const std::vector<double> r0 = {1.0, 1.09, 1.43}, theta0 = {109.47 * pi / 180, 109.5 * pi / 180};
  const auto clusters = m.find({{1, 2}, {1}, {}, {}});
  const auto targets = cb::md::shake_targets(clusters, r0, theta0);
  REQUIRE(targets.size() == 3);
  CHECK(targets[0][0] == 1.0);
  CHECK(targets[0][1] == 1.0);
  CHECK(std::abs(targets[0][2] - 2.0 * std::sin(109.47 / 2 * pi / 180)) < 1e-14);
  CHECK(targets[1][0] == 1.0);
  CHECK(targets[2][2] == 1.09);
  Molecules mixed = m;  // a second water whose bonds are of another type
  mixed.atom(40, 2), mixed.atom(41, 1), mixed.atom(42, 1);
  mixed.bond(3, 40, 41), mixed.bond(3, 40, 42), mixed.angle(1, 41, 40, 42);
  CHECK_THROWS_WITH(cb::md::shake_targets(mixed.find({{1, 3}, {1}, {}, {}}), r0, theta0),
                    ContainsSubstring("Shake angles have different bond types"));
}
