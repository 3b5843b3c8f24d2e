// HDF5 checkpoints: layout and protocol in docs/checkpoint-format.md.
#include "io/checkpoint.hpp"

#include "core/error.hpp"
#include "io/detail/checkpoint_file.hpp"
#include "io/detail/h5_fields.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <functional>
#include <sstream>

namespace cb::io {

namespace {

namespace fs = std::filesystem;
using detail::H5Error;
using detail::H5Handle;

constexpr const char* fields_group = "fields";
constexpr const char* particles_group = "particles";
constexpr const char* solver_state_group = "solver_state";

int rank_of(MPI_Comm comm) {
  int rank = 0;
  MPI_Comm_rank(comm, &rank);
  return rank;
}

std::string system_error(const std::string& what) {
  return what + ": " + std::strerror(errno);
}

// Rank 0, before the collective create: the directory must exist.
std::string prepare_directory(const std::string& path) {
  const fs::path parent = fs::path(path).parent_path();
  std::error_code ec;
  if (!parent.empty()) fs::create_directories(parent, ec);
  return ec ? "cannot create directory " + parent.string() + ": " + ec.message() : "";
}

std::string fsync_path(const std::string& path, int flags) {
  const int fd = ::open(path.c_str(), flags);
  if (fd < 0) return system_error("open " + path);
  const bool synced = ::fsync(fd) == 0;
  std::string error = synced ? "" : system_error("fsync " + path);
  ::close(fd);
  return error;
}

// Rank 0, after the collective close: make the file durable, then visible.
std::string publish(const std::string& partial, const std::string& path) {
  std::string error = fsync_path(partial, O_RDONLY);
  if (!error.empty()) return error;
  if (std::rename(partial.c_str(), path.c_str()) != 0)
    return system_error("rename " + partial + " to " + path);
  const fs::path parent = fs::path(path).parent_path();
  return fsync_path(parent.empty() ? "." : parent.string(), O_RDONLY | O_DIRECTORY);
}

void write_root_attributes(hid_t file, const CheckpointHeader& header, int ranks) {
  using detail::write_attribute;
  write_attribute(file, "format", std::string(checkpoint_format_name));
  write_attribute(file, "format_version", checkpoint_format_version);
  write_attribute(file, "solver", header.solver);
  write_attribute(file, "case_name", header.case_name);
  write_attribute(file, "step", header.step);
  write_attribute(file, "time", header.time);
  write_attribute(file, "dt", header.dt);
  write_attribute(file, "case_text", header.case_text);
  write_attribute(file, "code_version", header.code_version);
  write_attribute(file, "ranks", ranks);
  write_attribute(file, "kokkos_backend", header.kokkos_backend);
}

// The /fields group of a grid checkpoint: geometry attributes and one global
// dataset per field.
void write_fields_group(hid_t file, const Decomposition& decomposition,
                        const CheckpointHeader& header, const std::vector<FieldComponent>& fields) {
  H5Handle group = detail::create_group(file, fields_group);
  detail::write_attribute(group, "cells", header.geometry.cells);
  detail::write_attribute(group, "lo", header.geometry.lo);
  detail::write_attribute(group, "hi", header.geometry.hi);
  detail::write_attribute(group, "periodic", header.geometry.periodic);
  detail::write_field_datasets(group, decomposition, fields);
}

void write_checkpoint_file(const std::string& partial, MPI_Comm comm,
                           const CheckpointHeader& header,
                           const std::function<void(hid_t file)>& body) {
  detail::QuietH5Errors quiet;  // failures are reported in the RunError instead
  int ranks = 1;
  MPI_Comm_size(comm, &ranks);
  H5Handle file = detail::create_file(partial, comm);
  write_root_attributes(file, header, ranks);
  body(file);
  {
    H5Handle state = detail::create_group(file, solver_state_group);
    for (const auto& [name, value] : header.scalars) detail::write_attribute(state, name, value);
  }
  detail::check(H5Fflush(file, H5F_SCOPE_GLOBAL), "flush " + partial);
  detail::write_attribute(file, "complete", 1);
  file.close(("close " + partial).c_str());
}

// Byte packing of a header for one broadcast.
class Packer {
 public:
  template <class T>
  void put(const T& value) {
    static_assert(std::is_trivially_copyable<T>::value, "plain values only");
    bytes.append(reinterpret_cast<const char*>(&value), sizeof value);
  }
  void put(const std::string& text) {
    put(std::uint64_t(text.size()));
    bytes += text;
  }
  std::string bytes;
};

class Unpacker {
 public:
  explicit Unpacker(const std::string& bytes) : bytes_(bytes) {}
  template <class T>
  void get(T& value) {
    std::memcpy(&value, bytes_.data() + at_, sizeof value);
    at_ += sizeof value;
  }
  void get(std::string& text) {
    std::uint64_t size = 0;
    get(size);
    text.assign(bytes_, at_, size);
    at_ += size;
  }

 private:
  const std::string& bytes_;
  std::size_t at_ = 0;
};

std::string pack(const CheckpointHeader& header) {
  Packer packer;
  for (const std::string* text : {&header.format, &header.solver, &header.case_name,
                                  &header.case_text, &header.code_version, &header.kokkos_backend})
    packer.put(*text);
  packer.put(header.format_version);
  packer.put(header.step);
  packer.put(header.time);
  packer.put(header.dt);
  packer.put(header.ranks);
  packer.put(header.geometry);
  packer.put(header.atoms);
  packer.put(std::uint64_t(header.scalars.size()));
  for (const auto& [name, value] : header.scalars) {
    packer.put(name);
    packer.put(value);
  }
  return packer.bytes;
}

CheckpointHeader unpack(const std::string& bytes) {
  CheckpointHeader header;
  Unpacker unpacker(bytes);
  for (std::string* text : {&header.format, &header.solver, &header.case_name, &header.case_text,
                            &header.code_version, &header.kokkos_backend})
    unpacker.get(*text);
  unpacker.get(header.format_version);
  unpacker.get(header.step);
  unpacker.get(header.time);
  unpacker.get(header.dt);
  unpacker.get(header.ranks);
  unpacker.get(header.geometry);
  unpacker.get(header.atoms);
  std::uint64_t count = 0;
  unpacker.get(count);
  header.scalars.resize(count);
  for (auto& [name, value] : header.scalars) {
    unpacker.get(name);
    unpacker.get(value);
  }
  return header;
}

// The attributes after the format checks; throws H5Error on a damaged file.
CheckpointHeader read_attributes(hid_t file) {
  using namespace detail;
  CheckpointHeader header;
  header.format_version = static_cast<int>(read_long_attribute(file, "format_version"));
  header.solver = read_string_attribute(file, "solver");
  header.case_name = read_string_attribute(file, "case_name");
  header.step = read_long_attribute(file, "step");
  header.time = read_double_attribute(file, "time");
  header.dt = read_double_attribute(file, "dt");
  header.case_text = read_string_attribute(file, "case_text");
  header.code_version = read_string_attribute(file, "code_version");
  header.ranks = static_cast<int>(read_long_attribute(file, "ranks"));
  header.kokkos_backend = read_string_attribute(file, "kokkos_backend");
  // A grid checkpoint describes its grid in /fields, a particle one its box in /particles.
  const bool particles = !has_link(file, fields_group) && has_link(file, particles_group);
  H5Handle group = open_group(file, particles ? particles_group : fields_group);
  if (particles) header.atoms = read_long_attribute(group, "atoms");
  header.geometry.cells = read_int3_attribute(group, "cells");
  header.geometry.lo = read_real3_attribute(group, "lo");
  header.geometry.hi = read_real3_attribute(group, "hi");
  const Int3 periodic = read_int3_attribute(group, "periodic");
  for (int axis = 0; axis < 3; ++axis) header.geometry.periodic[axis] = periodic[axis] != 0;
  if (has_link(file, solver_state_group)) {
    H5Handle state = open_group(file, solver_state_group);
    for (const std::string& name : attribute_names(state))
      header.scalars.emplace_back(name, read_double_attribute(state, name));
  }
  return header;
}

// Serial read on the calling rank; throws InputError naming `path`.
// A run resumes from where the header says: step, time and dt must be where a
// run can be (a NaN time would never reach end_time).
void check_position_in_time(const std::string& path, const CheckpointHeader& header) {
  if (header.step < 0)
    throw InputError(path + ": attribute 'step' is negative (" + std::to_string(header.step) + ")");
  if (!std::isfinite(header.time) || header.time < 0.0)
    throw InputError(path + ": attribute 'time' is not a finite time >= 0");
  if (!std::isfinite(header.dt) || header.dt < 0.0)
    throw InputError(path + ": attribute 'dt' is not a finite step >= 0");
}

CheckpointHeader read_header_here(const std::string& path) {
  std::error_code ec;
  if (!fs::exists(path, ec)) throw InputError(path + ": no such checkpoint");
  detail::QuietH5Errors quiet;
  H5Handle file;
  try {
    file = detail::open_file(path, MPI_COMM_NULL);
  } catch (const H5Error&) {
    throw InputError(path + ": not a readable HDF5 file (corrupt or truncated?)");
  }
  try {
    if (!detail::has_attribute(file, "format") ||
        detail::read_string_attribute(file, "format") != checkpoint_format_name)
      throw InputError(path + ": not a cloudburst checkpoint");
    const long version = detail::read_long_attribute(file, "format_version");
    if (version > checkpoint_format_version)
      throw InputError(path + ": checkpoint format_version " + std::to_string(version) +
                       " is newer than this cloudburst reads (" +
                       std::to_string(checkpoint_format_version) + ")");
    if (!detail::has_attribute(file, "complete") ||
        detail::read_long_attribute(file, "complete") != 1)
      throw InputError(path + ": incomplete checkpoint (its writer stopped before the end)");
    CheckpointHeader header = read_attributes(file);
    check_position_in_time(path, header);
    return header;
  } catch (const H5Error& e) {
    throw InputError(path + ": damaged checkpoint: " + e.what());
  }
}

bool is_complete_checkpoint(const std::string& path) {
  try {
    read_header_here(path);
    return true;
  } catch (const std::exception&) {
    return false;
  }
}

bool is_step_number(const std::string& digits) {
  return !digits.empty() && digits.size() <= 18 &&
         std::all_of(digits.begin(), digits.end(),
                     [](unsigned char c) { return std::isdigit(c) != 0; });
}

// `chk_<digits>.h5` files in `dir`, newest (highest step) first.
std::vector<std::pair<long, std::string>> list_checkpoints(const std::string& dir) {
  std::vector<std::pair<long, std::string>> found;
  std::error_code ec;
  for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
    const std::string name = it->path().filename().string();
    const std::size_t digits = name.size() > 7 ? name.size() - 7 : 0;  // "chk_" + ".h5"
    if (digits == 0 || name.compare(0, 4, "chk_") != 0 ||
        name.compare(name.size() - 3, 3, ".h5") != 0)
      continue;
    const std::string step = name.substr(4, digits);
    if (!is_step_number(step)) continue;
    found.emplace_back(std::stol(step), dir + "/" + name);
  }
  std::sort(found.begin(), found.end(), [](const auto& a, const auto& b) { return a > b; });
  return found;
}

std::string format_number(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%.15g", value);
  if (std::strtod(text, nullptr) != value) std::snprintf(text, sizeof text, "%.17g", value);
  return text;
}

std::string describe(const GridGeometry& grid) {
  std::ostringstream text;
  text << grid.cells[0] << "x" << grid.cells[1] << "x" << grid.cells[2] << " cells on ";
  for (int axis = 0; axis < 3; ++axis)
    text << (axis > 0 ? " x " : "") << "[" << format_number(grid.lo[axis]) << ", "
         << format_number(grid.hi[axis]) << "]";
  text << ", periodic in";
  bool any = false;
  for (int axis = 0; axis < 3; ++axis)
    if (grid.periodic[axis]) {
      text << " "
           << "xyz"[axis];
      any = true;
    }
  if (!any) text << " none";
  return text.str();
}

}  // namespace

void write_checkpoint(const std::string& path, const Decomposition& decomposition,
                      const CheckpointHeader& header, const std::vector<FieldComponent>& fields) {
  if (header.geometry.cells != decomposition.global_cells())
    throw std::invalid_argument("write_checkpoint: header grid differs from the decomposition");
  const double bytes = double(fields.size()) * double(decomposition.global_cells()[0]) *
                       double(decomposition.global_cells()[1]) *
                       double(decomposition.global_cells()[2]) * sizeof(real);
  detail::write_checkpoint_atomically(path, decomposition.comm(), header, bytes, [&](hid_t file) {
    write_fields_group(file, decomposition, header, fields);
  });
}

void detail::write_checkpoint_atomically(const std::string& path, MPI_Comm comm,
                                         const CheckpointHeader& header, double data_bytes,
                                         const std::function<void(hid_t file)>& body) {
  const bool root = rank_of(comm) == 0;
  const std::string partial = path + ".partial";

  std::string error = root ? prepare_directory(path) : "";
  if (root && error.empty())
    error = detail::space_shortage(fs::path(path).parent_path().string(),
                                   data_bytes + double(header.case_text.size()));
  error = detail::first_error(comm, error);
  if (error.empty()) {
    try {
      write_checkpoint_file(partial, comm, header, body);
    } catch (const std::exception& e) {
      error = e.what();
    }
    error = detail::first_error(comm, error);
  }
  if (error.empty()) error = detail::first_error(comm, root ? publish(partial, path) : "");
  if (!error.empty()) {
    if (root) std::remove(partial.c_str());
    throw RunError(path + ": cannot write checkpoint: " + error);
  }
  MPI_Barrier(comm);
}

CheckpointHeader read_checkpoint_header(const std::string& path, MPI_Comm comm) {
  std::string error, bytes;
  if (rank_of(comm) == 0) {
    try {
      bytes = pack(read_header_here(path));
    } catch (const std::exception& e) {
      error = e.what();
    }
  }
  detail::broadcast_string(comm, error);
  if (!error.empty()) throw InputError(error);
  detail::broadcast_string(comm, bytes);
  return unpack(bytes);
}

void read_checkpoint_fields(const std::string& path, const Decomposition& decomposition,
                            const std::vector<FieldComponent>& fields) {
  const std::string label = path + ": ";
  std::string error;
  std::error_code ec;
  if (!fs::exists(path, ec)) error = label + "no such checkpoint";
  error = detail::first_error(decomposition.comm(), error);
  if (error.empty()) {
    detail::QuietH5Errors quiet;
    try {
      H5Handle file = detail::open_file(path, decomposition.comm());
      H5Handle group = detail::open_group(file, fields_group);
      detail::read_field_datasets(group, label, decomposition, fields);
    } catch (const InputError& e) {
      error = e.what();
    } catch (const H5Error& e) {
      error = label + "cannot read the fields: " + e.what();
    }
    error = detail::first_error(decomposition.comm(), error);
  }
  if (!error.empty()) throw InputError(error);
}

void check_compatible(const std::string& path, const CheckpointHeader& header,
                      const std::string& solver, const GridGeometry& geometry) {
  if (header.solver != solver)
    throw InputError(path + ": checkpoint is from solver '" + header.solver +
                     "', this case runs '" + solver + "'");
  const GridGeometry& saved = header.geometry;
  if (saved.cells != geometry.cells || saved.lo != geometry.lo || saved.hi != geometry.hi ||
      saved.periodic != geometry.periodic)
    throw InputError(path + ": checkpoint grid (" + describe(saved) +
                     ") differs from this case's grid (" + describe(geometry) + ")");
}

std::string checkpoint_path(const std::string& dir, long step) {
  char name[32];
  std::snprintf(name, sizeof name, "chk_%08ld.h5", step);
  return dir + "/" + name;
}

std::optional<std::string> newest_complete_checkpoint(const std::string& dir, MPI_Comm comm) {
  std::string found;
  if (rank_of(comm) == 0)
    for (const auto& entry : list_checkpoints(dir))
      if (is_complete_checkpoint(entry.second)) {
        found = entry.second;
        break;
      }
  detail::broadcast_string(comm, found);
  if (found.empty()) return std::nullopt;
  return found;
}

void prune_checkpoints(const std::string& dir, int keep) {
  std::error_code ec;
  std::vector<fs::path> partials;
  for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
    const std::string name = it->path().filename().string();
    if (name.rfind("chk_", 0) == 0 && name.size() > 8 &&
        name.compare(name.size() - 8, 8, ".partial") == 0)
      partials.push_back(it->path());
  }
  for (const fs::path& partial : partials) fs::remove(partial, ec);
  if (keep <= 0) return;
  int kept = 0;
  for (const auto& [step, path] : list_checkpoints(dir)) {
    if (kept < keep) {
      kept += is_complete_checkpoint(path) ? 1 : 0;
      continue;
    }
    fs::remove(path, ec);
  }
}

}  // namespace cb::io
