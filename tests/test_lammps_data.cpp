// LAMMPS data files (atom_style atomic, charge, full): reading what write_data produces
// (comments, sections in any order, rank-chunked unsorted atoms, velocities
// matched by id, image flags, Coeffs sections), periodic wrapping, molecular
// topology (Bonds, Angles, Dihedrals, Impropers), every kind of bad content
// named by file:line, LAMMPS's own example files, and a bit-exact write/read
// round trip from atoms and terms spread over the ranks.
#include "core/error.hpp"
#include "fake_particle_solver.hpp"
#include "h5_read.hpp"
#include "io/lammps_data.hpp"
#include "mpi_test_support.hpp"

#include <catch2/catch_test_macros.hpp>
#include <catch2/matchers/catch_matchers_string.hpp>

#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

namespace {

namespace fs = std::filesystem;
using Catch::Matchers::ContainsSubstring;
using Catch::Matchers::StartsWith;

// A file of this rank's own (the reader is not collective).
class LocalFile {
 public:
  explicit LocalFile(const std::string& text) {
    std::string pattern = (fs::temp_directory_path() / "cb_lammps_data_XXXXXX").string();
    const int fd = mkstemp(&pattern[0]);
    REQUIRE(fd >= 0);
    path_ = pattern;
    std::ofstream(path_) << text;
    ::close(fd);
  }
  ~LocalFile() { std::remove(path_.c_str()); }
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

// As LAMMPS's write_data lays it out (2 ranks: atoms chunked, unsorted), with
// comments, the velocities before the atoms and a Pair Coeffs section.
const char* const lammps_file =
    R"(LAMMPS data file via write_data, version 29 Sep 2021, timestep = 50

4 atoms   # a comment
2 atom types

0 3.5 xlo xhi
-1 1 ylo yhi
# a comment line in the header
0 2.25e0 zlo zhi

Velocities

3 0.5 -0.25 1e-3
1 -1.5 2 3
4 0 0 0
2 0.125 0.0625 -7

Masses

1 1
2 39.948 # argon

Pair Coeffs # lj/cut

1 1 1
2 0.5 1.2

Atoms # atomic

3 2 1.5 0.5 1.0 0 -1 2
1 1 0.1 -0.9 0.2 1 0 0
4 1 3.25 0.75 2.0 0 0 -3
2 2 3.0 0.0 0.0 -2 5 0
)";

std::string with_line(const std::string& text, const std::string& from, const std::string& to) {
  const std::size_t at = text.find(from);
  REQUIRE(at != std::string::npos);
  return text.substr(0, at) + to + text.substr(at + from.size());
}

// The InputError message of reading `text` as `style`.
std::string error_of(const std::string& text, cb::AtomStyle style = cb::AtomStyle::atomic) {
  LocalFile file(text);
  try {
    cb::io::read_lammps_data(file.path(), {true, true, true}, style);
  } catch (const cb::InputError& e) {
    const std::string message = e.what();
    CHECK_THAT(message, StartsWith(file.path() + ":"));
    return message.substr(file.path().size());
  }
  FAIL("no error for a bad data file");
  return "";
}

}  // namespace

TEST_CASE("LAMMPS data: a write_data file with comments, any order, unsorted", "[lammps]") {
  LocalFile file(lammps_file);
  const cb::io::LammpsData data = cb::io::read_lammps_data(file.path());
  CHECK(data.title == "LAMMPS data file via write_data, version 29 Sep 2021, timestep = 50");
  CHECK(data.atom_types == 2);
  CHECK(data.box.lo == cb::Real3{0.0, -1.0, 0.0});
  CHECK(data.box.hi == cb::Real3{3.5, 1.0, 2.25});
  CHECK(data.masses == std::vector<double>{1.0, 39.948});
  CHECK(data.has_velocities);
  const cb::HostParticles& a = data.atoms;
  CHECK(a.id == std::vector<std::int64_t>{3, 1, 4, 2});  // file order
  CHECK(a.type == std::vector<int>{2, 1, 1, 2});
  CHECK(a.x == std::vector<double>{1.5, 0.5, 1.0, 0.1, -0.9, 0.2, 3.25, 0.75, 2.0, 3.0, 0.0, 0.0});
  CHECK(a.image == std::vector<int>{0, -1, 2, 1, 0, 0, 0, 0, -3, -2, 5, 0});
  CHECK(a.v == std::vector<double>{0.5, -0.25, 1e-3, -1.5, 2, 3, 0, 0, 0, 0.125, 0.0625, -7});
  CHECK(a.topology.empty());
  CHECK(data.coeffs.pair.style == "lj/cut");
  CHECK(data.coeffs.pair.line == 23);
  CHECK(data.coeffs.pair.rows == std::vector<std::vector<double>>{{1, 1}, {0.5, 1.2}});
  CHECK(data.coeffs.pair.lines == std::vector<long>{25, 26});
  CHECK(data.coeffs.terms[0].empty());
}

TEST_CASE("LAMMPS data: no image flags, no velocities, atoms outside the box", "[lammps]") {
  const std::string text =
      "title\n\n2 atoms\n1 atom types\n0 2 xlo xhi\n0 2 ylo yhi\n0 2 zlo zhi\n\n"
      "Atoms\n\n1 1 2.0 -0.5 5.25\n2 1 1.0 1.0 1.0\n";
  LocalFile file(text);
  const cb::io::LammpsData data = cb::io::read_lammps_data(file.path());
  CHECK_FALSE(data.has_velocities);
  CHECK(data.masses.empty());
  CHECK(data.atoms.v == std::vector<double>(6, 0.0));
  // Wrapped into [0, 2) with the image flags counting the box lengths moved.
  CHECK(data.atoms.x == std::vector<double>{0.0, 1.5, 1.25, 1.0, 1.0, 1.0});
  CHECK(data.atoms.image == std::vector<int>{1, -1, 2, 0, 0, 0});
  CHECK_THROWS_WITH(cb::io::read_lammps_data(file.path(), {true, true, false}),
                    ContainsSubstring(":11: atom outside the box along the non-periodic z axis"));
}

TEST_CASE("LAMMPS data: bad content is named by file:line", "[lammps]") {
  const std::string good = lammps_file;
  CHECK(error_of(with_line(good, "4 atoms", "4 atomz")) == ":3: unknown header line '4 atomz'");
  CHECK_THAT(error_of(with_line(good, "0 2.25e0 zlo zhi", "0 2.25 zlo zhi\n0 0 0 xy xz yz")),
             ContainsSubstring(":10: a triclinic (tilted) box is not supported"));
  CHECK_THAT(error_of(with_line(good, "2 atom types", "2 atom types\n3 bonds")),
             ContainsSubstring(
                 ":5: 'bonds': atom_style atomic has no molecular topology; use atom_style full"));
  CHECK_THAT(error_of(with_line(good, "2 atom types", "2 atom types\n1 ellipsoids")),
             ContainsSubstring(":5: 'ellipsoids': atom_style atomic has no ellipsoids"));
  CHECK(error_of(with_line(good, "0 2.25e0 zlo zhi", "")) == ":11: header has no 'zlo zhi' line");
  CHECK_THAT(error_of(with_line(good, "0 3.5 xlo xhi", "3.5 0 xlo xhi")),
             ContainsSubstring(":6: xlo xhi: the upper bound must exceed the lower one"));
  CHECK_THAT(error_of(with_line(good, "4 1 3.25", "4 3 3.25")),
             ContainsSubstring(":32: atom type 3 is outside 1..2"));
  CHECK_THAT(error_of(with_line(good, "4 1 3.25", "3 1 3.25")),
             ContainsSubstring(":32: atom id 3 appears twice (also at line 30)"));
  CHECK_THAT(error_of(with_line(good, "Atoms # atomic", "Atoms # full")),
             ContainsSubstring(":28: Atoms section of style 'full'"));
  CHECK_THAT(error_of(with_line(good, "1 1 0.1 -0.9 0.2 1 0 0", "1 1 0.1 -0.9 0.2 1 0")),
             ContainsSubstring(":31: expected 'id type x y z' or 'id type x y z ix iy iz'"));
  CHECK_THAT(error_of(with_line(good, "1 1 0.1 -0.9", "1 1 0.1 abc")),
             ContainsSubstring(":31: expected a number for a coordinate, got 'abc'"));
  CHECK_THAT(error_of(with_line(good, "2 2 3.0 0.0 0.0 -2 5 0\n", "")),
             ContainsSubstring("the file ends after 3 of 4 entries of section 'Atoms'"));
  CHECK_THAT(error_of(with_line(good, "4 0 0 0", "5 0 0 0")),
             ContainsSubstring(":15: velocity of atom 5, which the Atoms section lacks"));
  CHECK_THAT(error_of(with_line(good, "4 0 0 0", "1 0 0 0")),
             ContainsSubstring(":15: velocity of atom 1 given twice (also at line 14)"));
  CHECK_THAT(error_of(with_line(good, "Pair Coeffs # lj/cut", "Bonds")),
             ContainsSubstring(":23: section 'Bonds': atom_style atomic has no molecular "
                               "topology; use atom_style full"));
  CHECK_THAT(error_of(with_line(good, "Pair Coeffs # lj/cut", "Ellipsoids")),
             ContainsSubstring(":23: section 'Ellipsoids' is not supported (the reader knows "
                               "Masses, Atoms, Velocities, Bonds"));
  CHECK_THAT(error_of(with_line(good, "2 0.5 1.2", "2 0.5 lj")),
             ContainsSubstring(":26: expected a number for a coefficient, got 'lj'"));
  CHECK_THAT(error_of(good + "\nMasses\n\n1 1\n2 2\n"),
             ContainsSubstring(":35: section 'Masses' appears twice (first at line 18)"));
  CHECK_THAT(error_of(with_line(good, "2 39.948 # argon", "1 39.948")),
             ContainsSubstring(":21: the mass of type 1 is given twice"));
  CHECK_THAT(error_of(with_line(good, "2 39.948 # argon", "2 -1")),
             ContainsSubstring(":21: the mass of type 2 must be positive"));
  CHECK_THAT(error_of(with_line(good, "4 atoms", "0 atoms")),
             ContainsSubstring(":3: the atom count must be at least 1"));
  CHECK_THAT(error_of(with_line(good, "1 1 0.1 -0.9 0.2 1 0 0", "1 1 0.1 -0.9 0.2 3000000000 0 0")),
             ContainsSubstring(":31: atom 1: image flag 3000000000 is outside the 32-bit range"));
  // 1e6 box lengths out along a periodic axis: wrapped, and its flag too big.
  CHECK_THAT(error_of(with_line(good, "1 1 0.1 -0.9 0.2 1 0 0", "1 1 1e16 -0.9 0.2 1 0 0")),
             ContainsSubstring(":31: atom 1: image flag"));
  CHECK_THAT(error_of(with_line(good, "1 1 0.1 -0.9 0.2 1 0 0", "1 1 3.0 0.0 0.0 -2 5 0")),
             ContainsSubstring("atom 2 sits exactly on atom 1 (line 31)"));
  const std::string no_atoms = good.substr(0, good.find("Atoms # atomic"));
  CHECK_THAT(error_of(no_atoms), ContainsSubstring("announces 4 atoms but the file has no Atoms"));
  CHECK_THROWS_WITH(cb::io::read_lammps_data("/nonexistent/file.data"),
                    StartsWith("/nonexistent/file.data: cannot open the LAMMPS data file"));
}

TEST_CASE("LAMMPS data: write_data from every rank, read back bit for bit", "[lammps]") {
  cb::test::SharedTempDir tmp("cb_lammps_data_");
  cb::test::FakeParticleSolver solver(MPI_COMM_WORLD, 41);
  const std::string path = tmp.path() + "/out.data";
  cb::io::write_lammps_data(path, MPI_COMM_WORLD, solver.box(), solver.type_masses(),
                            solver.owned_particles(), "written by test_lammps_data");
  const cb::io::LammpsData data = cb::io::read_lammps_data(path, solver.box().periodic);
  const cb::HostParticles all = solver.all_sorted();
  CHECK(data.title == "written by test_lammps_data");
  CHECK(data.box.lo == solver.box().lo);
  CHECK(data.box.hi == solver.box().hi);
  CHECK(data.atom_types == 2);
  CHECK(data.masses == solver.type_masses());
  CHECK(data.has_velocities);
  CHECK(data.atoms.id == all.id);  // sorted by id
  CHECK(data.atoms.type == all.type);
  CHECK(data.atoms.image == all.image);
  CHECK(cb::test::bitwise_equal(data.atoms.x, all.x));
  CHECK(cb::test::bitwise_equal(data.atoms.v, all.v));
}

TEST_CASE("LAMMPS data: atom_style charge and full, read and written back", "[lammps][charges]") {
  const std::string header =
      "title\n\n3 atoms\n2 atom types\n0 4 xlo xhi\n0 4 ylo yhi\n0 4 zlo zhi\n\n"
      "Masses\n\n1 15.9994\n2 1.008\n\n";
  LocalFile full(header +
                 "Atoms # full\n\n2 7 2 0.4238 1.0 1.5 2.0 0 0 1\n1 7 1 -0.8476 1.25 1.5 2.0\n"
                 "3 7 2 0.4238 1.5 1.75 2.0\n");
  const cb::io::LammpsData data =
      cb::io::read_lammps_data(full.path(), {true, true, true}, cb::AtomStyle::full);
  CHECK(data.atoms.style == cb::AtomStyle::full);
  CHECK(data.atoms.id == std::vector<std::int64_t>{2, 1, 3});
  CHECK(data.atoms.type == std::vector<int>{2, 1, 2});
  CHECK(data.atoms.q == std::vector<double>{0.4238, -0.8476, 0.4238});
  CHECK(data.atoms.molecule == std::vector<std::int64_t>{7, 7, 7});
  CHECK(data.atoms.x == std::vector<double>{1.0, 1.5, 2.0, 1.25, 1.5, 2.0, 1.5, 1.75, 2.0});
  CHECK(data.atoms.image == std::vector<int>{0, 0, 1, 0, 0, 0, 0, 0, 0});
  // The same file read as another style: the columns do not fit, or the
  // section comment names the style.
  CHECK_THROWS_WITH(
      cb::io::read_lammps_data(full.path(), {true, true, true}, cb::AtomStyle::charge),
      ContainsSubstring("Atoms section of style 'full'"));
  LocalFile charge(header +
                   "Atoms\n\n1 1 -0.8476 1.25 1.5 2.0\n2 2 0.4238 1.0 1.5 2.0\n"
                   "3 2 0.4238 1.5 1.75 2.0 0 0\n");
  CHECK_THROWS_WITH(
      cb::io::read_lammps_data(charge.path(), {true, true, true}, cb::AtomStyle::charge),
      ContainsSubstring(":18: expected 'id type q x y z' or 'id type q x y z ix iy iz'"));
  // Written at full precision with the style's columns, read back the same.
  if (cb::test::world_rank() == 0) {
    const std::string path = full.path() + ".out";
    cb::io::write_lammps_data(path, MPI_COMM_SELF, data.box, data.masses, data.atoms, "again");
    const cb::io::LammpsData again =
        cb::io::read_lammps_data(path, {true, true, true}, cb::AtomStyle::full);
    CHECK(again.atoms.id == std::vector<std::int64_t>{1, 2, 3});  // sorted by id
    CHECK(again.atoms.q == std::vector<double>{-0.8476, 0.4238, 0.4238});
    CHECK(again.atoms.molecule == std::vector<std::int64_t>{7, 7, 7});
    CHECK(again.atoms.image == std::vector<int>{0, 0, 0, 0, 0, 1, 0, 0, 0});
    std::remove(path.c_str());
  }
}

namespace {

// atom_style full with every kind of term, the Bonds before the Atoms, and
// every Coeffs section (one type's lines out of order).
const char* const molecule_file = R"(a chain of five atoms

5 atoms
2 atom types
4 bonds
2 bond types
3 angles
1 angle types
2 dihedrals
1 dihedral types
1 impropers
1 improper types
5 extra special per atom

0 10 xlo xhi
0 10 ylo yhi
0 10 zlo zhi

Masses

1 12.011
2 1.008

Bonds

1 1 1 2
2 2 2 3
3 1 3 4
4 2 4 5

Pair Coeffs # lj/cut/coul/long

1 0.066 3.5
2 0.03 2.5

Bond Coeffs # harmonic

2 340 1.09
1 268 1.529

Angle Coeffs # harmonic

1 58.35 112.7

Dihedral Coeffs

1 1.3 -0.05 0.2 0

Improper Coeffs # cvff

1 2.5 -1 2

Atoms # full

1 1 1 -0.18 1 1 1
2 1 1 -0.12 2 1 1
3 1 1 -0.12 3 1 1
4 1 1 -0.12 4 1 1
5 1 2 0.06 5 1 1 0 0 1

Angles

1 1 1 2 3
2 1 2 3 4
3 1 3 4 5

Dihedrals

1 1 1 2 3 4
2 1 5 4 3 2

Impropers

1 1 2 1 3 4
)";

// The line number of the first line of `text` containing `part`.
long line_of(const std::string& text, const std::string& part) {
  const std::size_t at = text.find(part);
  REQUIRE(at != std::string::npos);
  return 1 + long(std::count(text.begin(), text.begin() + long(at), '\n'));
}

std::string at_line(const std::string& text, const std::string& part, const std::string& message) {
  return ":" + std::to_string(line_of(text, part)) + ": " + message;
}

cb::io::LammpsData read_full(const std::string& path) {
  return cb::io::read_lammps_data(path, {true, true, true}, cb::AtomStyle::full);
}

cb::TermList terms(std::vector<int> type, std::vector<std::int64_t> atoms) {
  cb::TermList list;
  list.type = std::move(type);
  list.atoms = std::move(atoms);
  return list;
}

bool same_terms(const cb::TermList& a, const cb::TermList& b) {
  return a.type == b.type && a.atoms == b.atoms;
}

// Coeffs for the chain topology of the fake solver (2, 3, 2, 1 types).
cb::DataCoeffs chain_coeffs() {
  cb::DataCoeffs coeffs;
  coeffs.pair.style = "lj/cut";
  coeffs.pair.rows = {{1.0, 1.0}, {0.1 + 0.2, 2.0 / 3.0}};
  coeffs.terms[0].style = "harmonic";
  coeffs.terms[0].rows = {{340.0, 1.09}, {268.0, 1.0 / 7.0}};
  coeffs.terms[1].rows = {{58.35, 112.7}, {1.0, 2.0}, {3.0, -4.5e-300}};
  coeffs.terms[2].style = "charmm";
  coeffs.terms[2].rows = {{2.5, 2.0, 180.0, 0.5}, {0.2, 1.0, 0.0, 1.0}};
  return coeffs;  // no Improper Coeffs
}

bool same_rows(const cb::CoeffRows& a, const cb::CoeffRows& b) {
  if (a.style != b.style || a.rows.size() != b.rows.size()) return false;
  for (std::size_t t = 0; t < a.rows.size(); ++t)
    if (!cb::test::bitwise_equal(a.rows[t], b.rows[t])) return false;
  return true;
}

std::string file_text(const std::string& path) {
  std::ifstream in(path);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

}  // namespace

TEST_CASE("LAMMPS data: atom_style full with bonds, angles, dihedrals, impropers, coeffs",
          "[lammps][topology]") {
  LocalFile file(molecule_file);
  const cb::io::LammpsData data = read_full(file.path());
  const cb::Topology& topology = data.atoms.topology;
  CHECK(data.atoms.id == std::vector<std::int64_t>{1, 2, 3, 4, 5});
  CHECK(topology.types[0] == 2);
  CHECK(topology.types[1] == 1);
  CHECK(topology.types[2] == 1);
  CHECK(topology.types[3] == 1);
  // In file order, the atoms of each term in the order written.
  CHECK(same_terms(topology.of(cb::TermKind::bond), terms({1, 2, 1, 2}, {1, 2, 2, 3, 3, 4, 4, 5})));
  CHECK(
      same_terms(topology.of(cb::TermKind::angle), terms({1, 1, 1}, {1, 2, 3, 2, 3, 4, 3, 4, 5})));
  CHECK(same_terms(topology.of(cb::TermKind::dihedral), terms({1, 1}, {1, 2, 3, 4, 5, 4, 3, 2})));
  CHECK(same_terms(topology.of(cb::TermKind::improper), terms({1}, {2, 1, 3, 4})));
  const cb::DataCoeffs& coeffs = data.coeffs;
  CHECK(coeffs.pair.style == "lj/cut/coul/long");
  CHECK(coeffs.pair.rows == std::vector<std::vector<double>>{{0.066, 3.5}, {0.03, 2.5}});
  CHECK(coeffs.terms[0].style == "harmonic");
  CHECK(coeffs.terms[0].line == line_of(molecule_file, "Bond Coeffs"));
  CHECK(coeffs.terms[0].rows == std::vector<std::vector<double>>{{268, 1.529}, {340, 1.09}});
  CHECK(coeffs.terms[0].lines == std::vector<long>{line_of(molecule_file, "1 268 1.529"),
                                                   line_of(molecule_file, "2 340 1.09")});
  CHECK(coeffs.terms[1].rows == std::vector<std::vector<double>>{{58.35, 112.7}});
  CHECK(coeffs.terms[2].style.empty());
  CHECK(coeffs.terms[2].rows == std::vector<std::vector<double>>{{1.3, -0.05, 0.2, 0}});
  CHECK(coeffs.terms[3].style == "cvff");
  CHECK(coeffs.terms[3].rows == std::vector<std::vector<double>>{{2.5, -1, 2}});
  // The same counts of zero, or no topology lines at all, read as atomic.
  LocalFile atomic(
      "t\n\n1 atoms\n1 atom types\n0 bonds\n0 bond types\n0 1 xlo xhi\n"
      "0 1 ylo yhi\n0 1 zlo zhi\n\nAtoms\n\n1 1 0.5 0.5 0.5\n");
  CHECK(cb::io::read_lammps_data(atomic.path()).atoms.topology.empty());
}

TEST_CASE("LAMMPS data: bad topology and coefficients are named by file:line",
          "[lammps][topology]") {
  const std::string good = molecule_file;
  const auto full = cb::AtomStyle::full;
  auto error = [&](const std::string& from, const std::string& to) {
    return error_of(with_line(good, from, to), full);
  };
  // The bond's line, although the Atoms section comes later.
  CHECK(error("4 2 4 5", "4 2 4 9") ==
        at_line(good, "4 2 4 5", "bond names atom 9, which the Atoms section lacks"));
  CHECK(error("1 1 2 1 3 4", "1 1 2 1 3 6") ==
        at_line(good, "1 1 2 1 3 4", "improper names atom 6, which the Atoms section lacks"));
  CHECK(error("2 2 2 3", "2 3 2 3") ==
        at_line(good, "2 2 2 3", "bond type 3 is outside 1..2 (header 'bond types')"));
  CHECK(error("2 1 5 4 3 2", "2 0 5 4 3 2") ==
        at_line(good, "2 1 5 4 3 2", "dihedral type 0 is outside 1..1 (header 'dihedral types')"));
  CHECK(error("1 1 1 2 3\n", "1 1 1 2 1\n") ==
        at_line(good, "1 1 1 2 3\n", "angle 1 names atom 1 twice"));
  CHECK(error("1 1 1 2 3 4", "1 1 1 2 3") ==
        at_line(good, "1 1 1 2 3 4", "expected 'id type atom1 atom2 atom3 atom4', got 5 values"));
  CHECK(error("3 1 3 4\n", "3 1 3 4 5\n") ==
        at_line(good, "3 1 3 4\n", "expected 'id type atom1 atom2', got 5 values"));
  CHECK(error("3 1 3 4\n", "0 1 3 4\n") ==
        at_line(good, "3 1 3 4\n", "bond id 0 must be positive"));
  CHECK(error("3 1 3 4\n", "3 1 3 -4\n") ==
        at_line(good, "3 1 3 4\n", "atom id -4 must be positive"));
  // Coeffs: a type twice, out of range, missing, no numbers.
  CHECK(error("1 268 1.529", "2 268 1.529") ==
        at_line(good, "1 268 1.529",
                "the coefficients of bond type 2 are given twice (also at line " +
                    std::to_string(line_of(good, "2 340 1.09")) + ")"));
  CHECK(error("1 58.35 112.7", "2 58.35 112.7") ==
        at_line(good, "1 58.35 112.7", "angle type 2 is outside 1..1 (header 'angle types')"));
  CHECK(error("2 0.03 2.5", "3 0.03 2.5") ==
        at_line(good, "2 0.03 2.5", "atom type 3 is outside 1..2 (header 'atom types')"));
  const std::string short_coeffs = with_line(good, "1 268 1.529\n", "");
  CHECK(error_of(short_coeffs, full) ==
        at_line(short_coeffs, "Angle Coeffs",
                "section 'Bond Coeffs' ends after 1 of 2 entries: expected an entry, got "
                "'Angle Coeffs'"));
  CHECK(error("1 2.5 -1 2", "1") ==
        at_line(good, "1 2.5 -1 2", "expected 'type coefficient ...', got 1 value"));
  CHECK(error("1 2.5 -1 2", "1 2.5 cvff 2") ==
        at_line(good, "1 2.5 -1 2", "expected a number for a coefficient, got 'cvff'"));
  CHECK(error("Improper Coeffs # cvff", "BondBond Coeffs") ==
        at_line(good, "Improper Coeffs",
                "section 'BondBond Coeffs' (class2 force fields) is not supported"));
  CHECK(error("Improper Coeffs # cvff", "AngleAngleTorsion Coeffs") ==
        at_line(good, "Improper Coeffs",
                "section 'AngleAngleTorsion Coeffs' (class2 force fields) is not supported"));
  CHECK_THAT(error("Improper Coeffs # cvff", "Improper Coefs"),
             ContainsSubstring(at_line(good, "Improper Coeffs",
                                       "section 'Improper Coefs' is not supported (the reader "
                                       "knows Masses, Atoms, Velocities, Bonds, Angles")));
  // Header counts and sections that do not match.
  const std::string no_dihedrals = with_line(good, "2 dihedrals\n", "");
  CHECK(error_of(no_dihedrals, full) ==
        at_line(no_dihedrals, "Dihedrals",
                "section 'Dihedrals', but the header announces no dihedrals (an 'N dihedrals' "
                "line)"));
  const std::string no_angle_types = with_line(good, "1 angle types\n", "");
  CHECK(error_of(no_angle_types, full) ==
        at_line(no_angle_types, "Angle Coeffs",
                "section 'Angle Coeffs', but the header has no 'angle types' line"));
  const std::string no_impropers = good.substr(0, good.find("\nImpropers"));
  CHECK(error_of(no_impropers, full) ==
        at_line(no_impropers, "2 1 5 4 3 2",
                "the header announces 1 impropers but the file has no Impropers section"));
  CHECK(error("3 angles", "2 angles") ==
        at_line(good, "3 1 3 4 5",
                "expected a section name, got '3 1 3 4 5' (has the section before more "
                "entries than the header announces?)"));
  CHECK(error("3 angles", "-3 angles") ==
        at_line(good, "3 angles", "'angles' must not be negative"));
  CHECK(error("5 extra special per atom", "1 ellipsoids") ==
        at_line(good, "5 extra special",
                "'ellipsoids': atom_style full has no ellipsoids, lines, triangles or bodies"));
  // Topology with atom_style charge (or atomic): use full.
  CHECK(error_of(good, cb::AtomStyle::charge) ==
        at_line(good, "4 bonds",
                "'bonds': atom_style charge has no molecular topology; use atom_style full"));
  CHECK(error_of(with_line(good, "4 bonds", "0 bonds"), cb::AtomStyle::atomic) ==
        at_line(good, "2 bond types",
                "'bond types': atom_style atomic has no molecular topology; use atom_style full"));
}

TEST_CASE("LAMMPS data: topology and coeffs written from every rank, read back the same",
          "[lammps][topology]") {
  cb::test::SharedTempDir tmp("cb_lammps_data_");
  const cb::Topology chain = cb::test::chain_topology(41);
  // The atoms and terms as the fake solver spreads them, given charges.
  auto full_atoms = [&](cb::test::FakeParticleSolver& solver) {
    solver.set_topology(chain);
    cb::HostParticles atoms = solver.owned_particles();
    atoms.style = cb::AtomStyle::full;
    for (std::int64_t id : atoms.id) {
      atoms.q.push_back(0.1 * double(id % 3) - 0.1);
      atoms.molecule.push_back(1 + id / 10);
    }
    return atoms;
  };
  cb::test::FakeParticleSolver solver(MPI_COMM_WORLD, 41);
  const std::string path = tmp.path() + "/molecules.data";
  cb::io::write_lammps_data(path, MPI_COMM_WORLD, solver.box(), solver.type_masses(),
                            full_atoms(solver), "chain", chain_coeffs());
  const cb::io::LammpsData data = read_full(path);
  // Sorted by atom ids: the set of terms, in one order on any rank count.
  CHECK(cb::test::same_topology(data.atoms.topology, cb::test::sorted_topology(chain)));
  CHECK(data.atoms.id == solver.all_sorted().id);
  const cb::DataCoeffs coeffs = chain_coeffs();
  CHECK(same_rows(data.coeffs.pair, coeffs.pair));
  for (int k = 0; k < cb::term_kinds; ++k) CHECK(same_rows(data.coeffs.terms[k], coeffs.terms[k]));
  CHECK(data.coeffs.terms[3].empty());

  // The same file from one rank holding everything.
  if (cb::test::world_rank() == 0) {
    cb::test::FakeParticleSolver alone(MPI_COMM_SELF, 41);
    const std::string single = tmp.path() + "/single.data";
    cb::io::write_lammps_data(single, MPI_COMM_SELF, alone.box(), alone.type_masses(),
                              full_atoms(alone), "chain", chain_coeffs());
    const std::string text = file_text(path);
    CHECK(file_text(single) == text);
    CHECK_THAT(text, ContainsSubstring("41 atoms\n2 atom types\n40 bonds\n2 bond types\n39 angles\n"
                                       "3 angle types\n19 dihedrals\n2 dihedral types\n"
                                       "7 impropers\n1 improper types\n"));
    CHECK_THAT(text, ContainsSubstring("\nBond Coeffs # harmonic\n\n1 340 1.0900000000000001\n"));
    CHECK_THAT(text, ContainsSubstring("\nAngle Coeffs\n\n1 58.350000000000001 112.7\n"));
    CHECK_THAT(text, ContainsSubstring("\nBonds\n\n1 2 2 1\n2 1 3 2\n"));
    CHECK(text.find("Improper Coeffs") == std::string::npos);
  }
  // Atom styles without topology write none.
  cb::HostParticles atomic = solver.owned_particles();
  const std::string atomic_path = tmp.path() + "/atomic.data";
  cb::io::write_lammps_data(atomic_path, MPI_COMM_WORLD, solver.box(), solver.type_masses(), atomic,
                            "atomic");
  CHECK(cb::io::read_lammps_data(atomic_path, solver.box().periodic).atoms.topology.empty());
}

TEST_CASE("LAMMPS data: the LAMMPS examples peptide and HEAT/spce", "[lammps][topology]") {
  const std::string peptide = "/usr/share/lammps/examples/peptide/data.peptide";
  const std::string spce = "/usr/share/lammps/examples/HEAT/data.spce";
  if (!fs::exists(peptide) || !fs::exists(spce)) SKIP("LAMMPS examples are not installed");
  const cb::io::LammpsData data = read_full(peptide);
  const cb::Topology& topology = data.atoms.topology;
  CHECK(data.atoms.size() == 2004);
  CHECK(data.atom_types == 14);
  CHECK(data.has_velocities);
  const std::size_t counts[] = {1365, 786, 207, 12};
  const int types[] = {18, 31, 21, 2};
  for (int k = 0; k < cb::term_kinds; ++k) {
    CHECK(topology.terms[k].size() == counts[k]);
    CHECK(topology.types[k] == types[k]);
    CHECK(data.coeffs.terms[k].rows.size() == std::size_t(types[k]));
  }
  REQUIRE(data.coeffs.pair.rows.size() == 14);
  for (const std::vector<double>& row : data.coeffs.pair.rows) CHECK(row.size() == 4);
  CHECK(data.coeffs.pair.rows[0] == std::vector<double>{0.11, 3.563595, 0.11, 3.563595});
  CHECK(data.coeffs.terms[2].rows[4] == std::vector<double>{2.5, 2, 180, 0.5});
  CHECK(data.coeffs.terms[3].rows[1] == std::vector<double>{20, 0});

  const cb::io::LammpsData water = read_full(spce);
  CHECK(water.atoms.size() == 3072);
  CHECK(water.atom_types == 2);
  CHECK(water.has_velocities);
  CHECK(water.atoms.topology.types[0] == 1);
  CHECK(water.atoms.topology.types[1] == 1);
  CHECK(water.atoms.topology.of(cb::TermKind::bond).size() == 2048);
  CHECK(water.atoms.topology.of(cb::TermKind::angle).size() == 1024);
  CHECK(water.atoms.topology.of(cb::TermKind::dihedral).size() == 0);
  CHECK(water.atoms.topology.of(cb::TermKind::bond).atoms[0] == 1906);  // "1 1 1906 1907"
  CHECK(water.atoms.topology.of(cb::TermKind::angle).atoms.back() == 1338);
  CHECK(water.coeffs.pair.empty());

  // Written back (one rank) and read again: the same topology, sorted, and coeffs.
  if (cb::test::world_rank() == 0) {
    LocalFile out("");
    cb::io::write_lammps_data(out.path(), MPI_COMM_SELF, data.box, data.masses, data.atoms,
                              data.title, data.coeffs);
    const cb::io::LammpsData again = read_full(out.path());
    CHECK(cb::test::same_topology(again.atoms.topology, cb::test::sorted_topology(topology)));
    for (int k = 0; k < cb::term_kinds; ++k)
      CHECK(same_rows(again.coeffs.terms[k], data.coeffs.terms[k]));
    CHECK(same_rows(again.coeffs.pair, data.coeffs.pair));
  }
}
