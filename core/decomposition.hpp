// 3-D Cartesian domain decomposition of a global grid over MPI ranks
// (docs/architecture.md, "Parallel model"). Physics-free: knows cells, ranks and periodicity only.
#pragma once

#include "core/types.hpp"

#include <mpi.h>

namespace cb {

class Decomposition {
 public:
  // Splits `global_cells` over the ranks of `comm`. `requested_dims` fixes the
  // rank grid ({0,0,0}: MPI_Dims_create chooses, never splitting an axis with
  // one cell). Uneven splits are allowed: the first (n % p) ranks along an axis
  // get one extra cell. Throws cb::InputError when the rank grid is impossible
  // (product != ranks, or more ranks than cells along an axis).
  Decomposition(MPI_Comm comm, const Int3& global_cells, const Bool3& periodic,
                const Int3& requested_dims = {0, 0, 0});
  ~Decomposition();
  Decomposition(const Decomposition&) = delete;
  Decomposition& operator=(const Decomposition&) = delete;

  MPI_Comm comm() const { return cart_comm_; }  // the Cartesian communicator
  int rank() const { return rank_; }
  int size() const { return size_; }
  const Int3& dims() const { return dims_; }      // ranks per axis
  const Int3& coords() const { return coords_; }  // this rank's position
  const Int3& global_cells() const { return global_cells_; }
  const Int3& local_cells() const { return local_cells_; }  // owned cells
  const Int3& offset() const { return offset_; }            // global index of first owned cell
  const Bool3& periodic() const { return periodic_; }

  // Rank across the low (side 0) or high (side 1) face along `axis`; MPI_PROC_NULL
  // at a non-periodic physical boundary. On a periodic axis with one rank this is
  // the rank itself.
  int neighbor(int axis, int side) const { return neighbors_[axis][side]; }
  // The neighbour as if every axis were periodic (the wrapped rank across a
  // physical boundary): for data periodic on a box with non-periodic faces,
  // such as a slab's k-space mesh.
  int wrapped_neighbor(int axis, int side) const { return wrapped_neighbors_[axis][side]; }
  bool at_physical_boundary(int axis, int side) const {
    return neighbors_[axis][side] == MPI_PROC_NULL;
  }

  // Owned-cell count and offset of the block with index `coord` along `axis`.
  static int block_size(int cells, int parts, int coord);
  static int block_offset(int cells, int parts, int coord);

 private:
  MPI_Comm cart_comm_ = MPI_COMM_NULL;
  int rank_ = 0, size_ = 1;
  Int3 dims_{1, 1, 1}, coords_{0, 0, 0};
  Int3 global_cells_{1, 1, 1}, local_cells_{1, 1, 1}, offset_{0, 0, 0};
  Bool3 periodic_{false, false, false};
  std::array<std::array<int, 2>, 3> neighbors_{};
  std::array<std::array<int, 2>, 3> wrapped_neighbors_{};
};

}  // namespace cb
