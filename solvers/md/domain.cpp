#include "solvers/md/domain.hpp"

namespace cb::md {

LocalBox make_local_box(const Params& params, const Decomposition& decomposition) {
  LocalBox b;
  for (int a = 0; a < 3; ++a) {
    b.lo[a] = params.box.lo[a];
    b.hi[a] = params.box.hi[a];
    const int cells = params.geometry.cells[a];
    const int first = decomposition.offset()[a], last = first + decomposition.local_cells()[a];
    const double length = b.hi[a] - b.lo[a];
    b.sublo[a] = first == 0 ? b.lo[a] : b.lo[a] + length * first / cells;
    b.subhi[a] = last == cells ? b.hi[a] : b.lo[a] + length * last / cells;
  }
  return b;
}

OwnerLookup::OwnerLookup(const Params& params, const Decomposition& decomposition)
    : params_(params), dims_(decomposition.dims()) {
  const int ranks = decomposition.size();
  std::vector<int> coords(3 * ranks);
  MPI_Allgather(decomposition.coords().data(), 3, MPI_INT, coords.data(), 3, MPI_INT,
                decomposition.comm());
  rank_at_.assign(ranks, 0);
  for (int r = 0; r < ranks; ++r) {
    const int* c = &coords[3 * r];
    rank_at_[c[0] + dims_[0] * (c[1] + dims_[1] * c[2])] = r;
  }
}

int OwnerLookup::coordinate(int axis, double x) const {
  const double lo = params_.box.lo[axis], length = params_.box.hi[axis] - params_.box.lo[axis];
  const int cells = params_.geometry.cells[axis];
  int c = 0;
  for (int k = 1; k < dims_[axis]; ++k) {
    const double start = lo + length * Decomposition::block_offset(cells, dims_[axis], k) / cells;
    if (x >= start) c = k;
  }
  return c;
}

int OwnerLookup::rank_of(const double x[3]) const {
  const int cx = coordinate(0, x[0]), cy = coordinate(1, x[1]), cz = coordinate(2, x[2]);
  return rank_at_[cx + dims_[0] * (cy + dims_[1] * cz)];
}

std::vector<int> OwnerLookup::ranks_of(const std::vector<double>& positions) const {
  std::vector<int> ranks(positions.size() / 3);
  for (std::size_t k = 0; k < ranks.size(); ++k) ranks[k] = rank_of(&positions[3 * k]);
  return ranks;
}

}  // namespace cb::md
