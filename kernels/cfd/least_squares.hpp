// Gradients from scattered samples, for the viscous fluxes beside cut cells
// (docs/solvers/cfd.md §7.1): the unweighted least-squares fit of a linear
// field to samples f_j at offsets dx_j from a point where it is f_0,
// minimising sum_j (f_j - f_0 - g . dx_j)^2, so M g = sum_j dx_j (f_j - f_0)
// with M = sum_j dx_j dx_j^T (Mavriplis 2003, AIAA 2003-3986); exact for a
// linear field whatever the samples' positions.
#pragma once

#include "kernels/cfd/state.hpp"

namespace cb::kernels::cfd {

// The symmetric 3 x 3 matrix M (or its inverse): xx, xy, xz, yy, yz, zz.
struct Symmetric3 {
  real xx, xy, xz, yy, yz, zz;
};

KOKKOS_INLINE_FUNCTION void add_sample(Symmetric3& m, const real dx[3]) {
  m.xx += dx[0] * dx[0];
  m.xy += dx[0] * dx[1];
  m.xz += dx[0] * dx[2];
  m.yy += dx[1] * dx[1];
  m.yz += dx[1] * dx[2];
  m.zz += dx[2] * dx[2];
}

// The inverse of M over the active axes (the others' rows and columns taken
// as the identity's, so their gradient is 0). False where M is singular or
// nearly so: det M below 1e-6 of the product of its diagonal (Hadamard's
// bound), the samples (nearly) on a line or a plane.
KOKKOS_INLINE_FUNCTION bool invert_normal_matrix(Symmetric3 m, const int active[3],
                                                 Symmetric3& inverse) {
  if (!active[0]) m.xx = 1, m.xy = 0, m.xz = 0;
  if (!active[1]) m.yy = 1, m.xy = 0, m.yz = 0;
  if (!active[2]) m.zz = 1, m.xz = 0, m.yz = 0;
  const real cxx = m.yy * m.zz - m.yz * m.yz, cxy = m.xz * m.yz - m.xy * m.zz,
             cxz = m.xy * m.yz - m.xz * m.yy;
  const real det = m.xx * cxx + m.xy * cxy + m.xz * cxz;
  if (!(det > real(1e-6) * m.xx * m.yy * m.zz)) return false;
  const real inv = real(1) / det;
  inverse = {cxx * inv,
             cxy * inv,
             cxz * inv,
             (m.xx * m.zz - m.xz * m.xz) * inv,
             (m.xy * m.xz - m.xx * m.yz) * inv,
             (m.xx * m.yy - m.xy * m.xy) * inv};
  return true;
}

KOKKOS_INLINE_FUNCTION void apply(const Symmetric3& m, const real r[3], real out[3]) {
  out[0] = m.xx * r[0] + m.xy * r[1] + m.xz * r[2];
  out[1] = m.xy * r[0] + m.yy * r[1] + m.yz * r[2];
  out[2] = m.xz * r[0] + m.yz * r[1] + m.zz * r[2];
}

// The gradient at a face between two cells whose values fm and fc lie dx
// apart (fc at the far end), from their cells' gradients gm and gc: the mean,
// with its derivative along dx replaced by the difference quotient,
// g = gbar + (fc - fm - gbar . dx) dx / |dx|^2 (Mathur & Murthy 1997, Numer.
// Heat Transfer B 31:195). Exact for a linear field; between two
// cells a full step h apart along the face's axis, the normal derivative is
// the compact (fc - fm) / h. inv_length2 is 1 / |dx|^2 (floored by the caller).
KOKKOS_INLINE_FUNCTION void face_gradient(const real gm[3], const real gc[3], real fm, real fc,
                                          const real dx[3], real inv_length2, real out[3]) {
  real mean[3], along = fc - fm;
  for (int d = 0; d < 3; ++d) {
    mean[d] = real(0.5) * (gm[d] + gc[d]);
    along -= mean[d] * dx[d];
  }
  for (int d = 0; d < 3; ++d) out[d] = mean[d] + along * dx[d] * inv_length2;
}

}  // namespace cb::kernels::cfd
