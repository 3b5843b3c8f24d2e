// Tolerances that follow the precision of the stored fields (cb::real), so
// the single-precision build (-DCLOUDBURST_SINGLE_PRECISION=ON) is checked
// against its own round-off rather than double's.
#pragma once

#include "core/types.hpp"

#include <limits>

namespace cb::test {

// Machine epsilon of the field type: 2.2e-16 (double) or 1.2e-7 (float).
constexpr double real_epsilon = std::numeric_limits<real>::epsilon();

// A round-off bound measured or derived for double-precision fields, scaled to
// the field type: unchanged for double, times eps(float) / eps(double) = 2^29
// for float (round-off grows with the unit of the last place).
constexpr double round_off(double double_bound) {
  return double_bound * (real_epsilon / std::numeric_limits<double>::epsilon());
}

constexpr bool double_fields = sizeof(real) == sizeof(double);

}  // namespace cb::test
