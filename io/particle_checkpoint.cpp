// Particle checkpoints: layout in docs/checkpoint-format.md.
#include "io/particle_checkpoint.hpp"

#include "core/error.hpp"
#include "io/detail/checkpoint_file.hpp"
#include "io/detail/h5_fields.hpp"
#include "io/detail/particle_arrays.hpp"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <sstream>
#include <vector>

namespace cb::io {
namespace {

using detail::H5Handle;
using detail::RowSlice;

constexpr const char* particles_group = "particles";

void write_particles_group(hid_t file, const CheckpointHeader& header, const HostParticles& owned,
                           const RowSlice& slice, bool with_build, bool charged) {
  H5Handle group = detail::create_group(file, particles_group);
  detail::write_attribute(group, "cells", header.geometry.cells);
  detail::write_attribute(group, "lo", header.geometry.lo);
  detail::write_attribute(group, "hi", header.geometry.hi);
  detail::write_attribute(group, "periodic", header.geometry.periodic);
  detail::write_attribute(group, "atoms", long(slice.total));
  detail::write_rows(group, "id", H5T_STD_I64LE, H5T_NATIVE_INT64, 1, slice, owned.id.data());
  detail::write_rows(group, "type", H5T_STD_I32LE, H5T_NATIVE_INT, 1, slice, owned.type.data());
  detail::write_rows(group, "x", H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, 3, slice, owned.x.data());
  detail::write_rows(group, "v", H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, 3, slice, owned.v.data());
  detail::write_rows(group, "image", H5T_STD_I32LE, H5T_NATIVE_INT, 3, slice, owned.image.data());
  if (with_build) {
    detail::write_rows(group, "x_build", H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, 3, slice,
                       owned.x_build.data());
  }
  if (charged) {
    detail::write_rows(group, "q", H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, 1, slice, owned.q.data());
    detail::write_rows(group, "molecule", H5T_STD_I64LE, H5T_NATIVE_INT64, 1, slice,
                       owned.molecule.data());
  }
}

void check_sizes(const HostParticles& atoms) {
  const std::size_t n = atoms.id.size();
  if (atoms.type.size() != n || atoms.x.size() != 3 * n || atoms.v.size() != 3 * n ||
      atoms.image.size() != 3 * n || (!atoms.q.empty() && atoms.q.size() != n) ||
      atoms.molecule.size() != atoms.q.size())
    throw std::invalid_argument("HostParticles: arrays of inconsistent length");
}

std::string describe(const Real3& lo, const Real3& hi, const Bool3& periodic, std::int64_t atoms) {
  std::ostringstream text;
  text.precision(17);
  text << atoms << " atoms in ";
  for (int axis = 0; axis < 3; ++axis)
    text << (axis > 0 ? " x " : "") << "[" << lo[axis] << ", " << hi[axis] << "]";
  text << ", periodic (x, y, z) = (" << periodic[0] << ", " << periodic[1] << ", " << periodic[2]
       << ")";
  return text.str();
}

}  // namespace

void write_particle_checkpoint(const std::string& path, MPI_Comm comm,
                               const CheckpointHeader& header, const HostParticles& owned) {
  check_sizes(owned);
  const RowSlice slice = detail::rank_offset_slice(comm, std::int64_t(owned.size()));
  CheckpointHeader complete = header;
  complete.atoms = slice.total;
  // Positions at the last list build, when every rank's solver gave them.
  int with_build = owned.x_build.size() == owned.x.size() ? 1 : 0;
  MPI_Allreduce(MPI_IN_PLACE, &with_build, 1, MPI_INT, MPI_LAND, comm);
  int charged = owned.q.empty() ? 0 : 1;  // a rank without atoms has no charges either
  MPI_Allreduce(MPI_IN_PLACE, &charged, 1, MPI_INT, MPI_MAX, comm);
  // id, type, x, v, image, x at the last build, charge and molecule
  const double bytes = double(slice.total) * (8 + 4 + 3 * 8 + 3 * 8 + 3 * 4 + 3 * 8 + 8 + 8);
  detail::write_checkpoint_atomically(path, comm, complete, bytes, [&](hid_t file) {
    write_particles_group(file, complete, owned, slice, with_build != 0, charged != 0);
  });
}

HostParticles read_particle_checkpoint(const std::string& path, MPI_Comm comm) {
  const std::string label = path + ": ";
  int rank = 0, ranks = 1;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &ranks);
  std::error_code ec;
  std::string error = std::filesystem::exists(path, ec) ? "" : label + "no such checkpoint";
  error = detail::first_error(comm, error);
  HostParticles atoms;
  if (error.empty()) {
    detail::QuietH5Errors quiet;
    try {
      H5Handle file = detail::open_file(path, comm);
      H5Handle group = detail::open_group(file, particles_group);
      const RowSlice slice =
          detail::even_slice(detail::read_long_attribute(group, "atoms"), rank, ranks);
      const std::size_t n = std::size_t(slice.count);
      atoms.id.resize(n);
      atoms.type.resize(n);
      atoms.x.resize(3 * n);
      atoms.v.resize(3 * n);
      atoms.image.resize(3 * n);
      detail::read_rows(group, label, "id", H5T_NATIVE_INT64, 1, slice, atoms.id.data());
      detail::read_rows(group, label, "type", H5T_NATIVE_INT, 1, slice, atoms.type.data());
      detail::read_rows(group, label, "x", H5T_NATIVE_DOUBLE, 3, slice, atoms.x.data());
      detail::read_rows(group, label, "v", H5T_NATIVE_DOUBLE, 3, slice, atoms.v.data());
      detail::read_rows(group, label, "image", H5T_NATIVE_INT, 3, slice, atoms.image.data());
      if (detail::has_link(group, "x_build")) {
        atoms.x_build.resize(3 * n);
        detail::read_rows(group, label, "x_build", H5T_NATIVE_DOUBLE, 3, slice,
                          atoms.x_build.data());
      }
      if (detail::has_link(group, "q")) {
        atoms.q.resize(n);
        atoms.molecule.resize(n);
        detail::read_rows(group, label, "q", H5T_NATIVE_DOUBLE, 1, slice, atoms.q.data());
        detail::read_rows(group, label, "molecule", H5T_NATIVE_INT64, 1, slice,
                          atoms.molecule.data());
      }
    } catch (const InputError& e) {
      error = e.what();
    } catch (const detail::H5Error& e) {
      error = label + "cannot read the particles: " + e.what();
    }
    error = detail::first_error(comm, error);
  }
  if (!error.empty()) throw InputError(error);
  return atoms;
}

namespace {

// The first problem of this rank's atoms, or "".
std::string first_bad_atom(const HostParticles& atoms, const ParticleBox& box) {
  for (std::size_t a = 0; a < atoms.size(); ++a) {
    const std::string which = "atom id " + std::to_string(atoms.id[a]);
    if (atoms.id[a] < 1) return "/particles/id: " + which + " (ids start at 1)";
    for (int axis = 0; axis < 3; ++axis) {
      const double x = atoms.x[3 * a + axis], v = atoms.v[3 * a + axis];
      const double length = box.hi[axis] - box.lo[axis];
      if (!std::isfinite(x)) return "/particles/x: " + which + " has a non-finite position";
      if (!std::isfinite(v)) return "/particles/v: " + which + " has a non-finite velocity";
      if (x < box.lo[axis] - length || x > box.hi[axis] + length)
        return "/particles/x: " + which + " lies more than a box length outside the box";
    }
  }
  return "";
}

// The first id held by two atoms ("" when none): each id goes to rank id mod
// p, which sorts what it receives.
std::string first_duplicate_id(const std::vector<std::int64_t>& ids, MPI_Comm comm) {
  int ranks = 1;
  MPI_Comm_size(comm, &ranks);
  std::vector<std::vector<std::int64_t>> by_rank(ranks);
  for (std::int64_t id : ids) by_rank[std::size_t(id % ranks)].push_back(id);
  std::vector<int> send_counts(ranks), receive_counts(ranks), send_offsets(ranks),
      receive_offsets(ranks);
  std::vector<std::int64_t> send;
  for (int r = 0; r < ranks; ++r) {
    send_offsets[r] = int(send.size());
    send_counts[r] = int(by_rank[r].size());
    send.insert(send.end(), by_rank[r].begin(), by_rank[r].end());
  }
  MPI_Alltoall(send_counts.data(), 1, MPI_INT, receive_counts.data(), 1, MPI_INT, comm);
  int total = 0;
  for (int r = 0; r < ranks; ++r) {
    receive_offsets[r] = total;
    total += receive_counts[r];
  }
  std::vector<std::int64_t> mine(static_cast<std::size_t>(total));
  MPI_Alltoallv(send.data(), send_counts.data(), send_offsets.data(), MPI_INT64_T, mine.data(),
                receive_counts.data(), receive_offsets.data(), MPI_INT64_T, comm);
  std::sort(mine.begin(), mine.end());
  const auto twice = std::adjacent_find(mine.begin(), mine.end());
  return twice == mine.end()
             ? ""
             : "/particles/id: id " + std::to_string(*twice) + " is held by two atoms";
}

}  // namespace

void check_particles_valid(const std::string& path, const HostParticles& atoms,
                           const ParticleBox& box, MPI_Comm comm) {
  std::string problem = detail::first_error(comm, first_bad_atom(atoms, box));
  if (problem.empty()) problem = detail::first_error(comm, first_duplicate_id(atoms.id, comm));
  if (!problem.empty()) throw InputError(path + ": " + problem);
}

void check_particles_compatible(const std::string& path, const CheckpointHeader& header,
                                const std::string& solver, const ParticleBox& box,
                                std::int64_t atoms) {
  if (header.solver != solver)
    throw InputError(path + ": checkpoint is from solver '" + header.solver +
                     "', this case runs '" + solver + "'");
  const GridGeometry& saved = header.geometry;
  if (header.atoms != atoms || saved.lo != box.lo || saved.hi != box.hi ||
      saved.periodic != box.periodic)
    throw InputError(path + ": checkpoint holds " +
                     describe(saved.lo, saved.hi, saved.periodic, header.atoms) +
                     "; this case has " + describe(box.lo, box.hi, box.periodic, atoms));
}

}  // namespace cb::io
