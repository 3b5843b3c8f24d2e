// Dot and cross products of 3-vectors held as double[3], and the components
// of symmetric tensors, for the MD kernels.
#pragma once

#include "core/kokkos_compat.hpp"

namespace cb::kernels::md {

// A symmetric 3 x 3 tensor (the virial, the pressure) as its six components in
// LAMMPS's order xx, yy, zz, xy, xz, yz: component c is row tensor_row(c),
// column tensor_col(c).
constexpr int tensor_components = 6;
KOKKOS_INLINE_FUNCTION int tensor_row(int c) {
  return c < 3 ? c : (c == 5 ? 1 : 0);
}
KOKKOS_INLINE_FUNCTION int tensor_col(int c) {
  return c < 3 ? c : (c == 3 ? 1 : 2);
}

}  // namespace cb::kernels::md

namespace cb::kernels::md::detail {

KOKKOS_INLINE_FUNCTION double dot(const double a[3], const double b[3]) {
  return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

KOKKOS_INLINE_FUNCTION void cross(const double a[3], const double b[3], double out[3]) {
  out[0] = a[1] * b[2] - a[2] * b[1];
  out[1] = a[2] * b[0] - a[0] * b[2];
  out[2] = a[0] * b[1] - a[1] * b[0];
}

}  // namespace cb::kernels::md::detail
