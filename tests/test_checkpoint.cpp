// HDF5 checkpoints: bit-exact field round trip across decompositions, header
// round trip, picking the newest complete file, refusing broken or foreign
// files, compatibility checks and pruning. Runs at 1, 2 and 4 ranks.
#include "core/decomposition.hpp"
#include "core/error.hpp"
#include "io/checkpoint.hpp"
#include "mpi_test_support.hpp"

#include <catch2/catch_test_macros.hpp>
#include <catch2/matchers/catch_matchers_string.hpp>

#include <hdf5.h>
#include <mpi.h>
#include <Kokkos_Core.hpp>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

namespace {

namespace fs = std::filesystem;
using Catch::Matchers::ContainsSubstring;
using Catch::Matchers::StartsWith;
using cb::Int3;

constexpr cb::real sentinel = -7777.0;

using cb::test::world_rank;
using cb::test::world_size;

// A fresh directory per test, shared by all ranks.
class TempDir : public cb::test::SharedTempDir {
 public:
  TempDir() : SharedTempDir("cb_checkpoint_") {}
};

// A value with a full mantissa that depends on the global cell and component.
cb::real value_at(int component, int gi, int gj, int gk) {
  return cb::real(1000.0 * (component + 1) + 100.0 * gk + 10.0 * gj + gi +
                  1.0 / (3.0 + gi + 7.0 * gj + 11.0 * gk + 13.0 * component));
}

cb::GridGeometry test_geometry() {
  cb::GridGeometry grid;
  grid.cells = {9, 7, 5};
  grid.lo = {0.0, -1.0, 0.5};
  grid.hi = {1.0, 1.0, 2.0};
  grid.periodic = {true, false, true};
  return grid;
}

cb::Field make_field(const cb::Decomposition& decomposition, int components, int halo) {
  const Int3 ghost = cb::ghost_widths(decomposition.global_cells(), halo);
  const Int3& local = decomposition.local_cells();
  return cb::Field("test::field", components, local[2] + 2 * ghost[2], local[1] + 2 * ghost[1],
                   local[0] + 2 * ghost[0]);
}

// Visits every cell of `view`: owned ones with their global index, ghosts with owned = false.
template <class Op>
void for_each_cell(const cb::Decomposition& decomposition, const cb::Field& view, Op op) {
  const Int3& local = decomposition.local_cells();
  const Int3& offset = decomposition.offset();
  const Int3 ghost = {int(view.extent(3) - local[0]) / 2, int(view.extent(2) - local[1]) / 2,
                      int(view.extent(1) - local[2]) / 2};
  for (int c = 0; c < int(view.extent(0)); ++c)
    for (int k = 0; k < int(view.extent(1)); ++k)
      for (int j = 0; j < int(view.extent(2)); ++j)
        for (int i = 0; i < int(view.extent(3)); ++i) {
          const Int3 owned_index = {i - ghost[0], j - ghost[1], k - ghost[2]};
          bool owned = true;
          for (int axis = 0; axis < 3; ++axis)
            owned = owned && owned_index[axis] >= 0 && owned_index[axis] < local[axis];
          op(c, k, j, i, owned, owned_index[0] + offset[0], owned_index[1] + offset[1],
             owned_index[2] + offset[2]);
        }
}

// Owned cells of component c get value_at(first + c, ...); ghosts get the sentinel.
void fill(const cb::Decomposition& decomposition, const cb::Field& view, int first) {
  auto host = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), view);
  for_each_cell(decomposition, view,
                [&](int c, int k, int j, int i, bool owned, int gi, int gj, int gk) {
                  host(c, k, j, i) = owned ? value_at(first + c, gi, gj, gk) : sentinel;
                });
  Kokkos::deep_copy(view, host);
}

// Cells that differ (bitwise) from what fill() would have written; summed over ranks.
long mismatches(const cb::Decomposition& decomposition, const cb::Field& view, int first) {
  auto host = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), view);
  long bad = 0;
  for_each_cell(decomposition, view,
                [&](int c, int k, int j, int i, bool owned, int gi, int gj, int gk) {
                  const cb::real expected = owned ? value_at(first + c, gi, gj, gk) : sentinel;
                  bad += host(c, k, j, i) != expected ? 1 : 0;
                });
  long total = 0;
  MPI_Allreduce(&bad, &total, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
  return total;
}

std::string long_case_text() {
  std::string text = "# taylor_green.toml — “quoted” UTF-8 text\n[run]\nsolver = \"cfd\"\n";
  for (int line = 0; text.size() < 80 * 1024; ++line)
    text += "# padding line " + std::to_string(line) + ": key = [1, 2, 3] 'x' \"y\"\n";
  return text;
}

cb::io::CheckpointHeader make_header(long step) {
  cb::io::CheckpointHeader header;
  header.solver = "cfd";
  header.case_name = "taylor_green";
  header.step = step;
  header.time = 0.1 * double(step) + 1.0 / 3.0;
  header.dt = 1.0 / 7.0;
  header.case_text = long_case_text();
  header.code_version = "0.1.0-test";
  header.ranks = world_size();
  header.kokkos_backend = "Serial";
  header.geometry = test_geometry();
  header.scalars = {{"zeta", 123456789.0}, {"alpha", 0.1}, {"rng_counter", -2.5e-300}};
  return header;
}

// Writes a checkpoint of `test_geometry()` with three components in two views.
void write_test_checkpoint(const std::string& path, long step, const Int3& dims = {0, 0, 0}) {
  const cb::GridGeometry grid = test_geometry();
  cb::Decomposition decomposition(MPI_COMM_WORLD, grid.cells, grid.periodic, dims);
  cb::Field state = make_field(decomposition, 2, 2);
  cb::Field tracer = make_field(decomposition, 1, 2);
  fill(decomposition, state, 0);
  fill(decomposition, tracer, 2);
  cb::io::write_checkpoint(path, decomposition, make_header(step),
                           {{"rho", state, 0}, {"tracer", tracer, 0}, {"energy", state, 1}});
}

template <class F>
std::string input_error(F&& f) {
  try {
    f();
  } catch (const cb::InputError& e) {
    return e.what();
  }
  return "(no InputError)";
}

// Rank-0 file surgery for broken-file tests.
void copy_file(const std::string& from, const std::string& to, std::uintmax_t bytes = 0) {
  fs::copy_file(from, to, fs::copy_options::overwrite_existing);
  if (bytes > 0) fs::resize_file(to, bytes);
}

void write_garbage(const std::string& path) {
  std::ofstream out(path, std::ios::binary);
  for (int n = 0; n < 4096; ++n) out.put(char((n * 131 + 7) % 251));
}

void set_int_attribute(const std::string& path, const char* name, int value) {
  const hid_t file = H5Fopen(path.c_str(), H5F_ACC_RDWR, H5P_DEFAULT);
  const hid_t attribute = H5Aopen(file, name, H5P_DEFAULT);
  H5Awrite(attribute, H5T_NATIVE_INT, &value);
  H5Aclose(attribute);
  H5Fclose(file);
}

// An HDF5 file with a `format` string attribute (none when empty).
void write_foreign_hdf5(const std::string& path, const std::string& format) {
  const hid_t file = H5Fcreate(path.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
  if (!format.empty()) {
    const hid_t type = H5Tcopy(H5T_C_S1);
    H5Tset_size(type, format.size() + 1);
    const hid_t space = H5Screate(H5S_SCALAR);
    const hid_t attribute = H5Acreate2(file, "format", type, space, H5P_DEFAULT, H5P_DEFAULT);
    H5Awrite(attribute, type, format.c_str());
    H5Aclose(attribute);
    H5Sclose(space);
    H5Tclose(type);
  }
  H5Fclose(file);
}

Int3 split_along(int axis) {
  Int3 dims{1, 1, 1};
  dims[axis] = world_size();
  return dims;
}

}  // namespace

TEST_CASE("checkpoint fields round-trip bit for bit across decompositions", "[checkpoint][mpi]") {
  TempDir tmp;
  const std::string path = cb::io::checkpoint_path(tmp.path() + "/run/checkpoints", 42);
  REQUIRE_THAT(path, ContainsSubstring("/run/checkpoints/chk_00000042.h5"));
  write_test_checkpoint(path, 42, split_along(0));
  CHECK(fs::exists(path));
  CHECK_FALSE(fs::exists(path + ".partial"));

  // Read on another rank grid, with another ghost width, into fresh views.
  const cb::GridGeometry grid = test_geometry();
  cb::Decomposition reader(MPI_COMM_WORLD, grid.cells, grid.periodic, split_along(2));
  cb::Field state = make_field(reader, 2, 1);
  cb::Field tracer = make_field(reader, 1, 1);
  Kokkos::deep_copy(state, sentinel);
  Kokkos::deep_copy(tracer, sentinel);
  cb::io::read_checkpoint_fields(path, reader,
                                 {{"energy", state, 1}, {"rho", state, 0}, {"tracer", tracer, 0}});
  CHECK(mismatches(reader, state, 0) == 0);
  CHECK(mismatches(reader, tracer, 2) == 0);

  // The file itself: global [nz][ny][nx] datasets of cb::real, x fastest.
  long bad = 0;
  if (world_rank() == 0) {
    const hid_t file = H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
    const hid_t dataset = H5Dopen2(file, "/fields/energy", H5P_DEFAULT);
    const hid_t space = H5Dget_space(dataset);
    hsize_t dims[3] = {0, 0, 0};
    H5Sget_simple_extent_dims(space, dims, nullptr);
    const hid_t type = H5Dget_type(dataset);
    CHECK(H5Tget_size(type) == sizeof(cb::real));
    REQUIRE((dims[0] == 5 && dims[1] == 7 && dims[2] == 9));
    std::vector<double> values(5 * 7 * 9);
    H5Dread(dataset, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, values.data());
    for (int k = 0; k < 5; ++k)
      for (int j = 0; j < 7; ++j)
        for (int i = 0; i < 9; ++i)
          bad += values[(k * 7 + j) * 9 + i] != double(value_at(1, i, j, k)) ? 1 : 0;
    H5Tclose(type);
    H5Sclose(space);
    H5Dclose(dataset);
    H5Fclose(file);
  }
  CHECK(bad == 0);
}

TEST_CASE("checkpoint header round-trips every attribute", "[checkpoint][mpi]") {
  TempDir tmp;
  const std::string path = cb::io::checkpoint_path(tmp.path(), 7);
  write_test_checkpoint(path, 7);
  const cb::io::CheckpointHeader expected = make_header(7);
  const cb::io::CheckpointHeader header = cb::io::read_checkpoint_header(path, MPI_COMM_WORLD);
  CHECK(header.format == "cloudburst-checkpoint");
  CHECK(header.format_version == cb::io::checkpoint_format_version);
  CHECK(header.solver == expected.solver);
  CHECK(header.case_name == expected.case_name);
  CHECK(header.step == 7);
  CHECK(header.time == expected.time);
  CHECK(header.dt == expected.dt);
  CHECK(header.case_text.size() > 64 * 1024);
  CHECK(header.case_text == expected.case_text);
  CHECK(header.code_version == expected.code_version);
  CHECK(header.ranks == world_size());
  CHECK(header.kokkos_backend == expected.kokkos_backend);
  CHECK(header.geometry.cells == expected.geometry.cells);
  CHECK(header.geometry.lo == expected.geometry.lo);
  CHECK(header.geometry.hi == expected.geometry.hi);
  CHECK(header.geometry.periodic == expected.geometry.periodic);
  CHECK(header.scalars == expected.scalars);  // values and order
}

TEST_CASE("reading fields refuses missing datasets and other grids", "[checkpoint][mpi]") {
  TempDir tmp;
  const std::string path = cb::io::checkpoint_path(tmp.path(), 1);
  write_test_checkpoint(path, 1);
  const cb::GridGeometry grid = test_geometry();

  cb::Decomposition same(MPI_COMM_WORLD, grid.cells, grid.periodic);
  cb::Field field = make_field(same, 1, 1);
  CHECK(input_error([&] {
          cb::io::read_checkpoint_fields(path, same, {{"pressure", field, 0}});
        }) == path + ": dataset /fields/pressure is missing");

  cb::Decomposition other(MPI_COMM_WORLD, {8, 7, 5}, grid.periodic);
  cb::Field small = make_field(other, 1, 1);
  const std::string message = input_error([&] {
    cb::io::read_checkpoint_fields(path, other, {{"rho", small, 0}});
  });
  CHECK_THAT(message, StartsWith(path + ": dataset /fields/rho has shape [5][7][9]"));
  CHECK_THAT(message, ContainsSubstring("[5][7][8]"));

  const std::string missing = tmp.path() + "/chk_00000002.h5";
  CHECK(input_error([&] {
          cb::io::read_checkpoint_fields(missing, same, {{"rho", field, 0}});
        }) == missing + ": no such checkpoint");
}

TEST_CASE("broken and foreign files are refused with a clear message", "[checkpoint][mpi]") {
  TempDir tmp;
  const std::string good = cb::io::checkpoint_path(tmp.path(), 1);
  write_test_checkpoint(good, 1);
  const std::string dir = tmp.path();
  if (world_rank() == 0) {
    write_garbage(dir + "/garbage.h5");
    copy_file(good, dir + "/truncated.h5", fs::file_size(good) / 2);
    write_foreign_hdf5(dir + "/plain.h5", "");
    write_foreign_hdf5(dir + "/other.h5", "netcdf4");
    copy_file(good, dir + "/incomplete.h5");
    set_int_attribute(dir + "/incomplete.h5", "complete", 0);
    copy_file(good, dir + "/future.h5");
    set_int_attribute(dir + "/future.h5", "format_version", 99);
  }
  MPI_Barrier(MPI_COMM_WORLD);
  const auto header_error = [](const std::string& path) {
    return input_error([&] { cb::io::read_checkpoint_header(path, MPI_COMM_WORLD); });
  };
  const std::string unreadable = ": not a readable HDF5 file (corrupt or truncated?)";
  CHECK(header_error(dir + "/missing.h5") == dir + "/missing.h5: no such checkpoint");
  CHECK(header_error(dir + "/garbage.h5") == dir + "/garbage.h5" + unreadable);
  CHECK(header_error(dir + "/truncated.h5") == dir + "/truncated.h5" + unreadable);
  CHECK(header_error(dir + "/plain.h5") == dir + "/plain.h5: not a cloudburst checkpoint");
  CHECK(header_error(dir + "/other.h5") == dir + "/other.h5: not a cloudburst checkpoint");
  CHECK_THAT(header_error(dir + "/incomplete.h5"),
             StartsWith(dir + "/incomplete.h5: incomplete checkpoint"));
  CHECK_THAT(header_error(dir + "/future.h5"), ContainsSubstring("format_version 99 is newer"));
  CHECK(header_error(dir) == dir + unreadable);
}

TEST_CASE("newest_complete_checkpoint skips partial and broken files", "[checkpoint][mpi]") {
  TempDir tmp;
  const std::string dir = tmp.path() + "/checkpoints";
  CHECK_FALSE(cb::io::newest_complete_checkpoint(dir, MPI_COMM_WORLD).has_value());
  for (long step : {10, 30, 20}) write_test_checkpoint(cb::io::checkpoint_path(dir, step), step);
  const std::string newest = cb::io::checkpoint_path(dir, 30);
  if (world_rank() == 0) {
    copy_file(newest, cb::io::checkpoint_path(dir, 40) + ".partial");
    copy_file(newest, cb::io::checkpoint_path(dir, 50), fs::file_size(newest) / 3);
    copy_file(newest, cb::io::checkpoint_path(dir, 60));
    set_int_attribute(cb::io::checkpoint_path(dir, 60), "complete", 0);
    write_foreign_hdf5(cb::io::checkpoint_path(dir, 70), "");
    write_garbage(cb::io::checkpoint_path(dir, 99));
    write_garbage(dir + "/chk_latest.h5");
  }
  MPI_Barrier(MPI_COMM_WORLD);
  const auto found = cb::io::newest_complete_checkpoint(dir, MPI_COMM_WORLD);
  REQUIRE(found.has_value());
  CHECK(*found == newest);
  CHECK_FALSE(cb::io::newest_complete_checkpoint(tmp.path() + "/nowhere", MPI_COMM_WORLD));
}

TEST_CASE("check_compatible refuses another solver or grid", "[checkpoint]") {
  const cb::io::CheckpointHeader header = make_header(3);
  const cb::GridGeometry grid = test_geometry();
  CHECK_NOTHROW(cb::io::check_compatible("c.h5", header, "cfd", grid));
  CHECK(input_error([&] { cb::io::check_compatible("c.h5", header, "scalar", grid); }) ==
        "c.h5: checkpoint is from solver 'cfd', this case runs 'scalar'");

  cb::GridGeometry finer = grid;
  finer.cells = {18, 7, 5};
  const std::string message =
      input_error([&] { cb::io::check_compatible("c.h5", header, "cfd", finer); });
  CHECK_THAT(message, StartsWith("c.h5: checkpoint grid"));
  CHECK_THAT(message, ContainsSubstring("9x7x5"));
  CHECK_THAT(message, ContainsSubstring("18x7x5"));

  cb::GridGeometry moved = grid;
  moved.hi[2] = 3.0;
  CHECK_THAT(input_error([&] { cb::io::check_compatible("c.h5", header, "cfd", moved); }),
             ContainsSubstring("[0.5, 3]"));
  cb::GridGeometry walled = grid;
  walled.periodic[0] = false;
  CHECK_THAT(input_error([&] { cb::io::check_compatible("c.h5", header, "cfd", walled); }),
             ContainsSubstring("periodic in z)"));
}

TEST_CASE("prune_checkpoints keeps the newest K and drops partial files", "[checkpoint][mpi]") {
  TempDir tmp;
  const std::string dir = tmp.path();
  for (long step = 1; step <= 5; ++step)
    write_test_checkpoint(cb::io::checkpoint_path(dir, step), step);
  const auto listing = [&] {
    std::vector<std::string> names;
    for (const auto& entry : fs::directory_iterator(dir))
      names.push_back(entry.path().filename().string());
    std::sort(names.begin(), names.end());
    return names;
  };
  if (world_rank() == 0) {
    copy_file(cb::io::checkpoint_path(dir, 5), cb::io::checkpoint_path(dir, 6) + ".partial");
    cb::io::prune_checkpoints(dir, 0);
    CHECK(listing().size() == 5);
    cb::io::prune_checkpoints(dir, 2);
    CHECK(listing() == std::vector<std::string>{"chk_00000004.h5", "chk_00000005.h5"});
    cb::io::prune_checkpoints(dir, 2);
    CHECK(listing().size() == 2);
  }
  MPI_Barrier(MPI_COMM_WORLD);
}

TEST_CASE("a failed checkpoint write throws RunError and leaves no partial", "[checkpoint][mpi]") {
  TempDir tmp;
  const std::string blocked = tmp.path() + "/blocked";  // a directory where the file should go
  if (world_rank() == 0) fs::create_directories(blocked + "/inside");
  MPI_Barrier(MPI_COMM_WORLD);
  CHECK_THROWS_AS(write_test_checkpoint(blocked, 1), cb::RunError);
  CHECK_FALSE(fs::exists(blocked + ".partial"));

  const std::string under_file = cb::io::checkpoint_path(tmp.path(), 1) + "/chk_00000001.h5";
  write_test_checkpoint(cb::io::checkpoint_path(tmp.path(), 1), 1);
  try {
    write_test_checkpoint(under_file, 1);
    FAIL("no RunError");
  } catch (const cb::RunError& e) {
    CHECK_THAT(std::string(e.what()), StartsWith(under_file + ": cannot write checkpoint"));
  }
}
