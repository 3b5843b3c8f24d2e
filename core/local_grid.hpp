// Where a rank's padded cells sit in the global grid and in space, as a plain
// struct that device code can copy.
#pragma once

#include "core/decomposition.hpp"
#include "core/solver.hpp"
#include "core/types.hpp"

namespace cb {

struct LocalGrid {
  double lo[3], h[3];  // domain origin and spacing
  int shift[3];        // global index = padded index + shift
  int cells[3];        // global cells
  KOKKOS_INLINE_FUNCTION double center(int axis, int index) const {
    return lo[axis] + (index + shift[axis] + 0.5) * h[axis];
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
