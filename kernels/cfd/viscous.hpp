// Viscous stress and heat flux of a Newtonian ideal gas with the Stokes
// hypothesis (bulk viscosity 0): tau = mu (grad u + grad u^T) - 2/3 mu (div u) I,
// q = -kappa grad T, kappa = mu c_p / Pr, c_p = gamma / (gamma - 1) (gas constant
// 1). The Navier-Stokes flux along `axis` is F_inviscid - F_viscous.
#pragma once

#include "kernels/cfd/state.hpp"

namespace cb::kernels::cfd {

enum class ViscosityLaw : int { none, constant, sutherland };

struct Viscosity {
  ViscosityLaw law;
  real mu;  // dynamic viscosity (at t_ref for Sutherland)
  real prandtl;
  real t_ref;  // Sutherland reference temperature
  real s;      // Sutherland constant
};

// mu(T): constant, or Sutherland (1893), Phil. Mag. 36:507,
// mu = mu_ref (T / T_ref)^(3/2) (T_ref + S) / (T + S).
KOKKOS_INLINE_FUNCTION real dynamic_viscosity(const Viscosity& v, real t) {
  if (v.law != ViscosityLaw::sutherland) return v.mu;
  const real ratio = t / v.t_ref;
  return v.mu * ratio * math::sqrt(ratio) * (v.t_ref + v.s) / (t + v.s);
}

KOKKOS_INLINE_FUNCTION real heat_conductivity(const Viscosity& v, real mu, real gamma) {
  return mu * gamma / ((gamma - real(1)) * v.prandtl);
}

// Viscous flux through a face normal to `axis` from the face velocity `vel`,
// the velocity gradient grad[a][b] = d u_a / d x_b and the normal temperature
// gradient: (0, tau_{axis,b}, u_b tau_{axis,b} + kappa dT/dn).
KOKKOS_INLINE_FUNCTION Conserved viscous_flux(const real vel[3], const real grad[3][3], real dt_dn,
                                              real mu, real kappa, int axis) {
  const real divergence = grad[0][0] + grad[1][1] + grad[2][2];
  Conserved f;
  f.rho = real(0);
  f.energy = kappa * dt_dn;
  for (int b = 0; b < 3; ++b) {
    real tau = mu * (grad[axis][b] + grad[b][axis]);
    if (b == axis) tau -= real(2) / real(3) * mu * divergence;
    f.mom[b] = tau;
    f.energy += vel[b] * tau;
  }
  return f;
}

}  // namespace cb::kernels::cfd
