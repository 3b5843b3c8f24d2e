// The three-point Gauss-Legendre rule on a cell of unit width centred at 0
// (exact for polynomials of degree 5; Abramowitz & Stegun 1964, 25.4.29):
// nodes 0 and +-sqrt(3/5) / 2, weights 8/18 and 5/18. Cell averages of
// initial conditions and exact solutions are sums of gauss3_weight(q) f(centre
// + gauss3_node(q) h) per axis.
#pragma once

#include <Kokkos_Core.hpp>

namespace cb::kernels {

KOKKOS_INLINE_FUNCTION double gauss3_node(int q) {
  return (q - 1) * 0.38729833462074168852;  // 0, +-sqrt(3/5) / 2
}
KOKKOS_INLINE_FUNCTION double gauss3_weight(int q) {
  return q == 1 ? 8.0 / 18.0 : 5.0 / 18.0;
}

}  // namespace cb::kernels
