// Velocity and temperature gradients beside the walls of viscous flow around
// bodies (docs/solvers/cfd.md §7.1). A cut cell's value is its fluid's mean,
// the value at its fluid's centroid for a linear field, not at the cell
// centre. Each fluid cell near a wall fits a gradient to its joined
// neighbours' values at their centroids and to the wall's no-slip velocity
// (and an isothermal wall's temperature) at its surface point
// (kernels/cfd/least_squares.hpp); the viscous flux of a face beside a cut or
// covered cell takes its gradient from the two cells' fits
// (solvers/cfd/fluxes.hpp), so the fluxes of a linear field are exact
// whatever the cut.
#pragma once

#include "core/local_grid.hpp"
#include "core/types.hpp"
#include "kernels/cfd/least_squares.hpp"
#include "solvers/cfd/cut_cells.hpp"

namespace cb::cfd {

using BandView = Kokkos::View<int***, Kokkos::LayoutRight, MemSpace>;

// Per padded cell: near_wall where a fluid cell has a cut or covered cell in
// its 3^d block (its faces take the fitted gradients), fitted where it has
// one within two steps (its fit is needed), else 0.
enum WallBand : int { far_from_wall = 0, fitted = 1, near_wall = 2 };

// The band of each padded cell (blocks clipped at the padded grid's edges).
BandView wall_bands(const CutCells& cut, const Int3& active);

// Per padded cell d(u, v, w, T)/dx_b at 3 q + b, and at gradient_valid 1
// where the fit was made (its samples span the active axes).
constexpr int gradient_components = 13;
constexpr int gradient_valid = 12;

// What the viscous face flux needs of them, by value.
struct WallGradients {
  BandView band;
  AreaView gradient;  // (k, j, i, gradient_components)
  AreaView centroid;  // the fluid centroids (CutCells::centroid)
  real h[3];          // spacing, 0 on unused axes
};

// Adds to the least-squares system (m, r) of cell (k, j, i) the fluid cells of
// its 3^d block joined to it through open faces (cut_cells.hpp, connected), at
// their fluid centroids: values(kk, jj, ii, f) gives their Q values, f0 the
// cell's own.
template <int Q, class Values>
KOKKOS_INLINE_FUNCTION void add_joined_neighbours(const NodeView& volume, const Apertures& ap,
                                                  const AreaView& centroid, const LocalGrid& grid,
                                                  const int active[3], int k, int j, int i,
                                                  const Values& values, const real f0[Q],
                                                  kernels::cfd::Symmetric3& m, real r[Q][3]) {
  for (int c = -active[2]; c <= active[2]; ++c)
    for (int b = -active[1]; b <= active[1]; ++b)
      for (int a = -active[0]; a <= active[0]; ++a) {
        if ((a == 0 && b == 0 && c == 0) || !(volume(k + c, j + b, i + a) > 0.0)) continue;
        if (!connected(ap, k, j, i, a, b, c)) continue;
        const int step[3] = {a, b, c};
        real dx[3], f[Q];
        for (int d = 0; d < 3; ++d)
          dx[d] =
              real(step[d] * grid.h[d] + centroid(k + c, j + b, i + a, d) - centroid(k, j, i, d));
        kernels::cfd::add_sample(m, dx);
        values(k + c, j + b, i + a, f);
        for (int q = 0; q < Q; ++q)
          for (int d = 0; d < 3; ++d) r[q][d] += dx[d] * (f[q] - f0[q]);
      }
}

}  // namespace cb::cfd
