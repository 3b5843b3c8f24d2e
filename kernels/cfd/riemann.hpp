// Approximate Riemann solvers: the numerical flux through a face normal to
// `axis` between the left state wl and the right state wr.
#pragma once

#include "kernels/cfd/state.hpp"

namespace cb::kernels::cfd {

enum class RiemannSolver : int { hllc, hll, rusanov };

struct WaveSpeeds {
  real left, right;
};

// Pressure-based wave-speed estimates (Toro 2009, eqs. 10.59-10.61): the PVRS
// star pressure decides whether each outer wave is a shock (speed scaled by
// q_K) or a rarefaction (q_K = 1).
KOKKOS_FORCEINLINE_FUNCTION WaveSpeeds pressure_based_speeds(const Primitive& wl,
                                                             const Primitive& wr, real gamma,
                                                             int axis) {
  const real al = sound_speed(wl, gamma), ar = sound_speed(wr, gamma);
  const real ul = wl.vel[axis], ur = wr.vel[axis];
  const real rho_bar = real(0.5) * (wl.rho + wr.rho), a_bar = real(0.5) * (al + ar);
  const real p_pvrs = real(0.5) * (wl.p + wr.p) - real(0.5) * (ur - ul) * rho_bar * a_bar;
  const real p_star = math::max(real(0), p_pvrs);
  const real shock = (gamma + real(1)) / (real(2) * gamma);
  const real ql = p_star > wl.p ? math::sqrt(real(1) + shock * (p_star / wl.p - real(1))) : real(1);
  const real qr = p_star > wr.p ? math::sqrt(real(1) + shock * (p_star / wr.p - real(1))) : real(1);
  return {ul - al * ql, ur + ar * qr};
}

// HLLC star state U*_K (Toro 2009, eq. 10.73), written so that a state with
// S_K - u_K = S_K - S* returns U_K exactly.
KOKKOS_FORCEINLINE_FUNCTION Conserved hllc_star_state(const Primitive& w, const Conserved& u,
                                                      real s_k, real s_star, int axis) {
  const real un = w.vel[axis];
  const real factor = (s_k - un) / (s_k - s_star);
  Conserved star;
  star.rho = w.rho * factor;
  for (int d = 0; d < 3; ++d) star.mom[d] = star.rho * w.vel[d];
  star.mom[axis] = star.rho * s_star;
  star.energy = factor * (u.energy + (s_star - un) * (w.rho * s_star + w.p / (s_k - un)));
  return star;
}

// f + s (a - b), componentwise.
KOKKOS_FORCEINLINE_FUNCTION Conserved add_scaled_difference(const Conserved& f, real s,
                                                            const Conserved& a,
                                                            const Conserved& b) {
  Conserved r;
  r.rho = f.rho + s * (a.rho - b.rho);
  for (int d = 0; d < 3; ++d) r.mom[d] = f.mom[d] + s * (a.mom[d] - b.mom[d]);
  r.energy = f.energy + s * (a.energy - b.energy);
  return r;
}

// HLLC flux of Toro, Spruce & Speares (1994), Shock Waves 4:25, in the form of
// Toro (2009) eqs. 10.70-10.73 (the contact speed S* from eq. 10.70).
KOKKOS_FORCEINLINE_FUNCTION Conserved flux_hllc(const Primitive& wl, const Primitive& wr,
                                                real gamma, int axis) {
  const WaveSpeeds s = pressure_based_speeds(wl, wr, gamma, axis);
  const Conserved fl = physical_flux(wl, gamma, axis);
  if (s.left >= real(0)) return fl;
  const Conserved fr = physical_flux(wr, gamma, axis);
  if (s.right <= real(0)) return fr;
  const real ul = wl.vel[axis], ur = wr.vel[axis];
  const real ml = wl.rho * (s.left - ul), mr = wr.rho * (s.right - ur);
  const real s_star = (wr.p - wl.p + ml * ul - mr * ur) / (ml - mr);
  if (s_star >= real(0)) {
    const Conserved u = to_conserved(wl, gamma);
    return add_scaled_difference(fl, s.left, hllc_star_state(wl, u, s.left, s_star, axis), u);
  }
  const Conserved u = to_conserved(wr, gamma);
  return add_scaled_difference(fr, s.right, hllc_star_state(wr, u, s.right, s_star, axis), u);
}

// HLL flux of Harten, Lax & van Leer (1983), SIAM Rev. 25:35 (Toro 2009,
// eq. 10.21), with the same wave speeds as HLLC.
KOKKOS_FORCEINLINE_FUNCTION Conserved flux_hll(const Primitive& wl, const Primitive& wr, real gamma,
                                               int axis) {
  const WaveSpeeds s = pressure_based_speeds(wl, wr, gamma, axis);
  const Conserved fl = physical_flux(wl, gamma, axis);
  if (s.left >= real(0)) return fl;
  const Conserved fr = physical_flux(wr, gamma, axis);
  if (s.right <= real(0)) return fr;
  const Conserved ul = to_conserved(wl, gamma), ur = to_conserved(wr, gamma);
  const real inv = real(1) / (s.right - s.left);
  Conserved f;
  f.rho = (s.right * fl.rho - s.left * fr.rho + s.left * s.right * (ur.rho - ul.rho)) * inv;
  for (int d = 0; d < 3; ++d) {
    f.mom[d] =
        (s.right * fl.mom[d] - s.left * fr.mom[d] + s.left * s.right * (ur.mom[d] - ul.mom[d])) *
        inv;
  }
  f.energy =
      (s.right * fl.energy - s.left * fr.energy + s.left * s.right * (ur.energy - ul.energy)) * inv;
  return f;
}

// Rusanov (local Lax-Friedrichs) flux, Rusanov (1961); Toro (2009) eq. 10.56.
KOKKOS_FORCEINLINE_FUNCTION Conserved flux_rusanov(const Primitive& wl, const Primitive& wr,
                                                   real gamma, int axis) {
  const real s = math::max(math::fabs(wl.vel[axis]) + sound_speed(wl, gamma),
                           math::fabs(wr.vel[axis]) + sound_speed(wr, gamma));
  const Conserved fl = physical_flux(wl, gamma, axis), fr = physical_flux(wr, gamma, axis);
  const Conserved ul = to_conserved(wl, gamma), ur = to_conserved(wr, gamma);
  Conserved f;
  f.rho = real(0.5) * (fl.rho + fr.rho) - real(0.5) * s * (ur.rho - ul.rho);
  for (int d = 0; d < 3; ++d) {
    f.mom[d] = real(0.5) * (fl.mom[d] + fr.mom[d]) - real(0.5) * s * (ur.mom[d] - ul.mom[d]);
  }
  f.energy = real(0.5) * (fl.energy + fr.energy) - real(0.5) * s * (ur.energy - ul.energy);
  return f;
}

KOKKOS_INLINE_FUNCTION Conserved riemann_flux(RiemannSolver solver, const Primitive& wl,
                                              const Primitive& wr, real gamma, int axis) {
  switch (solver) {
    case RiemannSolver::hll:
      return flux_hll(wl, wr, gamma, axis);
    case RiemannSolver::rusanov:
      return flux_rusanov(wl, wr, gamma, axis);
    case RiemannSolver::hllc:
      break;
  }
  return flux_hllc(wl, wr, gamma, axis);
}

// The same, with the solver fixed at compile time (for the flux kernels).
template <RiemannSolver S>
KOKKOS_FORCEINLINE_FUNCTION Conserved riemann_flux(const Primitive& wl, const Primitive& wr,
                                                   real gamma, int axis) {
  if constexpr (S == RiemannSolver::hll) {
    return flux_hll(wl, wr, gamma, axis);
  } else if constexpr (S == RiemannSolver::rusanov) {
    return flux_rusanov(wl, wr, gamma, axis);
  } else {
    return flux_hllc(wl, wr, gamma, axis);
  }
}

// Low-Mach correction of the reconstructed velocities (Thornber, Mosedale,
// Drikakis, Youngs & Williams 2008, J. Comput. Phys. 227:4873, eqs. 26-27):
// the jump u_L - u_R is scaled by z = min(1, max(M_L, M_R)), the mean kept.
// Thornber et al. scale every component; with normal_only the normal one alone
// (the jump that makes the O(1/M) pressure error, Rieper 2011, J. Comput.
// Phys. 230:5263), so the shear wave keeps its upwind dissipation.
KOKKOS_INLINE_FUNCTION void low_mach_correction(Primitive& wl, Primitive& wr, real gamma, int axis,
                                                bool normal_only) {
  const real z = math::min(real(1), math::max(mach_number(wl, gamma), mach_number(wr, gamma)));
  for (int d = 0; d < 3; ++d) {
    if (normal_only && d != axis) continue;
    const real mean = real(0.5) * (wl.vel[d] + wr.vel[d]);
    const real half_jump = real(0.5) * z * (wl.vel[d] - wr.vel[d]);
    wl.vel[d] = mean + half_jump;
    wr.vel[d] = mean - half_jump;
  }
}

}  // namespace cb::kernels::cfd
