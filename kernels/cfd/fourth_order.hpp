// Fourth-order conversions between cell (or face) averages and point values
// at their centres on a uniform grid (McCorquodale & Colella 2011, Commun.
// Appl. Math. Comput. Sci. 6:1, §2; Buchmueller & Helzel 2014, J. Sci.
// Comput. 61:343): <q> = q(centre) + h^2/24 q'' + O(h^4) along each axis of
// the average, with h^2 q'' from the second difference of neighbouring
// averages. A finite-volume scheme whose face flux is the flux of one
// reconstructed point state is second order in 2-D and 3-D whatever the
// reconstruction; with these conversions WENO5 keeps fourth order there.
#pragma once

#include "kernels/cfd/state.hpp"

namespace cb::kernels::cfd {

// h^2/24 q'' from three neighbouring averages along one axis.
KOKKOS_FORCEINLINE_FUNCTION real curvature_term(real lo, real centre, real hi) {
  return (lo - real(2) * centre + hi) / real(24);
}

// Three-point Gauss-Legendre rule on a cell [-h/2, h/2] (exact for degree 5):
// nodes at 0 and +-sqrt(3/5) h/2, weights 8/18 and 5/18.
KOKKOS_INLINE_FUNCTION double gauss3_node(int q) {
  return (q - 1) * 0.38729833462074168852;  // 0, +-sqrt(3/5) / 2
}
KOKKOS_INLINE_FUNCTION double gauss3_weight(int q) {
  return q == 1 ? 8.0 / 18.0 : 5.0 / 18.0;
}

}  // namespace cb::kernels::cfd
