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

#include "core/types.hpp"
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

}  // namespace cb::cfd
