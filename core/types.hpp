// Basic types shared by every module: the floating-point type, the execution
// and memory spaces, and the grid-field View layout (docs/architecture.md, "Data").
#pragma once

#include <Kokkos_Core.hpp>

#include <array>
#include <string>

namespace cb {

#ifdef CLOUDBURST_SINGLE_PRECISION
using real = float;
#else
using real = double;
#endif

using ExecSpace = Kokkos::DefaultExecutionSpace;
using MemSpace = ExecSpace::memory_space;

// Grid fields are indexed (var, k, j, i) with i contiguous and ghost cells on
// every decomposed or periodic side.
using Field = Kokkos::View<real****, Kokkos::LayoutRight, MemSpace>;
using HostField = Field::host_mirror_type;

using Int3 = std::array<int, 3>;  // (x, y, z) = (i, j, k) order everywhere
using Real3 = std::array<double, 3>;
using Bool3 = std::array<bool, 3>;

// Ghost-cell width per axis: `halo` on every axis with more than one global
// cell, none on an unused (single-cell) axis.
inline Int3 ghost_widths(const Int3& global_cells, int halo) {
  return {global_cells[0] > 1 ? halo : 0, global_cells[1] > 1 ? halo : 0,
          global_cells[2] > 1 ? halo : 0};
}

using CellPolicy = Kokkos::MDRangePolicy<ExecSpace, Kokkos::Rank<3>>;

// The owned cells of a local block as (k, j, i) ranges of its padded Views.
inline CellPolicy owned_cells(const Int3& local_cells, const Int3& ghost) {
  return CellPolicy(
      {ghost[2], ghost[1], ghost[0]},
      {ghost[2] + local_cells[2], ghost[1] + local_cells[1], ghost[0] + local_cells[0]});
}

// Device-copyable integer triple (std::array is host-only under CUDA/HIP).
struct Index3 {
  int x, y, z;
};
inline Index3 to_index3(const Int3& a) {
  return {a[0], a[1], a[2]};
}

// One component of a grid field, named for output and checkpoints.
struct FieldComponent {
  std::string name;
  Field view;
  int component = 0;
  // Field output only: the lowest layer of cells alone, a [1][ny][nx] dataset (surface data
  // such as the rain that reached the ground).
  bool ground_layer = false;
};

}  // namespace cb
