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
// the body surface (the viscous wall stress, docs/solvers/cfd.md §7.1).
struct CutCells {
  NodeView phi;
  NodeView volume;
  NodeView aperture[3];
  AreaView boundary;       // (k, j, i, 0..3): A n_x, A n_y, A n_z, |A|
  NodeView wall_distance;  // 0 where the cell holds no surface
};

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
