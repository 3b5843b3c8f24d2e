// A rank's padded grid: its fields (local cells plus ghost layers), and where
// its cells sit in the global grid and in space, as a plain struct that device
// code can copy.
#pragma once

#include "core/decomposition.hpp"
#include "core/solver.hpp"
#include "core/types.hpp"

#include <string>

namespace cb {

// A field of `components` over the local cells `n` with `ghost` layers per axis.
inline Field padded_field(const std::string& label, int components, const Int3& n,
                          const Int3& ghost) {
  return Field(label, components, n[2] + 2 * ghost[2], n[1] + 2 * ghost[1], n[0] + 2 * ghost[0]);
}

// Cells of the global grid with `halo` ghost layers per used axis: times the
// number of fields and sizeof(real), the memory of one solver over all ranks
// (each rank's own ghost layers are small next to it).
inline double padded_global_cells(const GridGeometry& geometry, int halo) {
  const Int3 ghost = ghost_widths(geometry.cells, halo);
  double cells = 1.0;
  for (int a = 0; a < 3; ++a) cells *= geometry.cells[a] + 2.0 * ghost[a];
  return cells;
}

struct LocalGrid {
  double lo[3], h[3];  // domain origin and spacing
  int shift[3];        // global index = padded index + shift
  int cells[3];        // global cells
  KOKKOS_INLINE_FUNCTION double center(int axis, int index) const {
    return lo[axis] + (index + shift[axis] + 0.5) * h[axis];
  }
  // The centre of padded cell (k, j, i) in x.
  KOKKOS_INLINE_FUNCTION void center(int k, int j, int i, double x[3]) const {
    x[0] = center(0, i);
    x[1] = center(1, j);
    x[2] = center(2, k);
  }
};

inline LocalGrid make_local_grid(const GridGeometry& geometry, const Decomposition& decomposition,
                                 const Int3& ghost) {
  LocalGrid g{};
  for (int a = 0; a < 3; ++a) {
    g.lo[a] = geometry.lo[a];
    g.h[a] = geometry.spacing(a);
    g.shift[a] = decomposition.offset()[a] - ghost[a];
    g.cells[a] = geometry.cells[a];
  }
  return g;
}

}  // namespace cb
