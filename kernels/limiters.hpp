// Slope limiters for MUSCL-type reconstruction (van Leer 1979; Toro 2009, §13.8).
// Each returns the limited cell slope (times dx) from the two one-sided
// differences dl = q_i - q_{i-1} and dr = q_{i+1} - q_i.
#pragma once

#include "core/kokkos_compat.hpp"

namespace cb::kernels {

enum class Limiter : int { none, minmod, van_leer, mc };

// Unlimited central slope (Fromm's scheme): second order, not monotone.
template <class T>
KOKKOS_INLINE_FUNCTION T slope_central(T dl, T dr) {
  return T(0.5) * (dl + dr);
}

// minmod(dl, dr): the smaller one-sided slope when both have the same sign.
template <class T>
KOKKOS_INLINE_FUNCTION T slope_minmod(T dl, T dr) {
  if (dl * dr <= T(0)) return T(0);
  return math::fabs(dl) < math::fabs(dr) ? dl : dr;
}

// van Leer's harmonic-mean slope 2 dl dr / (dl + dr) when dl dr > 0.
template <class T>
KOKKOS_INLINE_FUNCTION T slope_van_leer(T dl, T dr) {
  const T product = dl * dr;
  if (product <= T(0)) return T(0);
  return T(2) * product / (dl + dr);
}

// Monotonized central (van Leer 1977): minmod(2 dl, (dl + dr) / 2, 2 dr).
template <class T>
KOKKOS_INLINE_FUNCTION T slope_mc(T dl, T dr) {
  if (dl * dr <= T(0)) return T(0);
  const T size = math::min(math::min(T(2) * math::fabs(dl), T(2) * math::fabs(dr)),
                           T(0.5) * math::fabs(dl + dr));
  return dl > T(0) ? size : -size;
}

template <class T>
KOKKOS_INLINE_FUNCTION T limited_slope(Limiter limiter, T dl, T dr) {
  switch (limiter) {
    case Limiter::minmod:
      return slope_minmod(dl, dr);
    case Limiter::van_leer:
      return slope_van_leer(dl, dr);
    case Limiter::mc:
      return slope_mc(dl, dr);
    case Limiter::none:
      break;
  }
  return slope_central(dl, dr);
}

}  // namespace cb::kernels
