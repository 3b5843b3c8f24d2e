// The bodies of a CFD case on a rank's padded grid (docs/solvers/cfd.md,
// geometry): their implicit function at the grid nodes, and from it each
// cell's fluid volume fraction, each face's aperture and the area vector of
// the body's surface inside each cut cell (kernels/cfd/cut_cell.hpp).
#pragma once

#include "core/local_grid.hpp"
#include "core/types.hpp"
#include "kernels/cfd/embedded.hpp"
#include "kernels/cfd/shapes.hpp"

#include <mpi.h>

#include <string>
#include <vector>

namespace cb::cfd {

// The bodies as one program (kernels/cfd/shapes.hpp, postfix), the triangles
// of their surfaces, and per body its nodes [begin, end) for forces.
struct BodyProgram {
  std::vector<kernels::cfd::ShapeNode> nodes;
  std::vector<double> triangles;  // 9 per triangle
  std::vector<std::string> names;
  std::vector<int> begin, end;
  std::vector<kernels::cfd::BodyWall> walls;  // per body (no-slip walls only)
  bool empty() const { return nodes.empty(); }
  // Appends a body (a postfix program whose surface nodes count triangles
  // from 0 of `surface`) and unites it with those before it.
  void add(const std::string& name, std::vector<kernels::cfd::ShapeNode> program,
           const std::vector<double>& surface, const kernels::cfd::BodyWall& wall = {});
  bool isothermal() const;  // any body with a wall temperature
  bool moving() const;      // any body whose wall moves
};

using NodeView = Kokkos::View<double***, Kokkos::LayoutRight, MemSpace>;

// phi is sampled on the grid refined this many times per axis and the
// fractions averaged over the sub-cells and sub-faces: the second-order error
// of the linear interpolant R^2 times smaller, for R^3 times the evaluations
// (once per run).
constexpr int cut_refinement = 2;
// Nodes whose |phi| is below this fraction of the refined spacing are put on
// the surface (phi = 0): rounding, not geometry, at that size.
constexpr double phi_snap = 1e-12;
using AreaView = Kokkos::View<double****, Kokkos::LayoutRight, MemSpace>;

// On the padded grid of `n` cells per axis (ghosts included): phi at the
// R n + 1 refined nodes per axis; per cell its fluid fraction, the apertures of its
// three lower faces (x, y, z; the upper ones are the next cell's) and the
// body surface inside it, A n_b (n_b the body's outward normal, into the
// fluid) and its area |A|; per cut cell the mean distance of its fluid from
// the body surface (the viscous wall stress, docs/solvers/cfd.md §7.1) and
// its fluid's centroid (the gradients near walls, solvers/cfd/cut_gradients.cpp).
struct CutCells {
  NodeView phi;
  NodeView volume;
  NodeView aperture[3];
  AreaView boundary;       // (k, j, i, 0..3): A n_x, A n_y, A n_z, |A|
  NodeView wall_distance;  // mean phi over the fluid; 0 where the cell holds no surface
  AreaView centroid;       // (k, j, i, 0..2): fluid centroid - cell centre; 0 without surface
  // (k, j, i, 0..1): per cut cell, the distances from its own body of the
  // values of the cells one and two steps out along the axis nearest its
  // normal (solvers/cfd/wall_model.hpp). Set once the cells' bodies are known
  // (solvers/cfd/embedded.cpp), which also replaces wall_distance by the own
  // body's phi at the fluid's centroid.
  AreaView sample_distance;
};

// The face apertures of the padded block, per axis (face n of an axis lies
// between cells n - 1 and n).
struct Apertures {
  NodeView x, y, z;

  // Whether the face between (k, j, i) and its neighbour one step along `axis`
  // (`step` = +1 or -1) is open to the fluid.
  KOKKOS_INLINE_FUNCTION bool open(int axis, int step, int k, int j, int i) const {
    const int up = step > 0 ? 1 : 0;
    if (axis == 0) return x(k, j, i + up) > 0.0;
    if (axis == 1) return y(k, j + up, i) > 0.0;
    return z(k + up, j, i) > 0.0;
  }
};

inline Apertures apertures_of(const CutCells& cut) {
  return {cut.aperture[0], cut.aperture[1], cut.aperture[2]};
}

// Whether the cell at offset (a, b, c) in the block around (k, j, i) is joined
// to it through open faces by unit steps along the axes of the offset, in some
// order (the block's cells reachable without crossing a body: Colella et al.
// 2006 redistribute among the connected cells only). The relation is
// symmetric, so what a cell gives, its neighbour takes.
KOKKOS_INLINE_FUNCTION bool connected(const Apertures& ap, int k, int j, int i, int a, int b,
                                      int c) {
  const int offset[3] = {a, b, c};
  int axes[3], count = 0;
  for (int d = 0; d < 3; ++d)
    if (offset[d] != 0) axes[count++] = d;
  // Every order of the (at most three) steps: 1, 2 or 6 paths.
  const int orders[6][3] = {{0, 1, 2}, {0, 2, 1}, {1, 0, 2}, {1, 2, 0}, {2, 0, 1}, {2, 1, 0}};
  const int paths = count == 3 ? 6 : count == 2 ? 2 : 1;
  for (int p = 0; p < paths; ++p) {
    int at[3] = {i, j, k};
    bool open = true;
    for (int s = 0; s < count && open; ++s) {
      const int axis = axes[count == 2 ? (p == 0 ? s : 1 - s) : orders[p][s]];
      open = ap.open(axis, offset[axis], at[2], at[1], at[0]);
      at[axis] += offset[axis];
    }
    if (open) return true;
  }
  return false;
}

// Sample points per axis and refined sub-cell of the wall distance's mean.
constexpr int wall_distance_samples = 4;

// A device copy of `values`.
template <class T>
Kokkos::View<T*, MemSpace> to_device_view(const char* label, const std::vector<T>& values) {
  Kokkos::View<T*, MemSpace> view(std::string(label), values.size());
  auto host = Kokkos::create_mirror_view(view);
  for (std::size_t i = 0; i < values.size(); ++i) host(i) = values[i];
  Kokkos::deep_copy(view, host);
  return view;
}

// Along a `periodic` axis (non-zero) the ghost cells get the geometry of
// their images inside the domain.
CutCells make_cut_cells(const BodyProgram& bodies, const LocalGrid& grid, const Int3& padded,
                        const Int3& periodic = {0, 0, 0});

// Over the owned cells (ghost layers `ghost` on each side of `cells`): the
// fluid volume, the wetted area and the smallest non-zero fluid fraction,
// summed in cell order and over ranks (collective).
struct GeometryStats {
  double fluid_volume = 0.0;
  double wetted_area = 0.0;
  double smallest_fraction = 1.0;
};
GeometryStats geometry_stats(const CutCells& cut, const LocalGrid& grid, const Int3& cells,
                             const Int3& ghost, MPI_Comm comm);

}  // namespace cb::cfd
