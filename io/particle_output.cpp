#include "io/particle_output.hpp"

#include "core/error.hpp"
#include "io/detail/bond_cells.hpp"
#include "io/detail/h5_fields.hpp"
#include "io/detail/particle_arrays.hpp"
#include "io/detail/text_format.hpp"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>

namespace cb::io {
namespace {

namespace fs = std::filesystem;
using detail::format_number;
using detail::H5Handle;
using detail::xml_escape;

int rank_of(MPI_Comm comm) {
  int rank = 0;
  MPI_Comm_rank(comm, &rank);
  return rank;
}

std::string make_directory(const std::string& dir) {
  std::error_code ec;
  fs::create_directories(dir, ec);
  return ec ? "cannot create directory " + dir + ": " + ec.message() : "";
}

// Appends the value of `column` for atom `a` to `line`.
void append_value(std::string& line, const AtomTable& table, const std::string& column,
                  const ParticleBox& box, std::size_t a) {
  const HostParticles& atoms = table.atoms;
  char text[40];
  const std::string axes = "xyz";
  if (column == "id") {
    std::snprintf(text, sizeof text, "%lld", static_cast<long long>(atoms.id[a]));
  } else if (column == "type") {
    std::snprintf(text, sizeof text, "%d", atoms.type[a]);
  } else if (column.size() == 1) {  // x y z
    std::snprintf(text, sizeof text, "%.10g", atoms.x[3 * a + axes.find(column[0])]);
  } else if (column.size() == 2 && column[1] == 'u') {  // xu yu zu: unwrapped
    const std::size_t axis = axes.find(column[0]);
    const double length = box.hi[axis] - box.lo[axis];
    std::snprintf(text, sizeof text, "%.10g",
                  atoms.x[3 * a + axis] + length * atoms.image[3 * a + axis]);
  } else if (column.size() == 2 && column[0] == 'v') {
    std::snprintf(text, sizeof text, "%.10g", atoms.v[3 * a + axes.find(column[1])]);
  } else if (column.size() == 2 && column[0] == 'i') {
    std::snprintf(text, sizeof text, "%d", atoms.image[3 * a + axes.find(column[1])]);
  } else {
    const auto q = std::find(table.extra_names.begin(), table.extra_names.end(), column);
    if (q == table.extra_names.end())
      throw std::invalid_argument("dump column '" + column + "' is not available");
    std::snprintf(text, sizeof text, "%.10g", table.extra[q - table.extra_names.begin()][a]);
  }
  line += text;
}

std::string dump_text(long step, const ParticleBox& box, const AtomTable& table,
                      const std::vector<std::string>& columns) {
  std::ostringstream head;
  head << "ITEM: TIMESTEP\n"
       << step << "\nITEM: NUMBER OF ATOMS\n"
       << table.atoms.size() << "\nITEM: BOX BOUNDS";
  for (int axis = 0; axis < 3; ++axis) head << (box.periodic[axis] ? " pp" : " ff");
  head << '\n';
  for (int axis = 0; axis < 3; ++axis)
    head << format_number(box.lo[axis]) << ' ' << format_number(box.hi[axis]) << '\n';
  head << "ITEM: ATOMS";
  for (const std::string& column : columns) head << ' ' << column;
  head << '\n';
  std::string text = head.str();
  text.reserve(text.size() + table.atoms.size() * columns.size() * 14);
  for (std::size_t a = 0; a < table.atoms.size(); ++a) {
    for (std::size_t c = 0; c < columns.size(); ++c) {
      if (c > 0) text += ' ';
      append_value(text, table, columns[c], box, a);
    }
    text += '\n';
  }
  return text;
}

std::string particles_file_name(long step) {
  char name[48];
  std::snprintf(name, sizeof name, "particles/particles_%08ld.h5", step);
  return name;
}

// The datasets `names` of `local`'s atoms at their rows.
void write_columns(hid_t file, const AtomTable& local, const std::vector<std::string>& names,
                   const detail::RowSlice& slice) {
  const HostParticles& a = local.atoms;
  for (const std::string& name : names) {
    if (name == "id") {
      detail::write_rows(file, name, H5T_STD_I64LE, H5T_NATIVE_INT64, 1, slice, a.id.data());
    } else if (name == "type") {
      detail::write_rows(file, name, H5T_STD_I32LE, H5T_NATIVE_INT, 1, slice, a.type.data());
    } else if (name == "v") {
      detail::write_rows(file, name, H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, 3, slice, a.v.data());
    } else if (name == "image") {
      detail::write_rows(file, name, H5T_STD_I32LE, H5T_NATIVE_INT, 3, slice, a.image.data());
    } else {
      const std::size_t q = std::find(local.extra_names.begin(), local.extra_names.end(), name) -
                            local.extra_names.begin();
      detail::write_rows(file, name, H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, 1, slice,
                         local.extra[q].data());
    }
  }
}

std::string write_particles_file(const std::string& path, MPI_Comm comm, long step, double time,
                                 const ParticleBox& box, const AtomTable& local,
                                 const std::vector<std::string>& names,
                                 const detail::RowSlice& slice, const detail::BondCells& bonds) {
  try {
    detail::QuietH5Errors quiet;  // the failure is reported in the RunError instead
    H5Handle file = detail::create_file(path, comm);
    detail::write_attribute(file, "step", step);
    detail::write_attribute(file, "time", time);
    detail::write_attribute(file, "atoms", long(slice.total));
    detail::write_attribute(file, "lo", box.lo);
    detail::write_attribute(file, "hi", box.hi);
    detail::write_attribute(file, "periodic", box.periodic);
    detail::write_rows(file, "x", H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, 3, slice,
                       local.atoms.x.data());
    // The Polyvertex cells, one per atom: the XDMF 3 readers of ParaView draw
    // no cells from a topology without its connectivity.
    std::vector<std::int64_t> cells(local.atoms.size());
    for (std::size_t i = 0; i < cells.size(); ++i) cells[i] = slice.offset + std::int64_t(i);
    detail::write_rows(file, "cells", H5T_STD_I64LE, H5T_NATIVE_INT64, 1, slice, cells.data());
    if (bonds.slice.total > 0) {  // the Polyline cells of the bonds and their types
      detail::write_attribute(file, "bonds", long(bonds.slice.total));
      detail::write_rows(file, "bonds", H5T_STD_I64LE, H5T_NATIVE_INT64, 2, bonds.slice,
                         bonds.rows.data());
      detail::write_rows(file, "bond_type", H5T_STD_I32LE, H5T_NATIVE_INT, 1, bonds.slice,
                         bonds.type.data());
    }
    write_columns(file, local, names, slice);
    file.close(("close " + path).c_str());
  } catch (const std::exception& e) {
    return e.what();
  }
  return {};
}

// Time, atom count and dataset names of an existing particles file.
bool scan_particles_file(const std::string& path, ParticleXdmfOutput::Entry& entry) {
  try {
    detail::QuietH5Errors quiet;
    H5Handle file = detail::open_file(path, MPI_COMM_NULL);
    entry.time = detail::read_double_attribute(file, "time");
    entry.atoms = detail::read_long_attribute(file, "atoms");
    entry.bonds =
        detail::has_attribute(file, "bonds") ? detail::read_long_attribute(file, "bonds") : 0;
    entry.cells = false;
    for (const std::string& name : detail::dataset_names(file)) {
      if (name == "cells")
        entry.cells = true;
      else if (name != "x" && name != "bonds" && name != "bond_type")
        entry.names.push_back(name);
    }
    return true;
  } catch (const std::exception&) {
    return false;
  }
}

// An HDF5 DataItem of the entry's file: `dims`, Int or Float of `precision` bytes.
std::string data_item(const ParticleXdmfOutput::Entry& entry, const std::string& dataset,
                      const std::string& dims, bool integer, int precision) {
  return "<DataItem Dimensions=\"" + dims + "\" NumberType=\"" + (integer ? "Int" : "Float") +
         "\" Precision=\"" + std::to_string(precision) + "\" Format=\"HDF\">" +
         xml_escape(entry.file) + ":/" + xml_escape(dataset) + "</DataItem>";
}

// One XDMF attribute: its centre, type and width by dataset name.
std::string xdmf_attribute(const ParticleXdmfOutput::Entry& entry, const std::string& name) {
  const bool vector = name == "v" || name == "image";
  const bool integer = name == "id" || name == "type" || name == "image" || name == "bond_type";
  const bool bond = name == "bond_type";
  const int precision = name == "id" || !integer ? 8 : 4;
  const std::string dims = std::to_string(bond ? entry.bonds : entry.atoms) + (vector ? " 3" : "");
  return "        <Attribute Name=\"" + xml_escape(name) + "\" AttributeType=\"" +
         (vector ? "Vector" : "Scalar") + "\" Center=\"" + (bond ? "Cell" : "Node") +
         "\">\n          " + data_item(entry, name, dims, integer, precision) +
         "\n        </Attribute>\n";
}

// A uniform grid of the step: its time, `topology` (the <Topology> element)
// and the atoms' positions.
std::string grid_head(const ParticleXdmfOutput::Entry& entry, const std::string& name,
                      const std::string& topology) {
  return "      <Grid Name=\"" + name + std::to_string(entry.step) +
         "\" GridType=\"Uniform\">\n        <Time Value=\"" + format_number(entry.time) + "\"/>\n" +
         topology + "        <Geometry GeometryType=\"XYZ\">\n          " +
         data_item(entry, "x", std::to_string(entry.atoms) + " 3", false, 8) +
         "\n        </Geometry>\n";
}

std::string xdmf_grid(const ParticleXdmfOutput::Entry& entry) {
  std::string topology = "        <Topology TopologyType=\"Polyvertex\" NumberOfElements=\"" +
                         std::to_string(entry.atoms) + "\" NodesPerElement=\"1\"";
  if (entry.cells) {
    topology += ">\n          " + data_item(entry, "cells", std::to_string(entry.atoms), true, 8) +
                "\n        </Topology>\n";
  } else {  // a file of an earlier version, found when a series is rebuilt
    topology += "/>\n";
  }
  std::string xml = grid_head(entry, "step_", topology);
  for (const std::string& name : entry.names) xml += xdmf_attribute(entry, name);
  return xml + "      </Grid>\n";
}

// The bonds of a step: Polyline cells of 2 nodes on the atoms' positions.
std::string xdmf_bond_grid(const ParticleXdmfOutput::Entry& entry) {
  const std::string bonds = std::to_string(entry.bonds);
  const std::string topology = "        <Topology TopologyType=\"Polyline\" NumberOfElements=\"" +
                               bonds + "\" NodesPerElement=\"2\">\n          " +
                               data_item(entry, "bonds", bonds + " 2", true, 8) +
                               "\n        </Topology>\n";
  return grid_head(entry, "bonds_", topology) + xdmf_attribute(entry, "bond_type") +
         "      </Grid>\n";
}

}  // namespace

const std::vector<std::string>& standard_atom_columns() {
  static const std::vector<std::string> columns = {"id", "type", "x",  "y",  "z",  "xu", "yu",
                                                   "zu", "vx",   "vy", "vz", "ix", "iy", "iz"};
  return columns;
}

std::vector<std::string> particle_output_names(const std::vector<std::string>& per_atom_names) {
  std::vector<std::string> names = standard_atom_columns();
  names.insert(names.end(), per_atom_names.begin(), per_atom_names.end());
  return names;
}

AtomTable owned_atom_table(ParticleSolver& solver, const std::vector<std::string>& names) {
  AtomTable table;
  table.atoms = solver.owned_particles();
  const std::vector<std::string> offered = solver.per_atom_names();
  for (std::size_t q = 0; q < offered.size(); ++q) {
    if (std::find(names.begin(), names.end(), offered[q]) == names.end()) continue;
    table.extra_names.push_back(offered[q]);
    table.extra.push_back(solver.per_atom_values(static_cast<int>(q)));
  }
  return table;
}

std::string dump_path(const std::string& dir, long step) {
  char name[48];
  std::snprintf(name, sizeof name, "/dump_%08ld.lammpstrj", step);
  return dir + name;
}

void write_lammps_dump(const std::string& path, MPI_Comm comm, long step, const ParticleBox& box,
                       const AtomTable& local, const std::vector<std::string>& columns) {
  const bool root = rank_of(comm) == 0;
  const AtomTable all = detail::gather_sorted_by_id(comm, local);
  std::string error;
  if (root) {
    error = make_directory(fs::path(path).parent_path().string());
    try {
      if (error.empty())
        error = detail::write_text_atomically(path, dump_text(step, box, all, columns));
    } catch (const std::exception& e) {
      error = e.what();
    }
  }
  error = detail::first_error(comm, error);
  if (!error.empty()) throw RunError(path + ": cannot write the dump: " + error);
}

ParticleXdmfOutput::ParticleXdmfOutput(std::string out_dir, MPI_Comm comm, long first_step)
    : out_dir_(std::move(out_dir)), comm_(comm) {
  // The series lives on rank 0, which alone writes particles.xmf.
  if (first_step <= 0 || rank_of(comm) != 0) return;
  std::error_code ec;
  for (fs::directory_iterator it(out_dir_ + "/particles", ec), end; !ec && it != end;
       it.increment(ec)) {
    const std::string name = it->path().filename().string();
    Entry entry;
    entry.step = detail::step_in_file_name(name, "particles_", ".h5");
    entry.file = "particles/" + name;
    if (entry.step >= 0 && entry.step <= first_step &&
        scan_particles_file(it->path().string(), entry))
      series_.push_back(std::move(entry));
  }
  std::sort(series_.begin(), series_.end(),
            [](const Entry& a, const Entry& b) { return a.step < b.step; });
}

void ParticleXdmfOutput::write(long step, double time, const ParticleBox& box,
                               const AtomTable& local, bool velocities, bool images) {
  const bool root = rank_of(comm_) == 0;
  Entry entry;
  entry.step = step;
  entry.time = time;
  entry.file = particles_file_name(step);
  entry.names = {"id", "type"};
  if (velocities) entry.names.push_back("v");
  if (images) entry.names.push_back("image");
  entry.names.insert(entry.names.end(), local.extra_names.begin(), local.extra_names.end());
  const std::string path = out_dir_ + "/" + entry.file;
  const detail::RowSlice slice = detail::rank_offset_slice(comm_, std::int64_t(local.atoms.size()));
  entry.atoms = slice.total;
  std::string error;
  const detail::BondCells bonds = detail::bond_cells(comm_, local.atoms, error);
  entry.bonds = bonds.slice.total;
  if (root && error.empty()) error = make_directory(out_dir_ + "/particles");
  if (root && error.empty()) {
    // x, the cells and every column, counted as 8-byte values, and 3 per
    // bond: an upper bound.
    std::size_t values = 4 + entry.names.size();
    if (velocities) values += 2;
    if (images) values += 2;
    error = detail::space_shortage(
        out_dir_ + "/particles", 8.0 * (values * double(slice.total) + 3.0 * double(entry.bonds)));
  }
  error = detail::first_error(comm_, error);
  if (error.empty()) {
    error = detail::first_error(comm_, write_particles_file(path, comm_, step, time, box, local,
                                                            entry.names, slice, bonds));
    if (!error.empty() && root) {
      std::error_code ignored;
      fs::remove(path, ignored);  // not left behind truncated
    }
  }
  if (error.empty())
    error = detail::first_error(comm_, root ? add_to_series(std::move(entry)) : "");
  if (!error.empty()) throw RunError(path + ": cannot write particle output: " + error);
}

std::string ParticleXdmfOutput::add_to_series(Entry entry) {
  // A rewritten step replaces its entry and every later one.
  const long step = entry.step;
  series_.erase(std::remove_if(series_.begin(), series_.end(),
                               [step](const Entry& e) { return e.step >= step; }),
                series_.end());
  series_.push_back(std::move(entry));
  try {
    write_xdmf();
  } catch (const std::exception& e) {
    return e.what();
  }
  return {};
}

// Two temporal collections when the run has bonds: the atoms (Polyvertex) and
// the bonds (Polyline); ParaView reads them as two blocks.
void ParticleXdmfOutput::write_xdmf() const {
  std::string atoms, bonds;
  for (const Entry& entry : series_) {
    atoms += xdmf_grid(entry);
    if (entry.bonds > 0) bonds += xdmf_bond_grid(entry);
  }
  std::string collections = detail::xdmf_temporal_collection("particles", atoms);
  if (!bonds.empty()) collections += detail::xdmf_temporal_collection("bonds", bonds);
  const std::string error = detail::write_text_atomically(out_dir_ + "/particles.xmf",
                                                          detail::xdmf_document(collections));
  if (!error.empty()) throw std::runtime_error(error);
}

}  // namespace cb::io
