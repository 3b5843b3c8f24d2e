// Cut-cell geometry from an implicit function sampled at the grid nodes
// (docs/solvers/cfd.md): phi is interpolated linearly on the Kuhn
// (Freudenthal) triangulation of each cell into 6 tetrahedra along its main
// diagonal, which splits each face into 2 triangles along the diagonal from
// its lowest corner. The fluid region {phi > 0} is then a polyhedron whose
// volume in each cell and area on each face are exact for that interpolant:
// second-order accurate for a smooth body, the same number for a face seen
// from either of its cells (conservation), and a function of the global
// position only (the same on any rank layout).
#pragma once

#include "core/kokkos_compat.hpp"

#include <Kokkos_Core.hpp>

namespace cb::kernels::cfd {

// The fraction of a triangle where the linear function with vertex values
// (a, b, c) is positive. With one vertex on the other side of the zero line
// from the other two, the cut-off corner is a similar triangle with edge
// fractions a / (a - b) and a / (a - c), whatever that vertex's sign.
KOKKOS_INLINE_FUNCTION double triangle_fluid_fraction(double a, double b, double c) {
  const int positive = (a > 0.0) + (b > 0.0) + (c > 0.0);
  if (positive == 0) return 0.0;
  if (positive == 3) return 1.0;
  // The lone vertex: the positive one of one, the non-positive one of two.
  const bool lone_positive = positive == 1;
  double lone = a, u = b, v = c;
  if ((b > 0.0) == lone_positive) lone = b, u = a, v = c;
  if ((c > 0.0) == lone_positive) lone = c, u = a, v = b;
  const double corner = lone * lone / ((lone - u) * (lone - v));
  return lone_positive ? corner : 1.0 - corner;
}

// The fraction of a tetrahedron where the linear function with vertex values
// f[4] is positive. One vertex apart: the corner tetrahedron with edge
// fractions s_k = f_0 / (f_0 - f_k), volume s_1 s_2 s_3. Two and two (a, b
// positive, c, d not): the wedge between them, split into 3 tetrahedra whose
// volumes in barycentric coordinates are s_ac s_ad (1 - s_bd),
// s_ac s_bd (1 - s_bc) and s_bc s_bd.
KOKKOS_INLINE_FUNCTION double tetra_fluid_fraction(const double f[4]) {
  int positive = 0;
  for (int v = 0; v < 4; ++v) positive += f[v] > 0.0;
  if (positive == 0) return 0.0;
  if (positive == 4) return 1.0;
  if (positive != 2) {
    const bool lone_positive = positive == 1;
    int lone = 0;
    for (int v = 0; v < 4; ++v)
      if ((f[v] > 0.0) == lone_positive) lone = v;
    double corner = 1.0;
    for (int v = 0; v < 4; ++v)
      if (v != lone) corner *= f[lone] / (f[lone] - f[v]);
    return lone_positive ? corner : 1.0 - corner;
  }
  int in[2], out[2], ni = 0, no = 0;
  for (int v = 0; v < 4; ++v) {
    if (f[v] > 0.0)
      in[ni++] = v;
    else
      out[no++] = v;
  }
  const double a = f[in[0]], b = f[in[1]], c = f[out[0]], d = f[out[1]];
  const double s_ac = a / (a - c), s_ad = a / (a - d), s_bc = b / (b - c), s_bd = b / (b - d);
  return s_ac * s_ad * (1.0 - s_bd) + s_ac * s_bd * (1.0 - s_bc) + s_bc * s_bd;
}

// The fluid fraction of a face from its corner values, corner[v + 2 w] at
// (v, w) in the face's two axes, split along (0, 0)-(1, 1).
KOKKOS_INLINE_FUNCTION double face_aperture(const double corner[4]) {
  return 0.5 * (triangle_fluid_fraction(corner[0], corner[1], corner[3]) +
                triangle_fluid_fraction(corner[0], corner[2], corner[3]));
}

// The fluid fraction of a cell from its corner values, corner[i + 2 j + 4 k]
// at (i, j, k): the mean over the 6 tetrahedra (0, e_a, e_a + e_b, 1) for the
// orderings (a, b) of the axes.
KOKKOS_INLINE_FUNCTION double cell_volume_fraction(const double corner[8]) {
  const int step[3] = {1, 2, 4};
  double sum = 0.0;
  for (int a = 0; a < 3; ++a) {
    for (int b = 0; b < 3; ++b) {
      if (b == a) continue;
      const double f[4] = {corner[0], corner[step[a]], corner[step[a] + step[b]], corner[7]};
      sum += tetra_fluid_fraction(f);
    }
  }
  return sum / 6.0;
}

}  // namespace cb::kernels::cfd
