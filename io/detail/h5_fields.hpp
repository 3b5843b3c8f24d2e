// Internals shared by the checkpoint and field-output writers: RAII HDF5
// handles, typed attributes, collective hyperslab I/O of FieldComponents
// (owned cells only, global datasets [nz][ny][nx]) and agreeing on an error
// across ranks. Not part of the public io API.
#pragma once

#include "core/decomposition.hpp"
#include "core/types.hpp"

#include <hdf5.h>
#include <mpi.h>

#include <stdexcept>
#include <string>
#include <vector>

namespace cb::io::detail {

// An HDF5 call failed; the message names the operation and, when HDF5 left
// one, the innermost entry of its error stack.
class H5Error : public std::runtime_error {
 public:
  explicit H5Error(const std::string& what);
};

// Owns one hid_t and closes it with the matching H5?close.
class H5Handle {
 public:
  using Closer = herr_t (*)(hid_t);
  H5Handle() = default;
  H5Handle(hid_t id, Closer closer) : id_(id), closer_(closer) {}
  H5Handle(H5Handle&& other) noexcept;
  H5Handle& operator=(H5Handle&& other) noexcept;
  H5Handle(const H5Handle&) = delete;
  H5Handle& operator=(const H5Handle&) = delete;
  ~H5Handle() { reset(); }

  hid_t get() const { return id_; }
  operator hid_t() const { return id_; }  // NOLINT: passes straight to the C API
  bool valid() const { return id_ >= 0; }
  // Closes now; throws H5Error when the close fails (e.g. a final flush).
  void close(const char* what);
  void reset();

 private:
  hid_t id_ = H5I_INVALID_HID;
  Closer closer_ = nullptr;
};

// Throws H5Error(`what`) when `id` < 0, else wraps it.
H5Handle checked(hid_t id, H5Handle::Closer closer, const std::string& what);
void check(herr_t status, const std::string& what);

// Silences HDF5's automatic error-stack printing while alive (readers probe
// files that may be broken; failures there are expected and reported by us).
class QuietH5Errors {
 public:
  QuietH5Errors();
  ~QuietH5Errors();
  QuietH5Errors(const QuietH5Errors&) = delete;
  QuietH5Errors& operator=(const QuietH5Errors&) = delete;

 private:
  H5E_auto2_t function_ = nullptr;
  void* data_ = nullptr;
};

// Memory and file type of cb::real (double, or float in a single-precision build).
hid_t real_type();

// Files. `comm` selects the MPI-IO driver (collective); MPI_COMM_NULL opens
// with the default serial driver (one rank probing or reading attributes).
// Why `bytes` more (plus 5% and 64 KiB for metadata) do not fit in the file system
// of `dir`, or "" when they do or the free space cannot be told. Checked before
// a file is opened, so that a full disk ends the run with a clear error and no
// half-written file (HDF5 and MPI-IO do not recover from a failed close).
std::string space_shortage(const std::string& dir, double bytes);

// Dataset transfer properties for collective MPI-IO reads and writes.
H5Handle collective_transfer();
H5Handle create_file(const std::string& path, MPI_Comm comm);
H5Handle open_file(const std::string& path, MPI_Comm comm);
H5Handle create_group(hid_t parent, const std::string& name);
H5Handle open_group(hid_t parent, const std::string& name);
bool has_link(hid_t parent, const std::string& name);
std::vector<std::string> dataset_names(hid_t group);
// The first (slowest) extent of dataset `group/<name>`, nz of a field: 1 for a ground layer.
long leading_extent(hid_t group, const std::string& name);

// Attributes (written identically by every rank of a collective file).
void write_attribute(hid_t object, const std::string& name, const std::string& value);
void write_attribute(hid_t object, const std::string& name, int value);
void write_attribute(hid_t object, const std::string& name, long value);
void write_attribute(hid_t object, const std::string& name, double value);
void write_attribute(hid_t object, const std::string& name, const Int3& value);
void write_attribute(hid_t object, const std::string& name, const Real3& value);
void write_attribute(hid_t object, const std::string& name, const Bool3& value);

bool has_attribute(hid_t object, const std::string& name);
std::string read_string_attribute(hid_t object, const std::string& name);
long read_long_attribute(hid_t object, const std::string& name);
double read_double_attribute(hid_t object, const std::string& name);
Int3 read_int3_attribute(hid_t object, const std::string& name);
Real3 read_real3_attribute(hid_t object, const std::string& name);
// Attribute names of `object` in creation order (when tracked) or name order.
std::vector<std::string> attribute_names(hid_t object);

// Group creation property list that tracks attribute creation order.
H5Handle ordered_group_properties();

// Collective. One dataset `group/<name>` per component, shape [nz][ny][nx] of
// the decomposition's global grid ([1][ny][nx] for a ground_layer component);
// each rank writes its owned hyperslab.
void write_field_datasets(hid_t group, const Decomposition& decomposition,
                          const std::vector<FieldComponent>& fields);

// Collective. Reads `group/<name>` into the owned cells of each component
// (ghosts untouched). A missing dataset or a shape other than the global grid
// throws cb::InputError starting with `label` (e.g. "run/chk.h5: ").
void read_field_datasets(hid_t group, const std::string& label, const Decomposition& decomposition,
                         const std::vector<FieldComponent>& fields);

// Collective over `comm`: "" when no rank has an error, else the message of
// the lowest rank that has one (the same string on every rank).
std::string first_error(MPI_Comm comm, const std::string& local_error);
void broadcast_string(MPI_Comm comm, std::string& text, int root = 0);

}  // namespace cb::io::detail
