// Field output: the XDMF series is well-formed XML, every HDF5 reference in it
// resolves to a dataset of the stated shape holding the right values, and a
// restart keeps the series up to its step. Runs at 1 and 2 ranks.
#include "core/decomposition.hpp"
#include "io/field_output.hpp"
#include "mpi_test_support.hpp"

#include <catch2/catch_test_macros.hpp>

#include <hdf5.h>
#include <mpi.h>
#include <Kokkos_Core.hpp>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace {

namespace fs = std::filesystem;
using cb::Int3;

using cb::test::world_rank;
using cb::test::world_size;

// A fresh directory per test, shared by all ranks.
class TempDir : public cb::test::SharedTempDir {
 public:
  TempDir() : SharedTempDir("cb_fields_") {}
};

double value_at(long step, int component, int gi, int gj, int gk) {
  return double(cb::real(10000.0 * step + 1000.0 * component + 100.0 * gk + 10.0 * gj + gi +
                         1.0 / (3.0 + gi + 7.0 * gj + 11.0 * gk)));
}

// A two-component field (halo 1) holding value_at(step, ...) in its owned cells.
cb::Field make_state(const cb::Decomposition& decomposition, long step) {
  const Int3 ghost = cb::ghost_widths(decomposition.global_cells(), 1);
  const Int3& n = decomposition.local_cells();
  const Int3& offset = decomposition.offset();
  cb::Field state("test::state", 2, n[2] + 2 * ghost[2], n[1] + 2 * ghost[1], n[0] + 2 * ghost[0]);
  auto host = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), state);
  Kokkos::deep_copy(host, -1.0);
  for (int c = 0; c < 2; ++c)
    for (int k = 0; k < n[2]; ++k)
      for (int j = 0; j < n[1]; ++j)
        for (int i = 0; i < n[0]; ++i)
          host(c, k + ghost[2], j + ghost[1], i + ghost[0]) =
              cb::real(value_at(step, c, i + offset[0], j + offset[1], k + offset[2]));
  Kokkos::deep_copy(state, host);
  return state;
}

struct XmlElement {
  std::string name;
  std::map<std::string, std::string> attributes;
  std::string text;  // character data of a leaf element
};

// Parses a tag body `Name a="1" b="2"` (without the angle brackets).
XmlElement parse_tag(const std::string& body) {
  XmlElement element;
  std::size_t at = body.find_first_of(" \t\n");
  element.name = body.substr(0, at);
  while (at != std::string::npos &&
         (at = body.find_first_not_of(" \t\n", at)) != std::string::npos) {
    const std::size_t equals = body.find('=', at);
    const std::size_t open = body.find('"', equals);
    const std::size_t close = body.find('"', open + 1);
    if (equals == std::string::npos || open != equals + 1 || close == std::string::npos)
      throw std::runtime_error("bad attribute in <" + body + ">");
    element.attributes[body.substr(at, equals - at)] = body.substr(open + 1, close - open - 1);
    at = close + 1;
  }
  return element;
}

// A minimal XML walk: elements in document order; throws when tags do not nest.
std::vector<XmlElement> parse_xml(const std::string& xml) {
  std::vector<XmlElement> elements;
  std::vector<std::pair<std::size_t, std::size_t>> open;  // element index, end of its start tag
  for (std::size_t at = xml.find('<'); at != std::string::npos; at = xml.find('<', at)) {
    const std::size_t end = xml.find('>', at);
    if (end == std::string::npos) throw std::runtime_error("unterminated tag");
    std::string body = xml.substr(at + 1, end - at - 1);
    if (body[0] == '/') {
      if (open.empty() || elements[open.back().first].name != body.substr(1))
        throw std::runtime_error("mismatched </" + body.substr(1) + ">");
      elements[open.back().first].text = xml.substr(open.back().second, at - open.back().second);
      open.pop_back();
    } else if (body[0] != '?' && body[0] != '!') {
      const bool self_closing = body.back() == '/';
      if (self_closing) body.pop_back();
      elements.push_back(parse_tag(body));
      if (!self_closing) open.emplace_back(elements.size() - 1, end + 1);
    }
    at = end + 1;
  }
  if (!open.empty())
    throw std::runtime_error("unclosed <" + elements[open.back().first].name + ">");
  return elements;
}

std::vector<double> numbers(const std::string& text) {
  std::istringstream in(text);
  std::vector<double> values;
  for (double v; in >> v;) values.push_back(v);
  return values;
}

std::string read_text(const std::string& path) {
  std::ifstream in(path);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// Checks one "file.h5:/name" reference: shape [nz][ny][nx] and, when `step`
// >= 0, the values of component `component`. Returns the number of problems.
int check_reference(const std::string& out_dir, const std::string& reference, const Int3& cells,
                    long step, int component) {
  const std::size_t colon = reference.find(':');
  if (colon == std::string::npos) return 1;
  const std::string file_path = out_dir + "/" + reference.substr(0, colon);
  const hid_t file = H5Fopen(file_path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
  if (file < 0) return 1;
  int problems = 0;
  const hid_t dataset = H5Dopen2(file, reference.substr(colon + 1).c_str(), H5P_DEFAULT);
  if (dataset < 0) {
    H5Fclose(file);
    return 1;
  }
  const hid_t space = H5Dget_space(dataset);
  hsize_t dims[3] = {0, 0, 0};
  if (H5Sget_simple_extent_ndims(space) != 3) ++problems;
  H5Sget_simple_extent_dims(space, dims, nullptr);
  if (dims[0] != hsize_t(cells[2]) || dims[1] != hsize_t(cells[1]) || dims[2] != hsize_t(cells[0]))
    ++problems;
  if (problems == 0 && step >= 0) {
    std::vector<double> values(dims[0] * dims[1] * dims[2]);
    H5Dread(dataset, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, values.data());
    for (int k = 0; k < cells[2]; ++k)
      for (int j = 0; j < cells[1]; ++j)
        for (int i = 0; i < cells[0]; ++i)
          problems += values[(std::size_t(k) * cells[1] + j) * cells[0] + i] !=
                      value_at(step, component, i, j, k);
  }
  H5Sclose(space);
  H5Dclose(dataset);
  H5Fclose(file);
  return problems;
}

// What a test needs from fields.xmf, gathered on rank 0.
struct Series {
  std::vector<double> times;
  std::vector<std::string> grid_names;
  int problems = 0;
};

Series check_series(const std::string& out_dir, const cb::GridGeometry& grid, bool check_values,
                    const std::string& xdmf = "fields.xmf") {
  Series series;
  const std::vector<XmlElement> elements = parse_xml(read_text(out_dir + "/" + xdmf));
  REQUIRE(!elements.empty());
  CHECK(elements.front().name == "Xdmf");
  const auto cells = [&](int extra) {
    return std::vector<double>{double(grid.cells[2] + extra), double(grid.cells[1] + extra),
                               double(grid.cells[0] + extra)};
  };
  long step = -1;
  for (const XmlElement& e : elements) {
    const auto attribute = [&e](const char* key) {
      const auto it = e.attributes.find(key);
      return it == e.attributes.end() ? std::string() : it->second;
    };
    if (e.name == "Grid" && attribute("GridType") == "Uniform") {
      series.grid_names.push_back(attribute("Name"));
      step = std::stol(attribute("Name").substr(5));  // "step_<n>"
    } else if (e.name == "Time") {
      series.times.push_back(std::stod(attribute("Value")));
    } else if (e.name == "Topology") {
      series.problems += attribute("TopologyType") != "3DCoRectMesh";
      series.problems += numbers(attribute("Dimensions")) != cells(1);
    } else if (e.name == "DataItem" && attribute("Name") == "Spacing") {
      series.problems +=
          numbers(e.text) != std::vector<double>{grid.spacing(2), grid.spacing(1), grid.spacing(0)};
    } else if (e.name == "DataItem" && attribute("Format") == "HDF") {
      series.problems += numbers(attribute("Dimensions")) != cells(0);
      const int component = e.text.find(":/energy") != std::string::npos ? 1 : 0;
      series.problems +=
          check_reference(out_dir, e.text, grid.cells, check_values ? step : -1, component);
    }
  }
  return series;
}

cb::GridGeometry box_geometry(const Int3& cells) {
  cb::GridGeometry grid;
  grid.cells = cells;
  grid.lo = {0.0, -1.0, 2.0};
  grid.hi = {1.5, 1.5, 3.0};
  grid.periodic = {true, true, false};
  return grid;
}

}  // namespace

TEST_CASE("field output writes an XDMF series that resolves to HDF5 datasets", "[fields][mpi]") {
  TempDir tmp;
  const std::string out = tmp.path() + "/out";
  const cb::GridGeometry grid = box_geometry({6, 5, 4});
  cb::Decomposition decomposition(MPI_COMM_WORLD, grid.cells, grid.periodic);
  {
    cb::io::FieldOutput output(out, decomposition, grid);
    for (long step : {0, 2, 4}) {
      cb::Field state = make_state(decomposition, step);
      output.write(step, 0.125 * double(step), {{"rho", state, 0}, {"energy", state, 1}});
    }
  }
  MPI_Barrier(MPI_COMM_WORLD);
  if (world_rank() == 0) {
    const Series series = check_series(out, grid, true);
    CHECK(series.problems == 0);
    CHECK(series.times == std::vector<double>{0.0, 0.25, 0.5});
    CHECK(series.grid_names == std::vector<std::string>{"step_0", "step_2", "step_4"});
    CHECK(fs::exists(out + "/fields/fields_00000004.h5"));
    CHECK_FALSE(fs::exists(out + "/fields.xmf.tmp"));
  }

  SECTION("a restart keeps the series up to its step, then appends") {
    MPI_Barrier(MPI_COMM_WORLD);
    cb::io::FieldOutput output(out, decomposition, grid, 2);
    cb::Field state = make_state(decomposition, 3);
    output.write(3, 0.3, {{"rho", state, 0}, {"energy", state, 1}});
    MPI_Barrier(MPI_COMM_WORLD);
    if (world_rank() == 0) {
      const Series series = check_series(out, grid, true);
      CHECK(series.problems == 0);
      CHECK(series.times == std::vector<double>{0.0, 0.25, 0.3});
    }
    state = make_state(decomposition, 4);
    output.write(4, 0.4, {{"rho", state, 0}, {"energy", state, 1}});
    MPI_Barrier(MPI_COMM_WORLD);
    if (world_rank() == 0) {
      const Series series = check_series(out, grid, true);
      CHECK(series.problems == 0);
      CHECK(series.grid_names == std::vector<std::string>{"step_0", "step_2", "step_3", "step_4"});
      CHECK(series.times == std::vector<double>{0.0, 0.25, 0.3, 0.4});
    }
  }
}

TEST_CASE("field output of a 2-D run has one cell along z", "[fields][mpi]") {
  TempDir tmp;
  const cb::GridGeometry grid = box_geometry({8, 6, 1});
  cb::Decomposition decomposition(MPI_COMM_WORLD, grid.cells, grid.periodic);
  cb::io::FieldOutput output(tmp.path(), decomposition, grid);
  cb::Field state = make_state(decomposition, 1);
  output.write(1, 0.5, {{"rho", state, 0}});
  MPI_Barrier(MPI_COMM_WORLD);
  if (world_rank() == 0) {
    const Series series = check_series(tmp.path(), grid, true);
    CHECK(series.problems == 0);
    CHECK(series.times == std::vector<double>{0.5});
    const hid_t file =
        H5Fopen((tmp.path() + "/fields/fields_00000001.h5").c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
    REQUIRE(file >= 0);
    for (const char* name : {"step", "time", "cells", "lo", "hi"}) CHECK(H5Aexists(file, name) > 0);
    H5Fclose(file);
  }
}

TEST_CASE("ground-layer fields are [1][ny][nx] datasets described by surface.xmf",
          "[fields][mpi]") {
  // Surface data (the weather solver's rain at the ground): the lowest layer of a 3-D field,
  // also when the ranks split z and only some of them own the ground.
  for (const Int3 dims : {Int3{0, 0, 0}, Int3{1, 1, world_size()}}) {
    TempDir tmp;
    const cb::GridGeometry grid = box_geometry({6, 5, 4});
    cb::Decomposition decomposition(MPI_COMM_WORLD, grid.cells, grid.periodic, dims);
    {
      cb::io::FieldOutput output(tmp.path(), decomposition, grid);
      for (long step : {1, 2}) {
        cb::Field state = make_state(decomposition, step);
        output.write(step, 0.5 * double(step), {{"rho", state, 0}, {"rain", state, 1, true}});
      }
    }
    MPI_Barrier(MPI_COMM_WORLD);
    if (world_rank() == 0) {
      INFO("rank grid " << decomposition.dims()[0] << " x " << decomposition.dims()[1] << " x "
                        << decomposition.dims()[2]);
      cb::GridGeometry ground = grid;
      ground.cells[2] = 1;
      ground.hi[2] = grid.lo[2] + grid.spacing(2);
      const Series volume = check_series(tmp.path(), grid, true);
      CHECK(volume.problems == 0);
      CHECK(read_text(tmp.path() + "/fields.xmf").find(":/rain") == std::string::npos);
      // surface.xmf's mesh is the ground layer and its references resolve to [1][ny][nx]
      // datasets holding layer k = 0 of component 1.
      const Series surface = check_series(tmp.path(), ground, false, "surface.xmf");
      CHECK(surface.problems == 0);
      CHECK(surface.times == std::vector<double>{0.5, 1.0});
      for (long step : {1, 2}) {
        const std::string file = "fields/fields_0000000" + std::to_string(step) + ".h5";
        CHECK(check_reference(tmp.path(), file + ":/rain", ground.cells, step, 1) == 0);
      }
    }
  }
}
