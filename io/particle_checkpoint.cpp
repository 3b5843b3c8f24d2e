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
#include <stdexcept>
#include <vector>

namespace cb::io {
namespace {

using detail::H5Handle;
using detail::RowSlice;

constexpr const char* particles_group = "particles";
constexpr const char* topology_group = "topology";
// Dataset and count-attribute names, by TermKind.
constexpr const char* term_names[term_kinds] = {"bonds", "angles", "dihedrals", "impropers"};
constexpr const char* type_names[term_kinds] = {"bond_types", "angle_types", "dihedral_types",
                                                "improper_types"};

int term_width(int k) {
  return 1 + atoms_per_term(static_cast<TermKind>(k));
}

// This rank's terms, sorted, as rows of [type, atom ids...] per kind.
struct TopologyRows {
  int types[term_kinds] = {0, 0, 0, 0};  // the largest over the ranks
  RowSlice slices[term_kinds];
  std::vector<std::int64_t> rows[term_kinds];
  bool any_types() const {
    return std::any_of(types, types + term_kinds, [](int t) { return t > 0; });
  }
};

TopologyRows topology_rows(MPI_Comm comm, const Topology& topology) {
  TopologyRows out;
  MPI_Allreduce(topology.types, out.types, term_kinds, MPI_INT, MPI_MAX, comm);
  for (int k = 0; k < term_kinds; ++k) {
    const TermKind kind = static_cast<TermKind>(k);
    TermList terms = topology.of(kind);
    const std::size_t atoms = static_cast<std::size_t>(atoms_per_term(kind));
    if (terms.atoms.size() != atoms * terms.size())
      throw std::invalid_argument("Topology: a term list of inconsistent length");
    detail::sort_terms(kind, terms);  // the bits do not depend on the solver's order
    for (std::size_t t = 0; t < terms.size(); ++t) {
      out.rows[k].push_back(terms.type[t]);
      out.rows[k].insert(out.rows[k].end(), terms.atoms.begin() + t * atoms,
                         terms.atoms.begin() + (t + 1) * atoms);
    }
    out.slices[k] = detail::rank_offset_slice(comm, std::int64_t(terms.size()));
  }
  return out;
}

void write_topology_group(hid_t file, const TopologyRows& topology) {
  H5Handle group = detail::create_group(file, topology_group);
  for (int k = 0; k < term_kinds; ++k) {
    detail::write_attribute(group, type_names[k], long(topology.types[k]));
    detail::write_attribute(group, term_names[k], long(topology.slices[k].total));
  }
  for (int k = 0; k < term_kinds; ++k)
    if (topology.slices[k].total > 0)
      detail::write_rows(group, term_names[k], H5T_STD_I64LE, H5T_NATIVE_INT64, term_width(k),
                         topology.slices[k], topology.rows[k].data());
}

// Rank r of p: its even share of each kind's rows, and the types on every
// rank. A bad row is reported in `problem` once every rank has read (the reads
// are collective).
Topology read_topology_group(hid_t file, const std::string& label, int rank, int ranks,
                             std::string& problem) {
  Topology topology;
  if (!detail::has_link(file, topology_group)) return topology;
  H5Handle group = detail::open_group(file, topology_group);
  for (int k = 0; k < term_kinds; ++k) {
    topology.types[k] = int(detail::read_long_attribute(group, type_names[k]));
    const RowSlice slice =
        detail::even_slice(detail::read_long_attribute(group, term_names[k]), rank, ranks);
    if (slice.total == 0) continue;
    const int width = term_width(k);
    std::vector<std::int64_t> rows(std::size_t(slice.count) * width);
    detail::read_rows(group, label, term_names[k], H5T_NATIVE_INT64, width, slice, rows.data());
    TermList& terms = topology.terms[k];
    for (std::size_t t = 0; t < std::size_t(slice.count); ++t) {
      const std::int64_t* row = &rows[t * width];
      const bool bad_type = row[0] < 1 || row[0] > topology.types[k];
      const bool bad_id = *std::min_element(row + 1, row + width) < 1;
      if (problem.empty() && (bad_type || bad_id))
        problem = label + "/topology/" + term_names[k] + ": row " +
                  std::to_string(slice.offset + std::int64_t(t)) +
                  (bad_type ? " has type " + std::to_string(row[0]) + ", outside 1.." +
                                  std::to_string(topology.types[k])
                            : std::string(" names an atom id below 1"));
      terms.type.push_back(static_cast<int>(row[0]));
      terms.atoms.insert(terms.atoms.end(), row + 1, row + width);
    }
  }
  return topology;
}

void write_particles_group(hid_t file, const CheckpointHeader& header, const HostParticles& owned,
                           const RowSlice& slice, bool with_build, bool charged,
                           bool with_constraint) {
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
  if (with_constraint) {
    detail::write_rows(group, "f_constraint", H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, 3, slice,
                       owned.f_constraint.data());
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
  // Constraint forces of the last step, when the solver has constraints.
  int constraint_sized = owned.f_constraint.size() == owned.x.size() ? 1 : 0;
  int constraint_any = owned.f_constraint.empty() ? 0 : 1;
  MPI_Allreduce(MPI_IN_PLACE, &constraint_sized, 1, MPI_INT, MPI_LAND, comm);
  MPI_Allreduce(MPI_IN_PLACE, &constraint_any, 1, MPI_INT, MPI_MAX, comm);
  const bool with_constraint = constraint_sized != 0 && constraint_any != 0;
  int charged = owned.q.empty() ? 0 : 1;  // a rank without atoms has no charges either
  MPI_Allreduce(MPI_IN_PLACE, &charged, 1, MPI_INT, MPI_MAX, comm);
  const TopologyRows topology = topology_rows(comm, owned.topology);
  // id, type, x, v, image, x at the last build, charge and molecule; topology rows
  double bytes = double(slice.total) * (8 + 4 + 3 * 8 + 3 * 8 + 3 * 4 + 3 * 8 + 8 + 8);
  for (int k = 0; k < term_kinds; ++k) bytes += 8.0 * term_width(k) * topology.slices[k].total;
  detail::write_checkpoint_atomically(path, comm, complete, bytes, [&](hid_t file) {
    write_particles_group(file, complete, owned, slice, with_build != 0, charged != 0,
                          with_constraint);
    if (topology.any_types()) write_topology_group(file, topology);
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
      if (detail::has_link(group, "f_constraint")) {
        atoms.f_constraint.resize(3 * n);
        detail::read_rows(group, label, "f_constraint", H5T_NATIVE_DOUBLE, 3, slice,
                          atoms.f_constraint.data());
      }
      if (detail::has_link(group, "q")) {
        atoms.q.resize(n);
        atoms.molecule.resize(n);
        detail::read_rows(group, label, "q", H5T_NATIVE_DOUBLE, 1, slice, atoms.q.data());
        detail::read_rows(group, label, "molecule", H5T_NATIVE_INT64, 1, slice,
                          atoms.molecule.data());
      }
      std::string bad_term;
      atoms.topology = read_topology_group(file, label, rank, ranks, bad_term);
      if (!bad_term.empty()) throw InputError(bad_term);
    } catch (const InputError& e) {
      error = e.what();
    } catch (const detail::H5Error& e) {
      error = label + "cannot read the particles or topology: " + e.what();
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
