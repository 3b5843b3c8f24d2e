// Internals of the particle writers: gathering atoms to one rank in id order
// (text files: dumps, data files), and global per-atom HDF5 datasets written
// and read at rank offsets with collective hyperslabs (checkpoints, XDMF
// output). Not part of the public io API.
#pragma once

#include "core/particle_solver.hpp"
#include "io/atom_table.hpp"
#include "io/detail/h5_fields.hpp"

#include <hdf5.h>
#include <mpi.h>

#include <cstdint>
#include <string>
#include <vector>

namespace cb::io::detail {

// Collective. On `root`, every rank's atoms (and their extra columns, the same
// names on every rank) sorted by id; other ranks get an empty table.
AtomTable gather_sorted_by_id(MPI_Comm comm, const AtomTable& local, int root = 0);

// Sorts the terms by their atom ids (in order), then type: an order that does
// not depend on which rank or thread produced them.
void sort_terms(TermKind kind, TermList& terms);

// Collective. On `root`, every rank's terms of each kind, concatenated and
// sorted (sort_terms), and the largest type counts; other ranks get an empty
// topology.
Topology gather_topology(MPI_Comm comm, const Topology& local, int root = 0);

// Where this rank's rows start in a global array, and the global row count.
struct RowSlice {
  std::int64_t offset = 0;
  std::int64_t count = 0;
  std::int64_t total = 0;
};

// Collective: the slices of consecutive ranks' `local_rows` (rank order).
RowSlice rank_offset_slice(MPI_Comm comm, std::int64_t local_rows);
// The contiguous share of `total` rows rank `rank` of `ranks` reads back.
RowSlice even_slice(std::int64_t total, int rank, int ranks);

// Collective. Creates `group/name`, shape [total] (width 1) or [total][width],
// of `file_type`, and writes this rank's rows at slice.offset from `data`
// (`memory_type`, row-major). Ranks with no rows take part all the same.
void write_rows(hid_t group, const std::string& name, hid_t file_type, hid_t memory_type, int width,
                const RowSlice& slice, const void* data);

// Collective. Reads slice.count rows at slice.offset of `group/name` into
// `data`. Throws cb::InputError starting with `label` when the dataset is
// missing or its shape is not [slice.total] / [slice.total][width].
void read_rows(hid_t group, const std::string& label, const std::string& name, hid_t memory_type,
               int width, const RowSlice& slice, void* data);

}  // namespace cb::io::detail
