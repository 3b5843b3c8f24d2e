// Particle I/O with a stand-in solver: HDF5 particle checkpoints written and
// read back bit for bit on the same and on other rank counts, LAMMPS text
// dumps, XDMF particle output (with bonds) and the output cadences of
// ParticleRunOutput.
// Runs at 1, 2 and 4 ranks; other rank counts come from split communicators.
#include "core/error.hpp"
#include "fake_particle_solver.hpp"
#include "h5_read.hpp"
#include "io/checkpoint.hpp"
#include "io/lammps_data.hpp"
#include "io/particle_checkpoint.hpp"
#include "io/particle_output.hpp"
#include "io/particle_run_output.hpp"
#include "mpi_test_support.hpp"

#include <catch2/catch_test_macros.hpp>
#include <catch2/matchers/catch_matchers_string.hpp>

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <vector>

namespace {

namespace fs = std::filesystem;
using Catch::Matchers::ContainsSubstring;
using cb::HostParticles;
using cb::test::FakeParticleSolver;
using cb::test::world_rank;
using cb::test::world_size;

class TempDir : public cb::test::SharedTempDir {
 public:
  TempDir() : SharedTempDir("cb_particle_io_") {}
};

bool identical(const HostParticles& a, const HostParticles& b) {
  return a.id == b.id && a.type == b.type && a.image == b.image &&
         cb::test::bitwise_equal(a.x, b.x) && cb::test::bitwise_equal(a.v, b.v);
}

cb::io::CheckpointHeader header_of(FakeParticleSolver& solver, long step) {
  cb::io::CheckpointHeader header;
  header.solver = solver.name();
  header.case_name = solver.case_name();
  header.step = step;
  header.time = 0.125 * step;
  header.dt = 0.125;
  header.case_text = "[run]\nsolver = \"fake_md\"\n";
  header.geometry = solver.geometry();
  header.scalars = {{"eta", 0.1234567890123}, {"last_rebuild", 40.0}};
  return header;
}

// A communicator of the first `ranks` world ranks (MPI_COMM_NULL elsewhere).
MPI_Comm first_ranks(int ranks) {
  MPI_Comm comm = MPI_COMM_NULL;
  MPI_Comm_split(MPI_COMM_WORLD, world_rank() < ranks ? 0 : MPI_UNDEFINED, world_rank(), &comm);
  return comm;
}

std::vector<std::string> lines_of(const std::string& path) {
  std::ifstream in(path);
  std::vector<std::string> lines;
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

std::string text_of(const std::string& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

}  // namespace

TEST_CASE("particle checkpoint: bit-exact round trip on the same rank count", "[particles]") {
  TempDir tmp;
  FakeParticleSolver written(MPI_COMM_WORLD, 37);
  cb::PhaseTimer timer;
  for (int n = 0; n < 3; ++n) written.step(0.0, 0.37, timer);  // some atoms wrapped
  const std::string path = cb::io::checkpoint_path(tmp.path(), 12);
  cb::io::write_particle_checkpoint(path, MPI_COMM_WORLD, header_of(written, 12),
                                    written.owned_particles());

  const cb::io::CheckpointHeader header = cb::io::read_checkpoint_header(path, MPI_COMM_WORLD);
  CHECK(header.solver == "fake_md");
  CHECK(header.step == 12);
  CHECK(header.atoms == 37);
  CHECK(header.ranks == world_size());
  CHECK(header.geometry.lo == written.box().lo);
  CHECK(header.geometry.hi == written.box().hi);
  CHECK(header.geometry.periodic == written.box().periodic);
  REQUIRE(header.scalars.size() == 2);
  CHECK(header.scalars[0].second == 0.1234567890123);

  FakeParticleSolver restored(MPI_COMM_WORLD, 37);
  cb::io::check_particles_compatible(path, header, restored.name(), restored.box(), 37);
  const HostParticles slice = cb::io::read_particle_checkpoint(path, MPI_COMM_WORLD);
  // Rank r of p reads the contiguous rows [37 r / p, 37 (r + 1) / p).
  const long p = world_size(), r = world_rank();
  CHECK(long(slice.size()) == 37 * (r + 1) / p - 37 * r / p);
  restored.load_particles(slice);
  CHECK(identical(restored.all_sorted(), written.all_sorted()));
  CHECK(identical(restored.owned_particles(), written.owned_particles()));
  CHECK(cb::io::newest_complete_checkpoint(tmp.path(), MPI_COMM_WORLD) == path);
}

TEST_CASE("particle checkpoint: written on one rank count, read on another", "[particles]") {
  TempDir tmp;
  const int half = std::max(1, world_size() / 2);
  const std::string from_part = tmp.path() + "/chk_00000001.h5";
  const std::string from_all = tmp.path() + "/chk_00000002.h5";
  FakeParticleSolver everywhere(MPI_COMM_WORLD, 53);
  const HostParticles reference = everywhere.all_sorted();

  MPI_Comm part = first_ranks(half);
  if (part != MPI_COMM_NULL) {
    FakeParticleSolver few(part, 53);
    cb::io::write_particle_checkpoint(from_part, part, header_of(few, 1), few.owned_particles());
    // ... and the world's checkpoint read back on the part.
  }
  cb::io::write_particle_checkpoint(from_all, MPI_COMM_WORLD, header_of(everywhere, 2),
                                    everywhere.owned_particles());
  if (part != MPI_COMM_NULL) {
    FakeParticleSolver few(part, 53);
    few.load_particles(cb::io::read_particle_checkpoint(from_all, part));
    CHECK(identical(few.all_sorted(), reference));
    MPI_Comm_free(&part);
  }
  FakeParticleSolver all(MPI_COMM_WORLD, 53);
  all.load_particles(cb::io::read_particle_checkpoint(from_part, MPI_COMM_WORLD));
  CHECK(identical(all.all_sorted(), reference));
  CHECK(cb::io::read_checkpoint_header(from_part, MPI_COMM_WORLD).ranks == half);
}

TEST_CASE("particle checkpoint: incompatible cases are refused by name", "[particles]") {
  TempDir tmp;
  FakeParticleSolver solver(MPI_COMM_WORLD, 11);
  const std::string path = cb::io::checkpoint_path(tmp.path(), 3);
  cb::io::write_particle_checkpoint(path, MPI_COMM_WORLD, header_of(solver, 3),
                                    solver.owned_particles());
  const auto header = cb::io::read_checkpoint_header(path, MPI_COMM_WORLD);
  CHECK_THROWS_WITH(cb::io::check_particles_compatible(path, header, "md", solver.box(), 11),
                    ContainsSubstring("from solver 'fake_md', this case runs 'md'"));
  CHECK_THROWS_WITH(cb::io::check_particles_compatible(path, header, "fake_md", solver.box(), 12),
                    ContainsSubstring(path + ": checkpoint holds 11 atoms"));
  cb::ParticleBox other = solver.box();
  other.hi[1] = 8.0;
  CHECK_THROWS_AS(cb::io::check_particles_compatible(path, header, "fake_md", other, 11),
                  cb::InputError);
  other = solver.box();
  other.periodic[2] = true;
  CHECK_THROWS_AS(cb::io::check_particles_compatible(path, header, "fake_md", other, 11),
                  cb::InputError);
  // A missing file is bad input, on every rank alike.
  CHECK_THROWS_AS(cb::io::read_particle_checkpoint(tmp.path() + "/none.h5", MPI_COMM_WORLD),
                  cb::InputError);
}

TEST_CASE("LAMMPS dump: dump custom layout, atoms sorted by id, values", "[particles]") {
  TempDir tmp;
  FakeParticleSolver solver(MPI_COMM_WORLD, 23);
  const std::vector<std::string> columns = {"id", "type", "x",  "y",  "z",  "vx", "vy",
                                            "vz", "ix",   "iy", "iz", "xu", "pe"};
  const cb::io::AtomTable table = cb::io::owned_atom_table(solver, {"pe"});
  const std::string path = cb::io::dump_path(tmp.path() + "/dumps", 40);
  cb::io::write_lammps_dump(path, MPI_COMM_WORLD, 40, solver.box(), table, columns);
  const HostParticles all = solver.all_sorted();
  if (world_rank() == 0) {
    CHECK(fs::path(path).filename() == "dump_00000040.lammpstrj");
    const std::vector<std::string> lines = lines_of(path);
    REQUIRE(lines.size() == 9 + 23);
    CHECK(lines[0] == "ITEM: TIMESTEP");
    CHECK(lines[1] == "40");
    CHECK(lines[2] == "ITEM: NUMBER OF ATOMS");
    CHECK(lines[3] == "23");
    CHECK(lines[4] == "ITEM: BOX BOUNDS pp pp ff");
    CHECK(lines[5] == "-1.5 1.3333333333333333");  // bounds at full precision
    CHECK(lines[6] == "0.25 7.75");
    CHECK(lines[8] == "ITEM: ATOMS id type x y z vx vy vz ix iy iz xu pe");
    const double length_x = 4.0 / 3.0 + 1.5;
    for (std::size_t a = 0; a < 23; ++a) {
      std::istringstream row(lines[9 + a]);
      long long id = 0;
      int type = 0, image[3];
      double x[3], v[3], xu = 0, pe = 0;
      row >> id >> type >> x[0] >> x[1] >> x[2] >> v[0] >> v[1] >> v[2] >> image[0] >> image[1] >>
          image[2] >> xu >> pe;
      REQUIRE(!row.fail());
      CHECK(id == all.id[a]);
      CHECK(type == all.type[a]);
      for (int axis = 0; axis < 3; ++axis) {
        CHECK(std::abs(x[axis] - all.x[3 * a + axis]) <= 1e-9 * std::abs(all.x[3 * a + axis]));
        CHECK(std::abs(v[axis] - all.v[3 * a + axis]) <= 1e-9 * std::abs(all.v[3 * a + axis]));
        CHECK(image[axis] == all.image[3 * a + axis]);
      }
      const double unwrapped = all.x[3 * a] + length_x * all.image[3 * a];
      CHECK(std::abs(xu - unwrapped) <= 1e-9 * std::abs(unwrapped) + 1e-12);
      CHECK(std::abs(pe + 1.0 / (3.0 + double(id))) <= 1e-10);
    }
  }
}

TEST_CASE("XDMF particle output: Polyvertex series, global arrays, restart", "[particles]") {
  TempDir tmp;
  FakeParticleSolver solver(MPI_COMM_WORLD, 29);
  cb::PhaseTimer timer;
  {
    cb::io::ParticleXdmfOutput output(tmp.path(), MPI_COMM_WORLD);
    for (long step : {0L, 10L, 20L}) {
      output.write(step, 0.5 * step, solver.box(), cb::io::owned_atom_table(solver, {"ke"}), true,
                   false);
      solver.step(0.0, 0.1, timer);
    }
  }
  const std::string file = tmp.path() + "/particles/particles_00000010.h5";
  const std::string xmf = tmp.path() + "/particles.xmf";
  if (world_rank() == 0) {
    const std::string text = text_of(xmf);
    CHECK_THAT(text, ContainsSubstring("<Topology TopologyType=\"Polyvertex\" "
                                       "NumberOfElements=\"29\" NodesPerElement=\"1\">"));
    CHECK_THAT(text, ContainsSubstring("particles/particles_00000010.h5:/cells</DataItem>"));
    CHECK_THAT(text, ContainsSubstring("<Geometry GeometryType=\"XYZ\">"));
    CHECK_THAT(text, ContainsSubstring("particles/particles_00000020.h5:/v</DataItem>"));
    CHECK_THAT(text, ContainsSubstring("<Attribute Name=\"ke\" AttributeType=\"Scalar\""));
    CHECK_THAT(text, ContainsSubstring("<Time Value=\"5\"/>"));
    CHECK(text.find("/image") == std::string::npos);
    // Every id once: the ranks' rows at their offsets.
    std::vector<double> ids = cb::test::read_field(file, "/id");
    std::sort(ids.begin(), ids.end());
    REQUIRE(ids.size() == 29);
    for (int n = 0; n < 29; ++n) CHECK(ids[n] == n + 1);
    CHECK(cb::test::read_field(file, "/x").size() == 3 * 29);
    // The cells 0..N-1 in file order.
    const std::vector<double> cells = cb::test::read_field(file, "/cells");
    REQUIRE(cells.size() == 29);
    for (int n = 0; n < 29; ++n) CHECK(cells[n] == n);
  }
  MPI_Barrier(MPI_COMM_WORLD);
  {
    cb::io::ParticleXdmfOutput resumed(tmp.path(), MPI_COMM_WORLD, 10);
    resumed.write(15, 7.5, solver.box(), cb::io::owned_atom_table(solver, {}), false, true);
  }
  if (world_rank() == 0) {
    const std::string text = text_of(xmf);
    CHECK_THAT(text, ContainsSubstring("Name=\"step_0\""));
    CHECK_THAT(text, ContainsSubstring("Name=\"step_10\""));
    CHECK_THAT(text, ContainsSubstring("Name=\"step_15\""));
    CHECK(text.find("Name=\"step_20\"") == std::string::npos);
    CHECK_THAT(text, ContainsSubstring("particles/particles_00000015.h5:/image"));
  }
}

TEST_CASE("XDMF particle output: bonds as Polyline cells on the bonded atoms' rows",
          "[particles][topology]") {
  // The chain's bond (i + 1, i) is held by the owner of atom i + 1: on 2 and 4
  // ranks every bond joins atoms of two ranks.
  TempDir tmp;
  const cb::Topology topology = cb::test::chain_topology(31);
  FakeParticleSolver solver(MPI_COMM_WORLD, 31);
  solver.set_topology(topology);
  {
    cb::io::ParticleXdmfOutput output(tmp.path(), MPI_COMM_WORLD);
    for (long step : {0L, 10L})
      output.write(step, 0.5 * step, solver.box(), cb::io::owned_atom_table(solver, {}), false,
                   false);
  }
  const cb::TermList& bonds = topology.of(cb::TermKind::bond);
  const std::string file = tmp.path() + "/particles/particles_00000010.h5";
  const std::string xmf = tmp.path() + "/particles.xmf";
  if (world_rank() == 0) {
    const std::vector<double> ids = cb::test::read_field(file, "/id");
    const std::vector<double> rows = cb::test::read_field(file, "/bonds");
    const std::vector<double> types = cb::test::read_field(file, "/bond_type");
    REQUIRE(rows.size() == 2 * bonds.size());
    REQUIRE(types.size() == bonds.size());
    std::multiset<std::vector<long>> written, expected;  // (type, id, id) per bond
    for (std::size_t n = 0; n < bonds.size(); ++n) {
      written.insert({long(types[n]), long(ids.at(std::size_t(rows[2 * n]))),
                      long(ids.at(std::size_t(rows[2 * n + 1])))});
      expected.insert({bonds.type[n], long(bonds.atoms[2 * n]), long(bonds.atoms[2 * n + 1])});
    }
    CHECK(written == expected);
    const std::string text = text_of(xmf);
    CHECK_THAT(text, ContainsSubstring("<Grid Name=\"bonds\" GridType=\"Collection\" "
                                       "CollectionType=\"Temporal\">"));
    CHECK_THAT(text, ContainsSubstring("<Topology TopologyType=\"Polyline\" "
                                       "NumberOfElements=\"30\" NodesPerElement=\"2\">"));
    CHECK_THAT(text, ContainsSubstring("particles/particles_00000010.h5:/bonds</DataItem>"));
    CHECK_THAT(text, ContainsSubstring("<Attribute Name=\"bond_type\" AttributeType=\"Scalar\" "
                                       "Center=\"Cell\">"));
  }
  MPI_Barrier(MPI_COMM_WORLD);
  {  // resumed at step 10 without bonds: the series rebuilt from the files keeps theirs
    FakeParticleSolver atoms_only(MPI_COMM_WORLD, 31);
    cb::io::ParticleXdmfOutput resumed(tmp.path(), MPI_COMM_WORLD, 10);
    resumed.write(15, 7.5, atoms_only.box(), cb::io::owned_atom_table(atoms_only, {}), false,
                  false);
  }
  if (world_rank() == 0) {
    const std::string text = text_of(xmf);
    CHECK_THAT(text, ContainsSubstring("Name=\"bonds_0\""));
    CHECK_THAT(text, ContainsSubstring("Name=\"bonds_10\""));
    CHECK(text.find("Name=\"bonds_15\"") == std::string::npos);
    CHECK(text.find("bond_type\" AttributeType=\"Scalar\" Center=\"Node") == std::string::npos);
  }
}

TEST_CASE("ParticleRunOutput: dump and XDMF cadences, last step, data file", "[particles]") {
  TempDir tmp;
  FakeParticleSolver solver(MPI_COMM_WORLD, 17);
  cb::RunControl control;
  control.steps = 10;
  control.output_every_steps = 4;
  cb::io::CaseFile file = cb::io::CaseFile::parse(
      "[dump]\nevery_steps = 3\n[output]\nwrite_data = true\n", "case.toml");
  const cb::io::ParticleOutputParams params =
      cb::io::read_particle_output_params(file, control, {"vx", "pe"});
  CHECK(control.output_every_steps == 1);  // gcd(4, 3): the driver asks at every candidate
  CHECK(params.dump_every_steps == 3);
  CHECK(params.xdmf_every_steps == 4);
  CHECK(cb::io::dump_columns(params.fields, solver.per_atom_names()) ==
        std::vector<std::string>{"id", "type", "x", "y", "z", "vx", "pe"});

  cb::Log log(world_rank());
  cb::io::ParticleRunOutput output(solver, MPI_COMM_WORLD, {tmp.path()}, header_of(solver, 0), 2,
                                   params, control, {}, log);
  for (long step = 0; step <= 10; ++step) output.write_fields({step, 0.01 * step, 0.01});
  output.write_checkpoint({10, 0.1, 0.01});
  output.write_data_file({10, 0.1, 0.01});
  if (world_rank() == 0) {
    for (long step = 0; step <= 10; ++step) {
      const bool dump = step % 3 == 0 || step == 10, xdmf = step % 4 == 0 || step == 10;
      CHECK(fs::exists(cb::io::dump_path(tmp.path() + "/dumps", step)) == dump);
      char name[64];
      std::snprintf(name, sizeof name, "/particles/particles_%08ld.h5", step);
      CHECK(fs::exists(tmp.path() + name) == xdmf);
    }
    CHECK(fs::exists(tmp.path() + "/checkpoints/chk_00000010.h5"));
  }
  const cb::io::LammpsData data = cb::io::read_lammps_data(output.data_file_path());
  CHECK(data.title.find("timestep = 10") != std::string::npos);
  CHECK(data.masses == solver.type_masses());
  CHECK(identical(data.atoms, solver.all_sorted()));
}

TEST_CASE("particle output: ranks without atoms take part in every collective", "[particles]") {
  TempDir tmp;
  FakeParticleSolver solver(MPI_COMM_WORLD, 2);  // on 4 ranks, ranks 0 and 3 own none
  const std::string path = cb::io::checkpoint_path(tmp.path(), 1);
  cb::io::write_particle_checkpoint(path, MPI_COMM_WORLD, header_of(solver, 1),
                                    solver.owned_particles());
  FakeParticleSolver restored(MPI_COMM_WORLD, 2);
  restored.load_particles(cb::io::read_particle_checkpoint(path, MPI_COMM_WORLD));
  CHECK(identical(restored.all_sorted(), solver.all_sorted()));
  cb::io::ParticleXdmfOutput xdmf(tmp.path(), MPI_COMM_WORLD);
  xdmf.write(1, 0.5, solver.box(), cb::io::owned_atom_table(solver, {"pe"}), true, true);
  const std::string dump = cb::io::dump_path(tmp.path() + "/dumps", 1);
  cb::io::write_lammps_dump(dump, MPI_COMM_WORLD, 1, solver.box(),
                            cb::io::owned_atom_table(solver, {}), {"id", "type", "x", "y", "z"});
  if (world_rank() == 0) {
    CHECK(cb::test::read_field(tmp.path() + "/particles/particles_00000001.h5", "/pe").size() == 2);
    CHECK(lines_of(dump).size() == 9 + 2);
  }
}

TEST_CASE("particle checkpoint: topology read back on any rank count", "[particles][topology]") {
  TempDir tmp;
  const cb::Topology topology = cb::test::chain_topology(31);
  const cb::Topology expected = cb::test::sorted_topology(topology);
  FakeParticleSolver written(MPI_COMM_WORLD, 31);
  written.set_topology(topology);
  const std::string path = cb::io::checkpoint_path(tmp.path(), 5);
  cb::io::write_particle_checkpoint(path, MPI_COMM_WORLD, header_of(written, 5),
                                    written.owned_particles());
  if (world_rank() == 0) {
    // Rows of [type, atom ids], every term once.
    const std::vector<double> bonds = cb::test::read_field(path, "/topology/bonds");
    CHECK(bonds.size() == 3 * topology.of(cb::TermKind::bond).size());
    CHECK(cb::test::read_field(path, "/topology/impropers").size() ==
          5 * topology.of(cb::TermKind::improper).size());
  }

  // Rank r of p reads rows [n r / p, n (r + 1) / p) of each kind, and every type count.
  const HostParticles slice = cb::io::read_particle_checkpoint(path, MPI_COMM_WORLD);
  const long p = world_size(), r = world_rank();
  for (int k = 0; k < cb::term_kinds; ++k) {
    const long n = long(topology.terms[k].size());
    CHECK(long(slice.topology.terms[k].size()) == n * (r + 1) / p - n * r / p);
    CHECK(slice.topology.types[k] == topology.types[k]);
  }
  FakeParticleSolver restored(MPI_COMM_WORLD, 31);
  restored.load_particles(slice);
  CHECK(cb::test::same_topology(restored.all_topology(), expected));

  // Read on one rank: the whole topology; and on every part of the world.
  for (int ranks = 1; ranks < world_size(); ranks *= 2) {
    MPI_Comm part = first_ranks(ranks);
    if (part == MPI_COMM_NULL) continue;
    FakeParticleSolver few(part, 31);
    few.load_particles(cb::io::read_particle_checkpoint(path, part));
    CHECK(cb::test::same_topology(few.all_topology(), expected));
    MPI_Comm_free(&part);
  }

  // Written again from the restored state on the same rank count: the same rows.
  const std::string again = cb::io::checkpoint_path(tmp.path(), 6);
  cb::io::write_particle_checkpoint(again, MPI_COMM_WORLD, header_of(restored, 6),
                                    restored.owned_particles());
  if (world_rank() == 0)
    for (const char* name :
         {"/topology/bonds", "/topology/angles", "/topology/dihedrals", "/topology/impropers"})
      CHECK(cb::test::read_field(again, name) == cb::test::read_field(path, name));
  MPI_Barrier(MPI_COMM_WORLD);

  // A term type beyond the type count is refused by name.
  if (world_rank() == 0) cb::test::overwrite_value(path, "/topology/angles", 4, 4.0);
  MPI_Barrier(MPI_COMM_WORLD);
  CHECK_THROWS_WITH(cb::io::read_particle_checkpoint(path, MPI_COMM_WORLD),
                    ContainsSubstring(path + ": /topology/angles: row 1 has type 4, outside 1..3"));
}

TEST_CASE("particle checkpoint: no topology, none read back", "[particles][topology]") {
  TempDir tmp;
  FakeParticleSolver solver(MPI_COMM_WORLD, 9);
  const std::string path = cb::io::checkpoint_path(tmp.path(), 1);
  cb::io::write_particle_checkpoint(path, MPI_COMM_WORLD, header_of(solver, 1),
                                    solver.owned_particles());
  const HostParticles slice = cb::io::read_particle_checkpoint(path, MPI_COMM_WORLD);
  CHECK(slice.topology.empty());
  for (int k = 0; k < cb::term_kinds; ++k) CHECK(slice.topology.types[k] == 0);
  // Types without terms (a molecular case with no bonds yet) are kept.
  cb::Topology types_only;
  types_only.types[1] = 4;
  solver.set_topology(types_only);
  cb::io::write_particle_checkpoint(path + ".2", MPI_COMM_WORLD, header_of(solver, 1),
                                    solver.owned_particles());
  const HostParticles read = cb::io::read_particle_checkpoint(path + ".2", MPI_COMM_WORLD);
  CHECK(read.topology.empty());
  CHECK(read.topology.types[1] == 4);
}
