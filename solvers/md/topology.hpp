// Molecular topology between the host lists of the data file or checkpoint and
// the per-atom rows the device works with. Every bonded term is kept in the
// row of each atom it involves (LAMMPS's newton_bond off), so the rows travel
// with their atoms through migration (atom_records.hpp) and each owned atom
// sums the forces of its own terms: no scatter to partners, no reverse
// communication, the same sum on every thread count. A term's energy and
// virial are counted by the row of its first atom. Partners are found by
// global id among owned and ghost atoms (bonded_force.hpp).
//
// Row layout, per kind: slots of (type, atom ids in the term's order), type 0
// ending the row; the slots sorted (type, ids) so the summation order depends
// on the topology alone, not on the order it was read in. Special rows: id * 4
// + level (1: 1-2, 2: 1-3, 3: 1-4 neighbours), 0 ending the row.
#pragma once

#include "core/particle_solver.hpp"

#include <mpi.h>

#include <cstdint>
#include <vector>

namespace cb::md {

constexpr int slot_width(TermKind kind) {
  return 1 + atoms_per_term(kind);
}

// Collective: every rank's terms concatenated in rank order, on every rank.
Topology allgather_topology(const Topology& mine, MPI_Comm comm);

// Host rows of `ids` from the whole topology: widths are the longest row of
// any atom of `all`, so every rank that holds the same `all` agrees.
struct HostRows {
  int term_width[term_kinds] = {0, 0, 0, 0};
  int special_width = 0;
  std::vector<std::int64_t> terms[term_kinds];  // ids.size() rows of term_width
  std::vector<std::int64_t> special;            // ids.size() rows of special_width
  int cluster_width = 0;                        // constraints.hpp
  std::vector<std::int64_t> cluster;            // ids.size() rows of cluster_width
};
HostRows host_rows(const Topology& all, const std::vector<std::int64_t>& ids);

// 1-2, 1-3 and 1-4 neighbours of every atom, from the bonds (as LAMMPS's
// special list: 1-3 are the 1-2 neighbours of 1-2 neighbours, 1-4 those of
// 1-3 neighbours; an atom keeps its closest level only, never itself).
// Returns, per atom id of `ids`, entries id * 4 + level sorted.
std::vector<std::vector<std::int64_t>> special_neighbors(const TermList& bonds,
                                                         const std::vector<std::int64_t>& ids);

// The terms in `rows` (one row per atom of `ids`, `width` wide) whose first
// atom is the row's own atom: every term once over all atoms.
void append_first_atom_terms(TermKind kind, const std::vector<std::int64_t>& ids,
                             const std::vector<std::int64_t>& rows, int width, TermList& out);

}  // namespace cb::md
