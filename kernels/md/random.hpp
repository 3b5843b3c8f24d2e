// Random numbers for MD initial conditions and thermostats.
//  - ParkMiller: the minimal standard generator of Park & Miller (1988),
//    x <- 16807 x mod (2^31 - 1) with Schrage's factorisation (IQ = 127773,
//    IR = 2836), as LAMMPS's RanPark uses it.
//  - seed_from_position: LAMMPS `velocity ... loop geom` reseeds that generator
//    per atom from Jenkins' one-at-a-time hash of the user seed's bytes and the
//    bytes of the atom's three coordinates (then discards 5 numbers), so the
//    velocities depend on positions only, not on rank count or atom order.
//  - counter_uniform: a stateless counter-based stream (SplitMix64 finaliser,
//    Steele, Lea & Flood 2014) keyed by (seed, atom id, step, component) for the
//    Langevin thermostat: the same numbers on any rank count and atom order.
//  - CounterStream: successive counters (seed, key, step, 0, 1, 2, ...) of
//    that stream as one sequence, and standard Gaussian (Box-Muller) and gamma
//    (Marsaglia & Tsang 2000) variates drawn from it, for the stochastic
//    velocity rescaling thermostat: every rank draws the same numbers.
#pragma once

#include <Kokkos_Core.hpp>

#include <cmath>
#include <cstdint>

namespace cb::kernels::md {

struct ParkMiller {
  int state = 1;

  KOKKOS_INLINE_FUNCTION double uniform() {
    constexpr int ia = 16807, im = 2147483647, iq = 127773, ir = 2836;
    const int k = state / iq;
    state = ia * (state - k * iq) - ir * k;
    if (state < 0) state += im;
    return (1.0 / im) * state;
  }
};

// One step of Jenkins' one-at-a-time hash over one byte. The byte is read as
// a (signed) char and widened, as the reference implementation on x86 does.
KOKKOS_INLINE_FUNCTION unsigned int oaat_mix(unsigned int hash, signed char byte) {
  hash += static_cast<unsigned int>(static_cast<int>(byte));
  hash += hash << 10;
  hash ^= hash >> 6;
  return hash;
}

// Bytes of a trivially copyable value, little-endian order of its storage.
template <class T>
KOKKOS_INLINE_FUNCTION unsigned int oaat_mix_value(unsigned int hash, const T& value) {
  const unsigned char* bytes = reinterpret_cast<const unsigned char*>(&value);
  for (unsigned n = 0; n < sizeof(T); ++n)
    hash = oaat_mix(hash, static_cast<signed char>(bytes[n]));
  return hash;
}

// A generator seeded from (seed, x, y, z) as LAMMPS RanPark::reset(seed, coord).
KOKKOS_INLINE_FUNCTION ParkMiller seed_from_position(int seed, double x, double y, double z) {
  unsigned int hash = oaat_mix_value(0u, seed);
  hash = oaat_mix_value(hash, x);
  hash = oaat_mix_value(hash, y);
  hash = oaat_mix_value(hash, z);
  hash += hash << 3;
  hash ^= hash >> 11;
  hash += hash << 15;
  ParkMiller rng;
  rng.state = static_cast<int>(hash & 0x7ffffffu);  // 27 bits, as the reference keeps
  if (rng.state == 0) rng.state = 1;
  for (int n = 0; n < 5; ++n) rng.uniform();
  return rng;
}

// SplitMix64 finaliser: a bijective 64-bit mixer.
KOKKOS_INLINE_FUNCTION std::uint64_t splitmix64(std::uint64_t z) {
  z += 0x9e3779b97f4a7c15ull;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

// Uniform in [0, 1) from the counter (seed, id, step, component); 53 bits.
KOKKOS_INLINE_FUNCTION double counter_uniform(std::uint64_t seed, std::int64_t id,
                                              std::int64_t step, int component) {
  std::uint64_t h = splitmix64(seed);
  h = splitmix64(h ^ static_cast<std::uint64_t>(id));
  h = splitmix64(h ^ static_cast<std::uint64_t>(step));
  h = splitmix64(h ^ static_cast<std::uint64_t>(component));
  return static_cast<double>(h >> 11) * (1.0 / 9007199254740992.0);
}

// The uniforms counter_uniform(seed, key, step, n) for n = 0, 1, 2, ...
struct CounterStream {
  std::uint64_t seed = 1;
  std::int64_t key = 0, step = 0;
  int next = 0;

  double uniform() { return counter_uniform(seed, key, step, next++); }
};

// A standard Gaussian variate (Box-Muller; 1 - u in (0, 1] keeps the log finite).
inline double gaussian(CounterStream& stream) {
  const double u1 = 1.0 - stream.uniform(), u2 = stream.uniform();
  return std::sqrt(-2.0 * std::log(u1)) * std::cos(6.283185307179586 * u2);
}

// A gamma variate of the given shape and unit scale: Marsaglia & Tsang (2000),
// ACM TOMS 26:363, with their u^(1/shape) boost for shape < 1. 0 for shape <= 0.
inline double gamma_variate(double shape, CounterStream& stream) {
  if (!(shape > 0.0)) return 0.0;
  if (shape < 1.0) {
    const double boost = std::pow(1.0 - stream.uniform(), 1.0 / shape);
    return gamma_variate(shape + 1.0, stream) * boost;
  }
  const double d = shape - 1.0 / 3.0, c = 1.0 / std::sqrt(9.0 * d);
  for (;;) {
    const double x = gaussian(stream);
    double v = 1.0 + c * x;
    if (v <= 0.0) continue;
    v = v * v * v;
    const double u = 1.0 - stream.uniform();
    if (std::log(u) < 0.5 * x * x + d - d * v + d * std::log(v)) return d * v;
  }
}

// A chi-squared variate with `n` degrees of freedom (the sum of n squared
// standard Gaussians): twice a gamma variate of shape n / 2.
inline double chi_squared(double n, CounterStream& stream) {
  return 2.0 * gamma_variate(0.5 * n, stream);
}

}  // namespace cb::kernels::md
