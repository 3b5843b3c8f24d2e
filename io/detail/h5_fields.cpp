#include "io/detail/h5_fields.hpp"

#include <sys/statvfs.h>

#include "core/error.hpp"

#include <Kokkos_Core.hpp>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <type_traits>
#include <utility>

namespace cb::io::detail {

namespace {

herr_t innermost_error(unsigned n, const H5E_error2_t* entry, void* out) {
  // The walk goes upward, so entry 0 is where the failure happened.
  if (n == 0 && entry->desc != nullptr) *static_cast<std::string*>(out) = entry->desc;
  return 0;
}

std::string with_hdf5_reason(const std::string& what) {
  std::string reason;
  H5Ewalk2(H5E_DEFAULT, H5E_WALK_UPWARD, innermost_error, &reason);
  return reason.empty() ? what : what + ": " + reason;
}

H5Handle string_type(std::size_t length) {
  H5Handle type = checked(H5Tcopy(H5T_C_S1), H5Tclose, "copy string type");
  check(H5Tset_size(type, length + 1), "set string size");  // +1: the terminating NUL
  check(H5Tset_strpad(type, H5T_STR_NULLTERM), "set string padding");
  check(H5Tset_cset(type, H5T_CSET_UTF8), "set string character set");
  return type;
}

H5Handle vector_space(hsize_t n) {
  return checked(n == 1 ? H5Screate(H5S_SCALAR) : H5Screate_simple(1, &n, nullptr), H5Sclose,
                 "create dataspace");
}

void write_raw(hid_t object, const std::string& name, hid_t file_type, hid_t memory_type,
               hsize_t count, const void* data) {
  H5Handle space = vector_space(count);
  H5Handle attribute =
      checked(H5Acreate2(object, name.c_str(), file_type, space, H5P_DEFAULT, H5P_DEFAULT),
              H5Aclose, "create attribute '" + name + "'");
  check(H5Awrite(attribute, memory_type, data), "write attribute '" + name + "'");
}

void read_raw(hid_t object, const std::string& name, hid_t memory_type, hssize_t count,
              void* data) {
  H5Handle attribute = checked(H5Aopen(object, name.c_str(), H5P_DEFAULT), H5Aclose,
                               "missing attribute '" + name + "'");
  H5Handle space = checked(H5Aget_space(attribute), H5Sclose, "attribute '" + name + "'");
  if (H5Sget_simple_extent_npoints(space) != count)
    throw H5Error("attribute '" + name + "' has " +
                  std::to_string(H5Sget_simple_extent_npoints(space)) + " values, expected " +
                  std::to_string(count));
  check(H5Aread(attribute, memory_type, data), "read attribute '" + name + "'");
}

herr_t collect_dataset(hid_t group, const char* name, const H5L_info_t*, void* out) {
  hid_t object = H5Oopen(group, name, H5P_DEFAULT);
  if (object < 0) return 0;
  if (H5Iget_type(object) == H5I_DATASET)
    static_cast<std::vector<std::string>*>(out)->push_back(name);
  H5Oclose(object);
  return 0;
}

herr_t collect_attribute(hid_t, const char* name, const H5A_info_t*, void* out) {
  static_cast<std::vector<std::string>*>(out)->push_back(name);
  return 0;
}

// Ghost width per axis (x, y, z), from the view's extents and the owned cells.
Int3 ghost_widths_of(const FieldComponent& field, const Int3& local) {
  Int3 ghost{};
  for (int axis = 0; axis < 3; ++axis) {
    const long extent = static_cast<long>(field.view.extent(3 - axis));
    const long spare = extent - local[axis];
    if (spare < 0 || spare % 2 != 0)
      throw std::logic_error("field '" + field.name + "': extent " + std::to_string(extent) +
                             " along axis " + std::to_string(axis) + " does not fit " +
                             std::to_string(local[axis]) + " owned cells plus ghosts");
    ghost[axis] = static_cast<int>(spare / 2);
  }
  if (field.component < 0 || static_cast<std::size_t>(field.component) >= field.view.extent(0))
    throw std::logic_error("field '" + field.name + "': component " +
                           std::to_string(field.component) + " out of range");
  return ghost;
}

// The owned block of this rank as a file selection and a contiguous memory space.
struct OwnedSlab {
  H5Handle file_space;
  H5Handle memory_space;
};

// A ground-layer field has one layer: the ranks above the ground select nothing (they still
// take part in the collective write).
OwnedSlab owned_slab(const Decomposition& decomposition, bool ground_layer = false) {
  const Int3& global = decomposition.global_cells();
  const Int3& local = decomposition.local_cells();
  const Int3& offset = decomposition.offset();
  const hsize_t layers = ground_layer ? 1 : hsize_t(global[2]);
  const hsize_t local_layers = ground_layer ? 1 : hsize_t(local[2]);
  const hsize_t global_dims[3] = {layers, hsize_t(global[1]), hsize_t(global[0])};
  const hsize_t local_dims[3] = {local_layers, hsize_t(local[1]), hsize_t(local[0])};
  const hsize_t start[3] = {ground_layer ? 0 : hsize_t(offset[2]), hsize_t(offset[1]),
                            hsize_t(offset[0])};
  OwnedSlab slab{checked(H5Screate_simple(3, global_dims, nullptr), H5Sclose, "file space"),
                 checked(H5Screate_simple(3, local_dims, nullptr), H5Sclose, "memory space")};
  if (ground_layer && offset[2] != 0) {
    check(H5Sselect_none(slab.file_space), "select none");
    check(H5Sselect_none(slab.memory_space), "select none");
    return slab;
  }
  check(H5Sselect_hyperslab(slab.file_space, H5S_SELECT_SET, start, nullptr, local_dims, nullptr),
        "select hyperslab");
  return slab;
}

// Calls `visit(host, indices)` once per distinct view, with a host copy of the
// view and the indices of the components that live in it.
template <class Visit>
void for_each_view(const std::vector<FieldComponent>& fields, Visit&& visit) {
  std::vector<bool> done(fields.size(), false);
  for (std::size_t first = 0; first < fields.size(); ++first) {
    if (done[first]) continue;
    std::vector<std::size_t> members;
    for (std::size_t n = first; n < fields.size(); ++n)
      if (!done[n] && fields[n].view.data() == fields[first].view.data()) {
        members.push_back(n);
        done[n] = true;
      }
    auto host = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), fields[first].view);
    visit(host, members);
  }
}

template <class HostView, class Op>
void for_owned(const HostView& host, int component, const Int3& ghost, const Int3& local, Op op) {
  std::size_t n = 0;
  for (int k = 0; k < local[2]; ++k)
    for (int j = 0; j < local[1]; ++j)
      for (int i = 0; i < local[0]; ++i, ++n)
        op(host(component, k + ghost[2], j + ghost[1], i + ghost[0]), n);
}

std::string shape_text(const hsize_t* dims, int rank) {
  std::string text;
  for (int d = 0; d < rank; ++d) text += "[" + std::to_string(dims[d]) + "]";
  return text;
}

}  // namespace

H5Error::H5Error(const std::string& what) : std::runtime_error(what) {}

H5Handle::H5Handle(H5Handle&& other) noexcept
    : id_(std::exchange(other.id_, H5I_INVALID_HID)), closer_(other.closer_) {}

H5Handle& H5Handle::operator=(H5Handle&& other) noexcept {
  if (this != &other) {
    reset();
    id_ = std::exchange(other.id_, H5I_INVALID_HID);
    closer_ = other.closer_;
  }
  return *this;
}

void H5Handle::reset() {
  if (id_ >= 0 && closer_ != nullptr) closer_(id_);
  id_ = H5I_INVALID_HID;
}

void H5Handle::close(const char* what) {
  const hid_t id = std::exchange(id_, H5I_INVALID_HID);
  if (id >= 0 && closer_ != nullptr) check(closer_(id), what);
}

H5Handle checked(hid_t id, H5Handle::Closer closer, const std::string& what) {
  if (id < 0) throw H5Error(with_hdf5_reason(what));
  return H5Handle(id, closer);
}

void check(herr_t status, const std::string& what) {
  if (status < 0) throw H5Error(with_hdf5_reason(what));
}

QuietH5Errors::QuietH5Errors() {
  H5Eget_auto2(H5E_DEFAULT, &function_, &data_);
  H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr);
}

QuietH5Errors::~QuietH5Errors() {
  H5Eset_auto2(H5E_DEFAULT, function_, data_);
}

hid_t real_type() {
  static_assert(std::is_same<real, double>::value || std::is_same<real, float>::value,
                "cb::real must be float or double");
  return std::is_same<real, double>::value ? H5T_NATIVE_DOUBLE : H5T_NATIVE_FLOAT;
}

namespace {
H5Handle file_access(MPI_Comm comm) {
  H5Handle fapl = checked(H5Pcreate(H5P_FILE_ACCESS), H5Pclose, "file access properties");
  // The 1.8 format stores attributes over 64 KiB (a long case text) densely.
  check(H5Pset_libver_bounds(fapl, H5F_LIBVER_V18, H5F_LIBVER_V110), "library version bounds");
  if (comm != MPI_COMM_NULL) {
    check(H5Pset_fapl_mpio(fapl, comm, MPI_INFO_NULL), "MPI-IO driver");
    check(H5Pset_all_coll_metadata_ops(fapl, true), "collective metadata reads");
    check(H5Pset_coll_metadata_write(fapl, true), "collective metadata writes");
  }
  return fapl;
}
}  // namespace

std::string space_shortage(const std::string& dir, double bytes) {
  struct statvfs fs {};
  if (statvfs(dir.c_str(), &fs) != 0) return "";
  const double free = double(fs.f_bavail) * double(fs.f_frsize);
  const double needed = 1.05 * bytes + 65536.0;
  if (free >= needed) return "";
  char text[160];
  std::snprintf(text, sizeof text, "no space left: about %.3g MB needed, %.3g MB free in ",
                needed / 1e6, free / 1e6);
  return text + dir;
}

H5Handle collective_transfer() {
  H5Handle dxpl = checked(H5Pcreate(H5P_DATASET_XFER), H5Pclose, "transfer properties");
  check(H5Pset_dxpl_mpio(dxpl, H5FD_MPIO_COLLECTIVE), "collective transfer");
  return dxpl;
}

H5Handle create_file(const std::string& path, MPI_Comm comm) {
  H5Handle fapl = file_access(comm);
  return checked(H5Fcreate(path.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, fapl), H5Fclose,
                 "cannot create " + path);
}

H5Handle open_file(const std::string& path, MPI_Comm comm) {
  H5Handle fapl = file_access(comm);
  return checked(H5Fopen(path.c_str(), H5F_ACC_RDONLY, fapl), H5Fclose, "cannot open " + path);
}

H5Handle create_group(hid_t parent, const std::string& name) {
  H5Handle gcpl = ordered_group_properties();
  return checked(H5Gcreate2(parent, name.c_str(), H5P_DEFAULT, gcpl, H5P_DEFAULT), H5Gclose,
                 "create group '" + name + "'");
}

H5Handle open_group(hid_t parent, const std::string& name) {
  return checked(H5Gopen2(parent, name.c_str(), H5P_DEFAULT), H5Gclose,
                 "missing group '" + name + "'");
}

bool has_link(hid_t parent, const std::string& name) {
  return H5Lexists(parent, name.c_str(), H5P_DEFAULT) > 0;
}

std::vector<std::string> dataset_names(hid_t group) {
  std::vector<std::string> names;
  check(H5Literate(group, H5_INDEX_NAME, H5_ITER_INC, nullptr, collect_dataset, &names),
        "list datasets");
  return names;
}

long leading_extent(hid_t group, const std::string& name) {
  H5Handle dataset =
      checked(H5Dopen2(group, name.c_str(), H5P_DEFAULT), H5Dclose, "open dataset " + name);
  H5Handle space = checked(H5Dget_space(dataset), H5Sclose, "dataspace of " + name);
  hsize_t dims[3] = {0, 0, 0};
  if (H5Sget_simple_extent_ndims(space) != 3) return -1;
  H5Sget_simple_extent_dims(space, dims, nullptr);
  return long(dims[0]);
}

H5Handle ordered_group_properties() {
  H5Handle gcpl = checked(H5Pcreate(H5P_GROUP_CREATE), H5Pclose, "group properties");
  check(H5Pset_attr_creation_order(gcpl, H5P_CRT_ORDER_TRACKED | H5P_CRT_ORDER_INDEXED),
        "track attribute order");
  return gcpl;
}

void write_attribute(hid_t object, const std::string& name, const std::string& value) {
  H5Handle type = string_type(value.size());
  H5Handle space = checked(H5Screate(H5S_SCALAR), H5Sclose, "create dataspace");
  H5Handle attribute =
      checked(H5Acreate2(object, name.c_str(), type, space, H5P_DEFAULT, H5P_DEFAULT), H5Aclose,
              "create attribute '" + name + "'");
  check(H5Awrite(attribute, type, value.c_str()), "write attribute '" + name + "'");
}

void write_attribute(hid_t object, const std::string& name, int value) {
  write_raw(object, name, H5T_STD_I32LE, H5T_NATIVE_INT, 1, &value);
}

void write_attribute(hid_t object, const std::string& name, long value) {
  const std::int64_t wide = value;
  write_raw(object, name, H5T_STD_I64LE, H5T_NATIVE_INT64, 1, &wide);
}

void write_attribute(hid_t object, const std::string& name, double value) {
  write_raw(object, name, H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, 1, &value);
}

void write_attribute(hid_t object, const std::string& name, const Int3& value) {
  write_raw(object, name, H5T_STD_I32LE, H5T_NATIVE_INT, 3, value.data());
}

void write_attribute(hid_t object, const std::string& name, const Real3& value) {
  write_raw(object, name, H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, 3, value.data());
}

void write_attribute(hid_t object, const std::string& name, const Bool3& value) {
  write_attribute(object, name, Int3{int(value[0]), int(value[1]), int(value[2])});
}

bool has_attribute(hid_t object, const std::string& name) {
  return H5Aexists(object, name.c_str()) > 0;
}

std::string read_string_attribute(hid_t object, const std::string& name) {
  H5Handle attribute = checked(H5Aopen(object, name.c_str(), H5P_DEFAULT), H5Aclose,
                               "missing attribute '" + name + "'");
  H5Handle type = checked(H5Aget_type(attribute), H5Tclose, "attribute type");
  if (H5Tget_class(type) != H5T_STRING) throw H5Error("attribute '" + name + "' is not a string");
  if (H5Tis_variable_str(type) > 0) {  // as h5py writes them
    H5Handle memory = checked(H5Tcopy(H5T_C_S1), H5Tclose, "copy string type");
    check(H5Tset_size(memory, H5T_VARIABLE), "variable string type");
    char* value = nullptr;
    check(H5Aread(attribute, memory, &value), "read attribute '" + name + "'");
    std::string text = value != nullptr ? value : "";
    H5free_memory(value);
    return text;
  }
  std::vector<char> buffer(H5Tget_size(type) + 1, '\0');
  check(H5Aread(attribute, type, buffer.data()), "read attribute '" + name + "'");
  return std::string(buffer.data(), strnlen(buffer.data(), buffer.size()));
}

long read_long_attribute(hid_t object, const std::string& name) {
  std::int64_t value = 0;
  read_raw(object, name, H5T_NATIVE_INT64, 1, &value);
  return static_cast<long>(value);
}

double read_double_attribute(hid_t object, const std::string& name) {
  double value = 0.0;
  read_raw(object, name, H5T_NATIVE_DOUBLE, 1, &value);
  return value;
}

Int3 read_int3_attribute(hid_t object, const std::string& name) {
  Int3 value{};
  read_raw(object, name, H5T_NATIVE_INT, 3, value.data());
  return value;
}

Real3 read_real3_attribute(hid_t object, const std::string& name) {
  Real3 value{};
  read_raw(object, name, H5T_NATIVE_DOUBLE, 3, value.data());
  return value;
}

std::vector<std::string> attribute_names(hid_t object) {
  std::vector<std::string> names;
  {
    QuietH5Errors quiet;
    if (H5Aiterate2(object, H5_INDEX_CRT_ORDER, H5_ITER_INC, nullptr, collect_attribute, &names) >=
        0)
      return names;
  }
  names.clear();  // creation order not tracked: fall back to name order
  check(H5Aiterate2(object, H5_INDEX_NAME, H5_ITER_INC, nullptr, collect_attribute, &names),
        "list attributes");
  return names;
}

void write_field_datasets(hid_t group, const Decomposition& decomposition,
                          const std::vector<FieldComponent>& fields) {
  const Int3& local = decomposition.local_cells();
  OwnedSlab owned = owned_slab(decomposition), ground = owned_slab(decomposition, true);
  H5Handle dxpl = collective_transfer();
  H5Handle dcpl = checked(H5Pcreate(H5P_DATASET_CREATE), H5Pclose, "dataset properties");
  check(H5Pset_fill_time(dcpl, H5D_FILL_TIME_NEVER), "fill time");
  std::vector<real> buffer(std::size_t(local[0]) * local[1] * local[2]);

  for_each_view(fields, [&](const auto& host, const std::vector<std::size_t>& members) {
    for (std::size_t n : members) {
      const FieldComponent& field = fields[n];
      const Int3 ghost = ghost_widths_of(field, local);
      const Int3 extent{local[0], local[1], field.ground_layer ? 1 : local[2]};
      for_owned(host, field.component, ghost, extent,
                [&](const real& value, std::size_t at) { buffer[at] = value; });
      const OwnedSlab& slab = field.ground_layer ? ground : owned;
      H5Handle dataset = checked(H5Dcreate2(group, field.name.c_str(), real_type(), slab.file_space,
                                            H5P_DEFAULT, dcpl, H5P_DEFAULT),
                                 H5Dclose, "create dataset '" + field.name + "'");
      check(H5Dwrite(dataset, real_type(), slab.memory_space, slab.file_space, dxpl, buffer.data()),
            "write dataset '" + field.name + "'");
    }
  });
}

void read_field_datasets(hid_t group, const std::string& label, const Decomposition& decomposition,
                         const std::vector<FieldComponent>& fields) {
  const Int3& local = decomposition.local_cells();
  const Int3& global = decomposition.global_cells();
  const hsize_t expected[3] = {hsize_t(global[2]), hsize_t(global[1]), hsize_t(global[0])};
  char group_name[256] = "";
  H5Iget_name(group, group_name, sizeof group_name);
  const std::string prefix = std::string(group_name) == "/" ? "/" : std::string(group_name) + "/";
  OwnedSlab slab = owned_slab(decomposition);
  H5Handle dxpl = collective_transfer();
  std::vector<real> buffer(std::size_t(local[0]) * local[1] * local[2]);

  for_each_view(fields, [&](const auto& host, const std::vector<std::size_t>& members) {
    for (std::size_t n : members) {
      const FieldComponent& field = fields[n];
      if (field.ground_layer) throw std::logic_error("read_field_datasets: ground layer");
      const Int3 ghost = ghost_widths_of(field, local);
      const std::string where = "dataset " + prefix + field.name;
      if (!has_link(group, field.name)) throw InputError(label + where + " is missing");
      H5Handle dataset =
          checked(H5Dopen2(group, field.name.c_str(), H5P_DEFAULT), H5Dclose, "open " + where);
      H5Handle space = checked(H5Dget_space(dataset), H5Sclose, "dataspace of " + where);
      hsize_t dims[3] = {0, 0, 0};
      const int rank = H5Sget_simple_extent_ndims(space);
      if (rank > 0 && rank <= 3) H5Sget_simple_extent_dims(space, dims, nullptr);
      if (rank != 3 || !std::equal(dims, dims + 3, expected))
        throw InputError(label + where + " has shape " + shape_text(dims, rank < 0 ? 0 : rank) +
                         ", this grid is " + shape_text(expected, 3) + " (nz, ny, nx)");
      check(H5Dread(dataset, real_type(), slab.memory_space, slab.file_space, dxpl, buffer.data()),
            "read " + where);
      for_owned(host, field.component, ghost, local,
                [&](real& value, std::size_t at) { value = buffer[at]; });
    }
    Kokkos::deep_copy(fields[members.front()].view, host);
  });
}

void broadcast_string(MPI_Comm comm, std::string& text, int root) {
  unsigned long long length = text.size();
  MPI_Bcast(&length, 1, MPI_UNSIGNED_LONG_LONG, root, comm);
  text.resize(length);
  if (length > 0) MPI_Bcast(&text[0], static_cast<int>(length), MPI_CHAR, root, comm);
}

std::string first_error(MPI_Comm comm, const std::string& local_error) {
  int rank = 0, size = 1;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  const int mine = local_error.empty() ? size : rank;
  int first = size;
  MPI_Allreduce(&mine, &first, 1, MPI_INT, MPI_MIN, comm);
  if (first == size) return {};
  std::string text = local_error;
  broadcast_string(comm, text, first);
  return text;
}

}  // namespace cb::io::detail
