// Verlet neighbour lists with a skin (Verlet 1967), built on the device from a
// cell binning of owned + ghost atoms (bins of half the list cutoff, a stencil
// of the bins closer than the cutoff), as LAMMPS's neighbor bin style does; the
// stencil is searched by rows along x, each one contiguous run of binned atoms.
// Every atom has an order key, id * 27 + image code (entry_key below).
//  - full list: every atom j != i within cut_ij + skin of owned atom i;
//  - half list (Newton's third law): each pair once, in the row of the atom
//    with the smaller key. Across ranks and periodic images the two copies of
//    a pair see opposite image shifts, so exactly one of them keeps it. The
//    choice depends on the ids alone, not on the positions at the build (a
//    position criterion such as LAMMPS's "j above i" can flip between two
//    builds, which moved the force of a pair between an atom's own row and
//    its periodic image and broke bit-for-bit restarts).
// Each row is kept sorted by key while it is filled: the list, and so the
// order in which forces are summed, depends only on which pairs are within
// reach, not on when the list was built or how the atoms were binned.
#pragma once

#include "solvers/md/atoms.hpp"

namespace cb::md {

using NeighborView = Kokkos::View<int**, MemSpace>;
using CutoffTable = Kokkos::View<double**, MemSpace>;

// An entry of a row: the atom index, with the special level of the pair (1-2,
// 1-3 or 1-4 in a molecule; topology.hpp) in the two high bits when the pair
// style scales it, as LAMMPS encodes special neighbours.
constexpr int special_shift = 30;
constexpr int neighbor_index_mask = (1 << special_shift) - 1;
KOKKOS_INLINE_FUNCTION int neighbor_index(int entry) {
  return entry & neighbor_index_mask;
}
// (Levels 2 and 3 set the sign bit: shifted as unsigned.)
KOKKOS_INLINE_FUNCTION int special_level(int entry) {
  return static_cast<int>(static_cast<unsigned>(entry) >> special_shift);
}

// What the list does with a special pair of each level (index 1-3): keep it
// as an ordinary pair (factors 1), leave it out (factors 0 and no k-space
// part to correct), or keep it with its level in the entry.
enum class SpecialAction : int { ordinary, exclude, mark };
struct SpecialRule {
  SpecialAction action[4] = {SpecialAction::ordinary, SpecialAction::ordinary,
                             SpecialAction::ordinary, SpecialAction::ordinary};
};

// The order of atom j in neighbour rows: by id, then periodic image.
KOKKOS_INLINE_FUNCTION std::int64_t entry_key(std::int64_t id, int code) {
  return id * 27 + code;
}

class NeighborList {
 public:
  NeighborList(double cutoff_max, bool half, const SpecialRule& special = {});

  // Rebuilds for the current atoms; `cutsq(ti, tj)` is (cut_ij + skin)^2.
  void build(const Atoms& atoms, const CutoffTable& cutsq);

  bool half() const { return half_; }
  NeighborView neighbors;  // (owned atom, slot)
  IntView counts;          // neighbours per owned atom

  // Public for the CUDA extended-lambda rule; not part of the interface.
  struct Grid {
    double lo[3] = {0, 0, 0};
    double inv_size[3] = {1, 1, 1};
    int n[3] = {1, 1, 1};
    int total() const { return n[0] * n[1] * n[2]; }
  };
  Grid make_grid(const Atoms& atoms) const;
  void bin_atoms(const Atoms& atoms, const Grid& grid);
  void make_keys(const Atoms& atoms);
  int fill(const Atoms& atoms, const CutoffTable& cutsq, const Grid& grid);
  template <bool OneType, bool Special>
  int fill_rows(const Atoms& atoms, const CutoffTable& cutsq, const Grid& grid);
  void sort_rows(int nlocal);

  // Row entries kept sorted on the fly in a per-row buffer (insertion: cost
  // ~ n^2 / 4); longer rows (water with a 10 A cutoff has about 350 per half
  // row) are sorted whole by sort_rows(). 64 rather than 128: the water's
  // neighbour part 0.49-0.51 -> 0.42-0.47 s per 100 steps, the LJ bench's the same.
  static constexpr int row_buffer = 64;
  // Rows are padded to a multiple of row_block entries with copies of their
  // first entry (past counts(i), never summed), so that the pair kernels load
  // whole blocks of a row (lj_force.cpp).
  static constexpr int row_block = 8;
  KOKKOS_INLINE_FUNCTION static int padded(int n) {
    return (n + row_block - 1) / row_block * row_block;
  }
  static constexpr int sort_buffer = 1024;  // longest row sort_rows sorts in a private copy
  // Bin edge = list cutoff / bins_per_cutoff, LAMMPS's default (3 tests about a
  // quarter fewer candidates but was measured slower on lj_bench: more bins).
  static constexpr int bins_per_cutoff = 2;

 private:
  double cutoff_;
  bool half_;
  SpecialRule special_;
  IntView bin_count_, bin_offset_, bin_atoms_, atom_bin_;
  IdView key_;  // entry_key of every owned and ghost atom
  // Positions and keys of the binned atoms in bin order (beside bin_atoms_): a
  // stencil row's candidates are read from consecutive memory.
  Kokkos::View<double* [3], MemSpace> bin_x_;
  IdView bin_key_;
  Kokkos::View<int* [3], MemSpace> stencil_;  // rows (reach along x, dy, dz): make_stencil
  int stencil_size_ = 0;
};

}  // namespace cb::md
