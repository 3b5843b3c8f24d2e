// The [[geometry]] tables of a CFD case (docs/solvers/cfd.md, geometry):
// shapes placed, turned and scaled, combined into bodies, and what `check`
// says about them on the case's grid.
#pragma once

#include "core/types.hpp"
#include "io/case_file.hpp"
#include "solvers/cfd/cut_cells.hpp"

#include <string>
#include <vector>

namespace cb::cfd {

// Reads every [[geometry]] table in order. A table with `combine = "new"`
// (the default) starts a body; "union", "intersect" and "subtract" combine
// its shape with the body before it. Throws InputError naming the table and
// key for an unknown shape, a bad parameter, an unreadable or open STL file,
// and bodies that leave no fluid or lie wholly outside the domain.
BodyProgram read_geometry(io::CaseFile& file, const GridGeometry& grid);

// "# geometry: ..." lines for `check`: the bodies, the fluid volume and its
// fraction of the domain, the wetted area and the smallest cut-cell fraction
// on the case's grid (evaluated on this process alone).
std::vector<std::string> describe_geometry(const BodyProgram& bodies, const GridGeometry& grid);

}  // namespace cb::cfd
