// Field output: one HDF5 file per output step plus the XDMF time series.
// A fields file holds one dataset per field at the root (`/<name>`, shape
// [nz][ny][nx], no ghosts) and the attributes step, time, cells, lo, hi,
// periodic (docs/checkpoint-format.md, "Field output").
#include "io/field_output.hpp"

#include "core/error.hpp"
#include "io/detail/h5_fields.hpp"
#include "io/detail/text_format.hpp"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <utility>

namespace cb::io {

namespace {

namespace fs = std::filesystem;
using detail::H5Handle;

std::string fields_file_name(long step) {
  char name[48];
  std::snprintf(name, sizeof name, "fields/fields_%08ld.h5", step);
  return name;
}

std::string make_directory(const std::string& dir) {
  std::error_code ec;
  fs::create_directories(dir, ec);
  return ec ? "cannot create directory " + dir + ": " + ec.message() : "";
}

std::string write_fields_file(const std::string& path, const Decomposition& decomposition,
                              const GridGeometry& geometry, long step, double time,
                              const std::vector<FieldComponent>& fields) {
  try {
    detail::QuietH5Errors quiet;  // the failure is reported in the RunError instead
    H5Handle file = detail::create_file(path, decomposition.comm());
    detail::write_attribute(file, "step", step);
    detail::write_attribute(file, "time", time);
    detail::write_attribute(file, "cells", geometry.cells);
    detail::write_attribute(file, "lo", geometry.lo);
    detail::write_attribute(file, "hi", geometry.hi);
    detail::write_attribute(file, "periodic", geometry.periodic);
    detail::write_field_datasets(file, decomposition, fields);
    file.close(("close " + path).c_str());
  } catch (const std::exception& e) {
    return e.what();
  }
  return {};
}

// Step of `fields_<digits>.h5`, or -1 for any other name.
long step_of(const std::string& name) {
  return detail::step_in_file_name(name, "fields_", ".h5");
}

// Time and dataset names (volume and ground layer) of an existing fields file; false when it
// is unreadable.
bool scan_fields_file(const std::string& path, long nz, double& time,
                      std::vector<std::string>& names, std::vector<std::string>& ground_names) {
  try {
    detail::QuietH5Errors quiet;
    H5Handle file = detail::open_file(path, MPI_COMM_NULL);
    time = detail::read_double_attribute(file, "time");
    for (std::string& name : detail::dataset_names(file)) {
      const bool ground = nz > 1 && detail::leading_extent(file, name) == 1;
      (ground ? ground_names : names).push_back(std::move(name));
    }
    return !names.empty() || !ground_names.empty();
  } catch (const std::exception&) {
    return false;
  }
}

using detail::format_number;
using detail::xml_escape;

// Three numbers in XDMF's slowest-first (z, y, x) order.
template <class Array, class Op>
std::string zyx(const Array& xyz, Op op) {
  return format_number(op(xyz, 2)) + " " + format_number(op(xyz, 1)) + " " +
         format_number(op(xyz, 0));
}

std::string xdmf_grid(const GridGeometry& geometry, long step, double time, const std::string& file,
                      const std::vector<std::string>& names) {
  const auto cells = [](const Int3& n, int axis) { return double(n[axis]); };
  const auto nodes = [](const Int3& n, int axis) { return double(n[axis] + 1); };
  const std::string dims = zyx(geometry.cells, cells);
  const std::string precision = std::to_string(sizeof(real));
  std::ostringstream xml;
  xml << "      <Grid Name=\"step_" << step << "\" GridType=\"Uniform\">\n"
      << "        <Time Value=\"" << format_number(time) << "\"/>\n"
      << "        <Topology TopologyType=\"3DCoRectMesh\" Dimensions=\""
      << zyx(geometry.cells, nodes) << "\"/>\n"
      << "        <Geometry GeometryType=\"ORIGIN_DXDYDZ\">\n"
      << "          <DataItem Name=\"Origin\" Dimensions=\"3\" NumberType=\"Float\" "
         "Precision=\"8\" Format=\"XML\">"
      << zyx(geometry.lo, [](const Real3& lo, int axis) { return lo[axis]; }) << "</DataItem>\n"
      << "          <DataItem Name=\"Spacing\" Dimensions=\"3\" NumberType=\"Float\" "
         "Precision=\"8\" Format=\"XML\">"
      << zyx(geometry, [](const GridGeometry& g, int axis) { return g.spacing(axis); })
      << "</DataItem>\n"
      << "        </Geometry>\n";
  for (const std::string& name : names)
    xml << "        <Attribute Name=\"" << xml_escape(name)
        << "\" AttributeType=\"Scalar\" Center=\"Cell\">\n"
        << "          <DataItem Dimensions=\"" << dims << "\" NumberType=\"Float\" Precision=\""
        << precision << "\" Format=\"HDF\">" << xml_escape(file) << ":/" << xml_escape(name)
        << "</DataItem>\n"
        << "        </Attribute>\n";
  xml << "      </Grid>\n";
  return xml.str();
}

}  // namespace

FieldOutput::FieldOutput(std::string out_dir, const Decomposition& decomposition,
                         GridGeometry geometry, long first_step)
    : out_dir_(std::move(out_dir)), decomposition_(&decomposition), geometry_(geometry) {
  // The series lives on rank 0, which alone writes fields.xmf.
  if (first_step <= 0 || decomposition.rank() != 0) return;
  std::error_code ec;
  for (fs::directory_iterator it(out_dir_ + "/fields", ec), end; !ec && it != end;
       it.increment(ec)) {
    const std::string name = it->path().filename().string();
    const long step = step_of(name);
    Entry entry{step, 0.0, "fields/" + name, {}, {}};
    if (step >= 0 && step <= first_step &&
        scan_fields_file(it->path().string(), geometry_.cells[2], entry.time, entry.names,
                         entry.ground_names))
      series_.push_back(std::move(entry));
  }
  std::sort(series_.begin(), series_.end(),
            [](const Entry& a, const Entry& b) { return a.step < b.step; });
}

void FieldOutput::write(long step, double time, const std::vector<FieldComponent>& fields) {
  const Decomposition& decomposition = *decomposition_;
  MPI_Comm comm = decomposition.comm();
  const bool root = decomposition.rank() == 0;
  const std::string file = fields_file_name(step);
  const std::string path = out_dir_ + "/" + file;

  std::string error = root ? make_directory(out_dir_ + "/fields") : std::string();
  const Int3& cells = decomposition.global_cells();
  if (root && error.empty())
    error = detail::space_shortage(
        out_dir_ + "/fields",
        double(fields.size()) * cells[0] * double(cells[1]) * cells[2] * sizeof(real));
  error = detail::first_error(comm, error);
  if (error.empty()) {
    error = detail::first_error(
        comm, write_fields_file(path, decomposition, geometry_, step, time, fields));
    if (!error.empty() && root) {
      std::error_code ignored;
      fs::remove(path, ignored);  // not left behind truncated
    }
  }
  if (error.empty()) {
    std::string local;
    if (root) {
      // A rewritten step replaces its entry and every later one.
      series_.erase(std::remove_if(series_.begin(), series_.end(),
                                   [step](const Entry& e) { return e.step >= step; }),
                    series_.end());
      Entry entry{step, time, file, {}, {}};
      for (const FieldComponent& field : fields)
        (field.ground_layer ? entry.ground_names : entry.names).push_back(field.name);
      series_.push_back(std::move(entry));
      try {
        write_xdmf();
      } catch (const std::exception& e) {
        local = e.what();
      }
    }
    error = detail::first_error(comm, local);
  }
  if (!error.empty()) throw RunError(path + ": cannot write field output: " + error);
}

void FieldOutput::write_xdmf() const {
  // The ground layer: the lowest layer of cells, one cell thick.
  GridGeometry ground = geometry_;
  ground.cells[2] = 1;
  ground.hi[2] = geometry_.lo[2] + geometry_.spacing(2);
  std::string grids, ground_grids;
  for (const Entry& entry : series_) {
    grids += xdmf_grid(geometry_, entry.step, entry.time, entry.file, entry.names);
    if (!entry.ground_names.empty())
      ground_grids += xdmf_grid(ground, entry.step, entry.time, entry.file, entry.ground_names);
  }
  for (const auto& [name, text] :
       {std::pair<std::string, const std::string&>{"fields", grids}, {"surface", ground_grids}}) {
    if (text.empty()) continue;
    const std::string error = detail::write_text_atomically(out_dir_ + "/" + name + ".xmf",
                                                            detail::xdmf_time_series(name, text));
    if (!error.empty()) throw std::runtime_error(error);
  }
}

}  // namespace cb::io
