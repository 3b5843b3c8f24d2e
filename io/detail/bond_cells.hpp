// Internals of the XDMF particle output: a molecular run's bonds as Polyline
// cells of the particles file, each cell the rows of its two atoms in that
// step's point arrays. Not part of the public io API.
#pragma once

#include "core/particle_solver.hpp"
#include "io/detail/particle_arrays.hpp"

#include <mpi.h>

#include <cstdint>
#include <string>
#include <vector>

namespace cb::io::detail {

struct BondCells {
  RowSlice slice;                  // this rank's bonds among all ranks' (rank offsets)
  std::vector<std::int64_t> rows;  // 2 per bond: rows of the bonded atoms
  std::vector<int> type;           // 1 per bond
};

// Collective. The bonds of `local.topology` (each held by one rank) with their
// atoms' rows in the per-atom arrays that the ranks write at rank offsets
// (rank_offset_slice). Every rank holds every row's id meanwhile (a host map,
// 16 bytes per atom), so a bond's second atom may live on any rank. Returns ""
// or what failed (a bond to an atom that no rank holds) in `error`, the same
// on every rank.
BondCells bond_cells(MPI_Comm comm, const HostParticles& local, std::string& error);

}  // namespace cb::io::detail
