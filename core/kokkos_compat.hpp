// The few Kokkos API differences between Debian's 3.4.1 and the 4.x/5.x
// installs on clusters, in one place (facts: shared/KOKKOS.md).
// Kernels call cb::math::sqrt etc.; nothing else in the code base branches on
// KOKKOS_VERSION.
#pragma once

#include <Kokkos_Core.hpp>

namespace cb::math {

#if KOKKOS_VERSION >= 30700
namespace kmath = ::Kokkos;
#else
namespace kmath = ::Kokkos::Experimental;
#endif

template <class T>
KOKKOS_INLINE_FUNCTION T sqrt(T x) {
  return kmath::sqrt(x);
}
template <class T>
KOKKOS_INLINE_FUNCTION T fabs(T x) {
  return kmath::fabs(x);
}
template <class T>
KOKKOS_INLINE_FUNCTION T exp(T x) {
  return kmath::exp(x);
}
template <class T>
KOKKOS_INLINE_FUNCTION T log(T x) {
  return kmath::log(x);
}
template <class T>
KOKKOS_INLINE_FUNCTION T sin(T x) {
  return kmath::sin(x);
}
template <class T>
KOKKOS_INLINE_FUNCTION T cos(T x) {
  return kmath::cos(x);
}
template <class T>
KOKKOS_INLINE_FUNCTION T floor(T x) {
  return kmath::floor(x);
}
template <class T>
KOKKOS_INLINE_FUNCTION T pow(T x, T y) {
  return kmath::pow(x, y);
}
template <class T>
KOKKOS_INLINE_FUNCTION T atan2(T y, T x) {
  return kmath::atan2(y, x);
}
template <class T>
KOKKOS_INLINE_FUNCTION T erfc(T x) {
  return kmath::erfc(x);
}
template <class T>
KOKKOS_INLINE_FUNCTION bool isfinite(T x) {
  return kmath::isfinite(x);
}

// Kokkos::min/max/clamp do not exist in 3.4.
template <class T>
KOKKOS_INLINE_FUNCTION constexpr T min(T a, T b) {
  return b < a ? b : a;
}
template <class T>
KOKKOS_INLINE_FUNCTION constexpr T max(T a, T b) {
  return a < b ? b : a;
}
template <class T>
KOKKOS_INLINE_FUNCTION constexpr T clamp(T x, T lo, T hi) {
  return min(max(x, lo), hi);
}

// Kokkos::numbers is missing in 3.4.
constexpr double pi = 3.14159265358979323846264338327950288;

}  // namespace cb::math
