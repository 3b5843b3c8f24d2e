// Bodies in the flow as implicit functions (docs/solvers/cfd.md, geometry):
// phi(x) < 0 inside the body (solid), > 0 in the fluid, the signed distance
// for the primitives where it has a closed form. A body is a small program in
// postfix order: each primitive pushes its phi, each set operation pops two
// and pushes one (union min, intersection max, difference max(a, -b)), so the
// whole tree evaluates on a device from a flat array without recursion.
// Triangulated surfaces (STL) are one more primitive: distance to the nearest
// triangle, inside where the winding number exceeds 1/2.
#pragma once

#include "core/kokkos_compat.hpp"

#include <Kokkos_Core.hpp>

namespace cb::kernels::cfd {

enum class ShapeKind : int {
  sphere,      // radius
  cylinder,    // radius, half-length (0: infinite), along local z
  box,         // half-sizes x, y, z
  half_space,  // local z < 0
  cone,        // base radius at z = 0, apex height along +z
  torus,       // major radius, minor radius, in the local xy plane
  surface,     // triangles [first, first + count) of the mesh array
  unite,       // set operations on the two values on top of the stack
  intersect,
  subtract,  // (second from top) minus (top)
};

// One instruction. Primitives carry the map world -> local frame, x_local =
// rotation^T (x - translation) / scale, and phi_world = scale phi_local.
struct ShapeNode {
  ShapeKind kind = ShapeKind::sphere;
  double rotation[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1};  // row-major, columns = local axes
  double translation[3] = {0, 0, 0};
  double scale = 1.0;
  double p[3] = {0, 0, 0};                // the shape's parameters (above)
  int first = 0, count = 0;               // surface: its triangles
  double bounds[6] = {0, 0, 0, 0, 0, 0};  // surface: lo and hi of its triangles' box
};

constexpr int shape_stack_depth = 16;

KOKKOS_INLINE_FUNCTION double norm3(double x, double y, double z) {
  return cb::math::sqrt(x * x + y * y + z * z);
}

// |(a, b)|, and the length of the positive parts of (a, b, c).
KOKKOS_INLINE_FUNCTION double outside_length(double a, double b, double c) {
  return norm3(cb::math::max(a, 0.0), cb::math::max(b, 0.0), cb::math::max(c, 0.0));
}

KOKKOS_INLINE_FUNCTION double sphere_phi(const double x[3], double radius) {
  return norm3(x[0], x[1], x[2]) - radius;
}

// Along z; infinite when half_length <= 0 (a 2-D body in an x-y flow).
KOKKOS_INLINE_FUNCTION double cylinder_phi(const double x[3], double radius, double half_length) {
  const double radial = cb::math::sqrt(x[0] * x[0] + x[1] * x[1]) - radius;
  if (half_length <= 0.0) return radial;
  const double axial = cb::math::fabs(x[2]) - half_length;
  return cb::math::min(cb::math::max(radial, axial), 0.0) + outside_length(radial, axial, 0.0);
}

KOKKOS_INLINE_FUNCTION double box_phi(const double x[3], const double half[3]) {
  const double q0 = cb::math::fabs(x[0]) - half[0];
  const double q1 = cb::math::fabs(x[1]) - half[1];
  const double q2 = cb::math::fabs(x[2]) - half[2];
  return outside_length(q0, q1, q2) + cb::math::min(cb::math::max(q0, cb::math::max(q1, q2)), 0.0);
}

// A right circular cone, base of radius r in z = 0, apex at z = h: the
// distance to the slanted surface, (rho h - r (h - z)) / sqrt(h^2 + r^2),
// bounded by the base plane (an implicit function whose zero set is the cone;
// the distance itself near the surfaces, which is what the cut cells use).
KOKKOS_INLINE_FUNCTION double cone_phi(const double x[3], double radius, double height) {
  const double rho = cb::math::sqrt(x[0] * x[0] + x[1] * x[1]);
  const double slant =
      (rho * height - radius * (height - x[2])) / cb::math::sqrt(height * height + radius * radius);
  return cb::math::max(slant, -x[2]);
}

KOKKOS_INLINE_FUNCTION double torus_phi(const double x[3], double major, double minor) {
  const double ring = cb::math::sqrt(x[0] * x[0] + x[1] * x[1]) - major;
  return cb::math::sqrt(ring * ring + x[2] * x[2]) - minor;
}

// Squared distance from p to the segment a-b.
KOKKOS_INLINE_FUNCTION double segment_distance2(const double p[3], const double a[3],
                                                const double b[3]) {
  double ab[3], ap[3];
  for (int d = 0; d < 3; ++d) ab[d] = b[d] - a[d], ap[d] = p[d] - a[d];
  const double length2 = ab[0] * ab[0] + ab[1] * ab[1] + ab[2] * ab[2];
  double t = length2 > 0.0 ? (ap[0] * ab[0] + ap[1] * ab[1] + ap[2] * ab[2]) / length2 : 0.0;
  t = cb::math::clamp(t, 0.0, 1.0);
  double d2 = 0.0;
  for (int d = 0; d < 3; ++d) d2 += (ap[d] - t * ab[d]) * (ap[d] - t * ab[d]);
  return d2;
}

// Squared distance from p to the triangle (a, b, c): to its plane when the
// projection falls inside (all three edge tests agree with the normal), else
// to the nearest edge.
KOKKOS_INLINE_FUNCTION double triangle_distance2(const double p[3], const double* t) {
  const double* a = t;
  const double* b = t + 3;
  const double* c = t + 6;
  double e0[3], e1[3], n[3], ap[3];
  for (int d = 0; d < 3; ++d) e0[d] = b[d] - a[d], e1[d] = c[d] - a[d], ap[d] = p[d] - a[d];
  n[0] = e0[1] * e1[2] - e0[2] * e1[1];
  n[1] = e0[2] * e1[0] - e0[0] * e1[2];
  n[2] = e0[0] * e1[1] - e0[1] * e1[0];
  const double n2 = n[0] * n[0] + n[1] * n[1] + n[2] * n[2];
  bool inside = n2 > 0.0;
  const double* corner[3] = {a, b, c};
  for (int e = 0; e < 3 && inside; ++e) {
    const double* u = corner[e];
    const double* v = corner[(e + 1) % 3];
    double uv[3], up[3];
    for (int d = 0; d < 3; ++d) uv[d] = v[d] - u[d], up[d] = p[d] - u[d];
    const double side = n[0] * (uv[1] * up[2] - uv[2] * up[1]) +
                        n[1] * (uv[2] * up[0] - uv[0] * up[2]) +
                        n[2] * (uv[0] * up[1] - uv[1] * up[0]);
    inside = side >= 0.0;
  }
  if (inside) {
    const double h = ap[0] * n[0] + ap[1] * n[1] + ap[2] * n[2];
    return h * h / n2;
  }
  return cb::math::min(segment_distance2(p, a, b),
                       cb::math::min(segment_distance2(p, b, c), segment_distance2(p, c, a)));
}

// The solid angle of triangle (a, b, c) seen from p, signed by its
// orientation (Van Oosterom & Strackee 1983, IEEE Trans. Biomed. Eng. 30:125).
KOKKOS_INLINE_FUNCTION double solid_angle(const double p[3], const double* t) {
  double r[3][3], length[3];
  for (int v = 0; v < 3; ++v) {
    for (int d = 0; d < 3; ++d) r[v][d] = t[3 * v + d] - p[d];
    length[v] = norm3(r[v][0], r[v][1], r[v][2]);
  }
  const double triple = r[0][0] * (r[1][1] * r[2][2] - r[1][2] * r[2][1]) +
                        r[0][1] * (r[1][2] * r[2][0] - r[1][0] * r[2][2]) +
                        r[0][2] * (r[1][0] * r[2][1] - r[1][1] * r[2][0]);
  double dot[3];  // r0.r1, r1.r2, r2.r0
  for (int v = 0; v < 3; ++v) {
    const int w = (v + 1) % 3;
    dot[v] = r[v][0] * r[w][0] + r[v][1] * r[w][1] + r[v][2] * r[w][2];
  }
  const double denominator = length[0] * length[1] * length[2] + dot[0] * length[2] +
                             dot[1] * length[0] + dot[2] * length[1];
  return 2.0 * cb::math::atan2(triple, denominator);
}

// A closed, outward-oriented triangle mesh (9 numbers per triangle): minus
// the distance inside (winding number > 1/2), plus it outside. Further than
// a tenth of its box's diagonal outside the box, the distance to the box (a
// lower bound with the right sign) saves visiting every triangle; cut cells
// need exact values only within a cell of the surface, so cells up to 1/17
// of the body's size get them.
KOKKOS_INLINE_FUNCTION double surface_phi(const double x[3], const double* triangles, int count,
                                          const double bounds[6]) {
  const double size = norm3(bounds[3] - bounds[0], bounds[4] - bounds[1], bounds[5] - bounds[2]);
  const double to_box = outside_length(cb::math::max(bounds[0] - x[0], x[0] - bounds[3]),
                                       cb::math::max(bounds[1] - x[1], x[1] - bounds[4]),
                                       cb::math::max(bounds[2] - x[2], x[2] - bounds[5]));
  if (to_box > 0.1 * size) return to_box;
  double nearest2 = 1e300, winding = 0.0;
  for (int t = 0; t < count; ++t) {
    nearest2 = cb::math::min(nearest2, triangle_distance2(x, triangles + 9 * t));
    winding += solid_angle(x, triangles + 9 * t);
  }
  const double distance = cb::math::sqrt(nearest2);
  return winding > 2.0 * cb::math::pi ? -distance : distance;
}

KOKKOS_INLINE_FUNCTION double primitive_phi(const ShapeNode& node, const double world[3],
                                            const double* triangles) {
  double shifted[3], x[3];
  for (int d = 0; d < 3; ++d) shifted[d] = world[d] - node.translation[d];
  for (int d = 0; d < 3; ++d) {
    x[d] = (node.rotation[d] * shifted[0] + node.rotation[3 + d] * shifted[1] +
            node.rotation[6 + d] * shifted[2]) /
           node.scale;
  }
  double phi = 0.0;
  switch (node.kind) {
    case ShapeKind::sphere:
      phi = sphere_phi(x, node.p[0]);
      break;
    case ShapeKind::cylinder:
      phi = cylinder_phi(x, node.p[0], node.p[1]);
      break;
    case ShapeKind::box:
      phi = box_phi(x, node.p);
      break;
    case ShapeKind::half_space:
      phi = x[2];
      break;
    case ShapeKind::cone:
      phi = cone_phi(x, node.p[0], node.p[1]);
      break;
    case ShapeKind::torus:
      phi = torus_phi(x, node.p[0], node.p[1]);
      break;
    default:
      phi = surface_phi(x, triangles + 9 * node.first, node.count, node.bounds);
      break;
  }
  return node.scale * phi;
}

// phi of the program nodes[0, count) at x (world coordinates). With no nodes,
// everything is fluid.
KOKKOS_INLINE_FUNCTION double body_phi(const ShapeNode* nodes, int count, const double* triangles,
                                       const double x[3]) {
  double stack[shape_stack_depth];
  stack[0] = 1e300;  // no nodes: everything is fluid
  int top = 0;
  for (int n = 0; n < count; ++n) {
    const ShapeNode& node = nodes[n];
    if (node.kind == ShapeKind::unite || node.kind == ShapeKind::intersect ||
        node.kind == ShapeKind::subtract) {
      const double b = stack[--top];
      const double a = stack[top - 1];
      stack[top - 1] = node.kind == ShapeKind::unite       ? cb::math::min(a, b)
                       : node.kind == ShapeKind::intersect ? cb::math::max(a, b)
                                                           : cb::math::max(a, -b);
    } else {
      stack[top++] = primitive_phi(node, x, triangles);
    }
  }
  return stack[0];
}

}  // namespace cb::kernels::cfd
