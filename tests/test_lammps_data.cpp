// LAMMPS data files (atom_style atomic, charge, full): reading what write_data produces
// (comments, sections in any order, rank-chunked unsorted atoms, velocities
// matched by id, image flags, Pair Coeffs skipped), periodic wrapping, every
// kind of bad content named by file:line, and a bit-exact write/read round
// trip from atoms spread over the ranks.
#include "core/error.hpp"
#include "fake_particle_solver.hpp"
#include "h5_read.hpp"
#include "io/lammps_data.hpp"
#include "mpi_test_support.hpp"

#include <catch2/catch_test_macros.hpp>
#include <catch2/matchers/catch_matchers_string.hpp>

#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

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

// The InputError message of reading `text`.
std::string error_of(const std::string& text) {
  LocalFile file(text);
  try {
    cb::io::read_lammps_data(file.path());
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
             ContainsSubstring(":5: 'bonds': atom_style atomic has no molecular topology"));
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
             ContainsSubstring(":23: section 'Bonds' is not supported"));
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
