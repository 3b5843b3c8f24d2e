// x^y for positive x as exp(y ln x) in plain arithmetic: no library call and no
// table, so a loop that calls it can be vectorised by the compiler (the library
// pow is a call that stops it) and a GPU runs the same operations. Within
// 2 ulp of the exact power for the arguments of an equation of state (against
// long double powl: 4.0e-16 relative at most over [1e-3, 2e3] with y = cp/cv, cv/cp
// and cp/Rd; tests/test_weather_kernels.cpp). Domain: 1e-300 <= x <= 1e300 and
// |y ln x| < 700; anything else (zero, negative, NaN, infinite) gives NaN.
//
// Method (e.g. Muller, "Elementary Functions", 3rd ed., ch. 11-12):
// x = 2^k z with z in [sqrt(1/2), sqrt(2)); ln z = 2 atanh(s), s = (z - 1) / (z + 1),
// |s| < 0.172, by its Taylor series to s^23 (truncation below 1e-18); ln x = k ln 2 +
// ln z as a double-double, times y by Dekker's exact product (no FMA needed), so the
// exponent carries no rounding of its own; exp(t) = 2^n exp(r), |r| <= ln 2 / 2, by
// its Taylor series to r^13 (truncation below 2e-17), with n ln 2 in two parts
// (Cody and Waite). Both series by Estrin's scheme, whose short dependency chains
// let a 2-lane SSE2 loop overlap them (15 -> 9 ns per value here; Horner's rule is
// latency-bound).
#pragma once

#include <Kokkos_Core.hpp>

#include <cstdint>
#include <cstring>

namespace cb::math {

KOKKOS_INLINE_FUNCTION std::uint64_t bits_of(double x) {
#if defined(__CUDA_ARCH__) || defined(__HIP_DEVICE_COMPILE__)
  return static_cast<std::uint64_t>(__double_as_longlong(x));
#else
  std::uint64_t b;
  std::memcpy(&b, &x, sizeof b);
  return b;
#endif
}

KOKKOS_INLINE_FUNCTION double double_of(std::uint64_t b) {
#if defined(__CUDA_ARCH__) || defined(__HIP_DEVICE_COMPILE__)
  return __longlong_as_double(static_cast<long long>(b));
#else
  double x;
  std::memcpy(&x, &b, sizeof x);
  return x;
#endif
}

// 1.5 * 2^52: adding it rounds a double of magnitude below 2^51 to an integer,
// held in the low bits of the sum's representation.
constexpr double round_magic = 6755399441055744.0;
constexpr double ln2_hi = 6.93147180369123816490e-01;  // ln 2, 32 bits: k ln2_hi is exact
constexpr double ln2_lo = 1.90821492927058770002e-10;  // ln 2 - ln2_hi
constexpr double dekker_split = 134217729.0;           // 2^27 + 1

// a + b exactly as hi + lo (Dekker's fast two-sum; |a| >= |b| or a = 0).
struct DoubleDouble {
  double hi, lo;
};

KOKKOS_INLINE_FUNCTION DoubleDouble fast_two_sum(double a, double b) {
  const double s = a + b;
  return {s, (a - s) + b};
}

// ln x for positive normal x as hi + lo.
KOKKOS_INLINE_FUNCTION DoubleDouble log_positive(double x) {
  const std::uint64_t ix = bits_of(x);
  const std::uint64_t t = ix - 0x3fe6a09e667f3bcdULL;  // the bits of sqrt(1/2)
  const double z = double_of(ix - (t & (std::uint64_t(0xfff) << 52)));
  // k = t >> 52 as a signed (arithmetic) shift, from logical shifts alone (t + 2^62 is
  // positive), made a double through the magic number.
  const std::uint64_t k_bits = bits_of(round_magic) + ((t + (std::uint64_t(1) << 62)) >> 52) - 1024;
  const double k = double_of(k_bits) - round_magic;
  const double s = (z - 1) / (z + 1), s2 = s * s;
  // sum over m = 0..10 of s2^m / (2m + 3) by Estrin's scheme
  const double s4 = s2 * s2, s8 = s4 * s4;
  const double p = ((1.0 / 3 + s2 * (1.0 / 5)) + (1.0 / 7 + s2 * (1.0 / 9)) * s4) +
                   ((1.0 / 11 + s2 * (1.0 / 13)) + (1.0 / 15 + s2 * (1.0 / 17)) * s4) * s8 +
                   ((1.0 / 19 + s2 * (1.0 / 21)) + s4 * (1.0 / 23)) * (s8 * s8);
  const double ln_z = 2 * s + 2 * s * s2 * p;
  return fast_two_sum(k * ln2_hi, k * ln2_lo + ln_z);
}

// y (hi + lo) as t + t_err, t = the rounded product (Dekker's two-product of y and hi).
KOKKOS_INLINE_FUNCTION DoubleDouble scale(double y, const DoubleDouble& l) {
  const double yc = dekker_split * y, y_hi = yc - (yc - y), y_lo = y - y_hi;
  const double lc = dekker_split * l.hi, l_hi = lc - (lc - l.hi), l_lo = l.hi - l_hi;
  const double t = y * l.hi;
  const double err = (((y_hi * l_hi - t) + y_hi * l_lo) + y_lo * l_hi) + y_lo * l_lo;
  return {t, err + y * l.lo};
}

// exp(t.hi + t.lo) for |t.hi| < 700.
KOKKOS_INLINE_FUNCTION double exp_double_double(const DoubleDouble& t) {
  const double inv_ln2 = 1.44269504088896338700e+00;
  const double shifted = t.hi * inv_ln2 + round_magic, n = shifted - round_magic;
  const double r = ((t.hi - n * ln2_hi) - n * ln2_lo) + t.lo;
  // sum over m = 0..11 of r^m / (m + 2)! by Estrin's scheme
  const double r2 = r * r, r4 = r2 * r2, r8 = r4 * r4;
  const double q =
      ((1.0 / 2 + r * (1.0 / 6)) + (1.0 / 24 + r * (1.0 / 120)) * r2) +
      ((1.0 / 720 + r * (1.0 / 5040)) + (1.0 / 40320 + r * (1.0 / 362880)) * r2) * r4 +
      ((1.0 / 3628800 + r * (1.0 / 39916800)) + (1.0 / 479001600 + r * (1.0 / 6227020800)) * r2) *
          r8;
  const double e = 1 + (r + r * r * q);
  // times 2^n: n sits in the low bits of `shifted`; moved into the exponent field
  return double_of(bits_of(e) + (bits_of(shifted) << 52));
}

// exp(x) for |x| < 700 in plain arithmetic, for loops that should vectorise
// (the pair kernels' erfc); within 1 ulp of the exact value (tests/test_weather_kernels.cpp).
KOKKOS_INLINE_FUNCTION double exp_plain(double x) {
  return exp_double_double({x, 0.0});
}

KOKKOS_INLINE_FUNCTION double pow_positive(double x, double y) {
  const DoubleDouble t = scale(y, log_positive(x));
  const double result = exp_double_double(t);
  // NaN outside the domain by adding 0 or NaN (result > 0, so adding 0 keeps it exactly): a
  // select of doubles, which vectorises also on x86-64's baseline SSE2.
  const bool in_domain = (x >= 1e-300) & (x <= 1e300) & (t.hi > -700) & (t.hi < 700);
  return result + (in_domain ? 0.0 : double_of(0x7ff8000000000000ULL));  // a quiet NaN
}

}  // namespace cb::math
