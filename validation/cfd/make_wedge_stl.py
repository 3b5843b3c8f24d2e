#!/usr/bin/env python3
"""Writes the 15-degree wedge of cases/cfd/stl_wedge_mach2p5.toml as an ASCII STL.

The body is a prism along z (from z = -1 to 2, beyond the case's one cell layer)
whose cross-section is the quadrilateral below the line y = (x - 0.2) tan 15 deg,
from x = -0.3 to 1.5 and down to y = -0.5. Inside the case's domain [0, 1] x [0, 0.5]
it is the wedge of the half_space test (tests/test_cfd_cut_cells.cpp) with its
leading edge at (0.2, 0): the solid is 0.5 (0.8)^2 tan 15 deg of the domain's
area and the wetted surface 0.8 / cos 15 deg per unit depth, exactly.

Usage: validation/cfd/make_wedge_stl.py > cases/cfd/wedge_15deg.stl
"""
import math
import sys


def wedge_section(angle_deg=15.0, leading_edge=0.2, start=-0.3, end=1.5, bottom=-0.5):
    """The cross-section's corners, counter-clockwise seen from +z."""
    slope = math.tan(math.radians(angle_deg))
    return [
        (start, (start - leading_edge) * slope),
        (start, bottom),
        (end, bottom),
        (end, (end - leading_edge) * slope),
    ]


def prism_triangles(section, z0=-1.0, z1=2.0):
    """Triangles of the closed prism, each counter-clockwise seen from outside."""
    low = [(x, y, z0) for x, y in section]
    high = [(x, y, z1) for x, y in section]
    n = len(section)
    triangles = []
    for i in range(1, n - 1):
        triangles.append((high[0], high[i], high[i + 1]))  # top cap, normal +z
        triangles.append((low[0], low[i + 1], low[i]))  # bottom cap, normal -z
    for i in range(n):
        j = (i + 1) % n  # side face of edge i -> j, normal (dy, -dx, 0): outward
        triangles.append((low[i], low[j], high[j]))
        triangles.append((low[i], high[j], high[i]))
    return triangles


def normal(t):
    u = [t[1][d] - t[0][d] for d in range(3)]
    v = [t[2][d] - t[0][d] for d in range(3)]
    n = [u[1] * v[2] - u[2] * v[1], u[2] * v[0] - u[0] * v[2], u[0] * v[1] - u[1] * v[0]]
    length = math.sqrt(sum(c * c for c in n))
    return [c / length for c in n]


def write_ascii(triangles, out):
    out.write("solid wedge_15deg\n")
    for t in triangles:
        out.write("  facet normal %.17g %.17g %.17g\n    outer loop\n" % tuple(normal(t)))
        for vertex in t:
            out.write("      vertex %.17g %.17g %.17g\n" % vertex)
        out.write("    endloop\n  endfacet\n")
    out.write("endsolid wedge_15deg\n")


if __name__ == "__main__":
    write_ascii(prism_triangles(wedge_section()), sys.stdout)
