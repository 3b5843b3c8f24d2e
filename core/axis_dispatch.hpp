// Kernels templated on their axis (so that index arithmetic folds at compile
// time), chosen by a run-time axis: with_axis(axis, f) calls
// f(std::integral_constant<int, A>{}) for A = axis (0, 1 or 2).
#pragma once

#include <type_traits>
#include <utility>

namespace cb {

template <class F>
void with_axis(int axis, F&& f) {
  if (axis == 0) return f(std::integral_constant<int, 0>{});
  if (axis == 1) return f(std::integral_constant<int, 1>{});
  f(std::integral_constant<int, 2>{});
}

}  // namespace cb
