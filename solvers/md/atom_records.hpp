// Atoms as records of doubles: the unit every exchange of atoms between ranks
// sends. An owned record is the position, then every property of
// Atoms::for_each_property in list order; a ghost record is the shifted
// position, the shifted image code, then the properties with Reach::ghosts.
// Integers travel exactly (ids below 2^53). Each property is packed by its own
// kernel, as Cabana migrates an AoSoA slice by slice, so a property added to
// the list is carried by migration, loading, the id-order sort and (with
// Reach::ghosts) the ghost exchange without further code.
#pragma once

#include "solvers/md/atoms.hpp"

namespace cb::md {

using BufferView = Kokkos::View<double*, MemSpace>;

// The atom (or record) that item k of a batch refers to: rows(k) for a list,
// first + k for a contiguous range.
struct RowMap {
  IntView rows;
  int first = 0;
  bool listed = false;

  static RowMap list(const IntView& rows) { return {rows, 0, true}; }
  static RowMap range(int first) { return {IntView(), first, false}; }
  KOKKOS_INLINE_FUNCTION int operator()(int k) const { return listed ? rows(k) : first + k; }
};

// What a ghost copy adds to its owner's position and image code across a
// periodic face.
struct GhostShift {
  double x[3] = {0.0, 0.0, 0.0};
  int code = 0;
};

// Doubles per record.
int owned_record_width(const Atoms& atoms);
int ghost_record_width(const Atoms& atoms);

// Records [0, count) of `buffer` <- owned atoms atom(k).
void pack_owned(const Atoms& atoms, const RowMap& atom, int count, const BufferView& buffer);
// Owned atoms [first, first + count) <- records record(k) of `buffer`; their
// image code becomes owned_image_code. The caller reserves the atoms.
void unpack_owned(const BufferView& buffer, const RowMap& record, int count, Atoms& atoms,
                  int first);
// Records [0, count) of `buffer` <- ghost copies of atoms list(k).
void pack_ghosts(const Atoms& atoms, const IntView& list, int count, const GhostShift& shift,
                 const BufferView& buffer);
// Atoms [first, first + count) <- ghost records [0, count) of `buffer`.
void unpack_ghosts(const BufferView& buffer, int count, Atoms& atoms, int first);
// Puts the owned atoms in a new order: atom k becomes the old atom order(k).
// `scratch` holds at least nlocal owned records.
void reorder_owned(Atoms& atoms, const IntView& order, const BufferView& scratch);

}  // namespace cb::md
