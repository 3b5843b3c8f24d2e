// STL surface files (the format of 3D Systems' StereoLithography Interface
// Specification, 1989): ASCII ("solid ... facet normal ... outer loop, vertex
// x y z x3 ... endsolid") and binary (80-byte header, a uint32 count, then per
// triangle 12 float32 (normal, three vertices) and a uint16). Bodies in a CFD
// case must be closed surfaces.
#pragma once

#include <string>
#include <vector>

namespace cb::io {

// The triangles of `path`, 9 numbers each (three vertices), oriented so that
// their normals point out of the enclosed volume. Throws InputError naming
// the file when it cannot be read, is neither valid ASCII nor binary STL, has
// no triangles, or is not a closed surface: every edge shared by exactly two
// triangles that traverse it in opposite directions (vertices matched by
// exact coordinates, as STL writers repeat them).
std::vector<double> read_stl(const std::string& path);

// The volume enclosed by closed triangles (divergence theorem, positive when
// outward) and their area.
double enclosed_volume(const std::vector<double>& triangles);
double surface_area(const std::vector<double>& triangles);

}  // namespace cb::io
