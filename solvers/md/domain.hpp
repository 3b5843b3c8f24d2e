// The spatial decomposition of the MD box (Plimpton 1995): the sub-box each
// rank owns, cut along the grid of Params::geometry that the Cartesian
// decomposition of core/decomposition.hpp splits, and which rank owns a point.
#pragma once

#include "core/decomposition.hpp"
#include "solvers/md/atoms.hpp"
#include "solvers/md/params.hpp"

#include <vector>

namespace cb::md {

// This rank's sub-box and the whole periodic box.
LocalBox make_local_box(const Params& params, const Decomposition& decomposition);

class OwnerLookup {
 public:
  // Collective: gathers every rank's coordinates in the rank grid.
  OwnerLookup(const Params& params, const Decomposition& decomposition);

  // The rank whose sub-box holds `x` (clamped at the box ends: between
  // rebuilds an atom may sit slightly outside, as in LAMMPS).
  int rank_of(const double x[3]) const;
  // rank_of for every point of `positions` (3 per point).
  std::vector<int> ranks_of(const std::vector<double>& positions) const;

 private:
  int coordinate(int axis, double x) const;

  const Params& params_;
  Int3 dims_;
  std::vector<int> rank_at_;  // rank by coordinates (cx + dims_x (cy + dims_y cz))
};

}  // namespace cb::md
