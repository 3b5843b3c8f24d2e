// Point probes of the CFD solver (docs/solvers/cfd.md §4, [probes]): a point of
// the flow is sampled at one cell, the same cell on every rank layout, so what
// a probe reads is bitwise the same on any number of ranks.
#pragma once

#include "core/local_grid.hpp"
#include "solvers/cfd/cut_cells.hpp"

#include <mpi.h>

namespace cb::cfd {

struct ProbeCell {
  bool owned = false;       // by this rank
  int k = 0, j = 0, i = 0;  // padded indices on the owner
};

// Of the owned cells whose fluid fraction is at least one half (every cell
// without bodies: `fraction` empty), the one whose centre is nearest `point`;
// among equals the lowest global index (collective).
ProbeCell locate_probe(const Real3& point, const LocalGrid& grid, const Int3& local_cells,
                       const Int3& ghost, const NodeView& fraction, MPI_Comm comm);

// Component `c` of `field` in the probe's cell, on every rank (collective).
double probe_value(const Field& field, int c, const ProbeCell& probe, MPI_Comm comm);

// Component `c` of `field` at `point` with bodies: the probe cell's value (at
// its fluid's centroid) carried to the point along the least-squares gradient
// of its joined neighbours' values at their centroids (cut_gradients.hpp),
// exact for a linear field where the nearest cell's value is off by O(h); the
// cell's value where the fit is singular. On every rank (collective; ghosts
// filled).
double probe_at_point(const Field& field, int c, const ProbeCell& probe, const Real3& point,
                      const CutCells& cut, const LocalGrid& grid, const Int3& active,
                      MPI_Comm comm);

}  // namespace cb::cfd
