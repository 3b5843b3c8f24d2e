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
#pragma once

#include <Kokkos_Core.hpp>

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

}  // namespace cb::kernels::md
