// Ideal-gas Euler states: primitive (rho, velocity, p) and conserved (rho,
// momentum, E) variables, their conversion, the sound speed and the physical
// flux along one axis (Toro 2009, Riemann Solvers and Numerical Methods for
// Fluid Dynamics, 3rd ed., eqs. 3.2-3.4). Temperatures are T = p / rho (the
// gas constant is 1 in the nondimensional units of every case).
#pragma once

#include "core/kokkos_compat.hpp"
#include "core/types.hpp"

namespace cb::kernels::cfd {

// Index of each conserved variable in a state View's first extent.
enum Var : int { density = 0, momentum_x = 1, momentum_y = 2, momentum_z = 3, total_energy = 4 };
constexpr int variables = 5;

struct Primitive {
  real rho;
  real vel[3];
  real p;
};

// Conserved variables; also the layout of a flux vector.
struct Conserved {
  real rho;
  real mom[3];
  real energy;
};

KOKKOS_FORCEINLINE_FUNCTION real kinetic_energy_density(const Primitive& w) {
  return real(0.5) * w.rho * (w.vel[0] * w.vel[0] + w.vel[1] * w.vel[1] + w.vel[2] * w.vel[2]);
}

KOKKOS_FORCEINLINE_FUNCTION Conserved to_conserved(const Primitive& w, real gamma) {
  Conserved u;
  u.rho = w.rho;
  for (int d = 0; d < 3; ++d) u.mom[d] = w.rho * w.vel[d];
  u.energy = w.p / (gamma - real(1)) + kinetic_energy_density(w);
  return u;
}

KOKKOS_FORCEINLINE_FUNCTION Primitive to_primitive(const Conserved& u, real gamma) {
  Primitive w;
  w.rho = u.rho;
  const real inv_rho = real(1) / u.rho;
  for (int d = 0; d < 3; ++d) w.vel[d] = u.mom[d] * inv_rho;
  w.p = (gamma - real(1)) * (u.energy - kinetic_energy_density(w));
  return w;
}

KOKKOS_FORCEINLINE_FUNCTION real sound_speed(const Primitive& w, real gamma) {
  return math::sqrt(gamma * w.p / w.rho);
}

KOKKOS_INLINE_FUNCTION real mach_number(const Primitive& w, real gamma) {
  const real speed2 = w.vel[0] * w.vel[0] + w.vel[1] * w.vel[1] + w.vel[2] * w.vel[2];
  return math::sqrt(speed2) / sound_speed(w, gamma);
}

KOKKOS_INLINE_FUNCTION real temperature(const Primitive& w) {
  return w.p / w.rho;
}

KOKKOS_INLINE_FUNCTION bool is_physical(const Primitive& w) {
  return w.rho > real(0) && w.p > real(0);
}

// Euler flux through a face normal to `axis` (Toro eq. 3.4 rotated).
KOKKOS_FORCEINLINE_FUNCTION Conserved physical_flux(const Primitive& w, real gamma, int axis) {
  const Conserved u = to_conserved(w, gamma);
  const real un = w.vel[axis];
  Conserved f;
  f.rho = u.rho * un;
  for (int d = 0; d < 3; ++d) f.mom[d] = u.mom[d] * un;
  f.mom[axis] += w.p;
  f.energy = (u.energy + w.p) * un;
  return f;
}

// The state of cell (k, j, i) of a conserved-variable View.
template <class View>
KOKKOS_FORCEINLINE_FUNCTION Conserved load_conserved(const View& s, int k, int j, int i) {
  return {s(density, k, j, i),
          {s(momentum_x, k, j, i), s(momentum_y, k, j, i), s(momentum_z, k, j, i)},
          s(total_energy, k, j, i)};
}

template <class View>
KOKKOS_FORCEINLINE_FUNCTION void store_conserved(const View& s, int k, int j, int i,
                                                 const Conserved& u) {
  s(density, k, j, i) = u.rho;
  s(momentum_x, k, j, i) = u.mom[0];
  s(momentum_y, k, j, i) = u.mom[1];
  s(momentum_z, k, j, i) = u.mom[2];
  s(total_energy, k, j, i) = u.energy;
}

// Primitive variables of cell (k, j, i) of a View laid out (rho, u, v, w, p).
template <class View>
KOKKOS_FORCEINLINE_FUNCTION Primitive load_primitive(const View& w, int k, int j, int i) {
  return {w(0, k, j, i), {w(1, k, j, i), w(2, k, j, i), w(3, k, j, i)}, w(4, k, j, i)};
}

template <class View>
KOKKOS_FORCEINLINE_FUNCTION void store_primitive(const View& w, int k, int j, int i,
                                                 const Primitive& q) {
  w(0, k, j, i) = q.rho;
  w(1, k, j, i) = q.vel[0];
  w(2, k, j, i) = q.vel[1];
  w(3, k, j, i) = q.vel[2];
  w(4, k, j, i) = q.p;
}

}  // namespace cb::kernels::cfd
