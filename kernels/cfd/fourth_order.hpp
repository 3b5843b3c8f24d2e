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

}  // namespace cb::kernels::cfd
