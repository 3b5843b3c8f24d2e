#include "core/decomposition.hpp"

#include "core/error.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace cb {
namespace {

constexpr const char* axis_name[3] = {"x", "y", "z"};

// MPI numbers Cartesian ranks row-major (last MPI dimension fastest). Mapping
// our axis (x, y, z) to MPI dimension (2, 1, 0) makes x the fastest-varying
// rank coordinate, the same order as the cells of a LayoutRight field.
constexpr int mpi_dim(int axis) {
  return 2 - axis;
}

std::string to_string(const Int3& v) {
  return "[" + std::to_string(v[0]) + ", " + std::to_string(v[1]) + ", " + std::to_string(v[2]) +
         "]";
}

// Checks a user-requested rank grid; zero entries are left free.
void check_requested(const Int3& requested, int ranks) {
  int fixed_product = 1;
  bool all_fixed = true;
  for (int axis = 0; axis < 3; ++axis) {
    if (requested[axis] < 0) {
      throw InputError("parallel.ranks = " + to_string(requested) +
                       ": rank counts must be positive (0 lets the code choose)");
    }
    if (requested[axis] == 0) {
      all_fixed = false;
    } else {
      fixed_product *= requested[axis];
    }
  }
  if (all_fixed ? fixed_product != ranks : ranks % fixed_product != 0) {
    throw InputError("parallel.ranks = " + to_string(requested) + " needs " +
                     (all_fixed ? std::to_string(fixed_product) + " MPI ranks"
                                : "a multiple of " + std::to_string(fixed_product) + " MPI ranks") +
                     ", but the run has " + std::to_string(ranks));
  }
}

// Rank counts per axis. Free axes with one cell are never split; the factors
// MPI_Dims_create returns (non-increasing) go to the free axes with the most
// cells first.
Int3 choose_dims(const Int3& cells, const Int3& requested, int ranks) {
  check_requested(requested, ranks);
  Int3 dims = requested;
  Int3 free_axes{};
  int free_count = 0;
  for (int axis = 0; axis < 3; ++axis) {
    if (dims[axis] != 0) continue;
    if (cells[axis] == 1) {
      dims[axis] = 1;
    } else {
      free_axes[free_count++] = axis;
    }
  }
  const int fixed_product = std::max(dims[0], 1) * std::max(dims[1], 1) * std::max(dims[2], 1);
  if (free_count == 0) {
    if (fixed_product != ranks) {
      throw InputError("grid " + to_string(cells) + " cannot be split over " +
                       std::to_string(ranks) + " MPI ranks (rank grid " + to_string(dims) + ")");
    }
    return dims;
  }
  int factors[3] = {0, 0, 0};
  MPI_Dims_create(ranks / fixed_product, free_count, factors);
  std::stable_sort(free_axes.begin(), free_axes.begin() + free_count,
                   [&cells](int a, int b) { return cells[a] > cells[b]; });
  for (int n = 0; n < free_count; ++n) dims[free_axes[n]] = factors[n];
  return dims;
}

void check_fits(const Int3& cells, const Int3& dims) {
  for (int axis = 0; axis < 3; ++axis) {
    if (dims[axis] > cells[axis]) {
      throw InputError("rank grid " + to_string(dims) + " puts " + std::to_string(dims[axis]) +
                       " ranks along " + axis_name[axis] + ", which has only " +
                       std::to_string(cells[axis]) + " cells (grid " + to_string(cells) + ")");
    }
  }
}

}  // namespace

Decomposition::Decomposition(MPI_Comm comm, const Int3& global_cells, const Bool3& periodic,
                             const Int3& requested_dims)
    : global_cells_(global_cells), periodic_(periodic) {
  int world_size = 1;
  MPI_Comm_size(comm, &world_size);
  for (int axis = 0; axis < 3; ++axis) {
    if (global_cells[axis] < 1) {
      throw InputError("grid " + to_string(global_cells) + ": every axis needs at least one cell");
    }
  }
  dims_ = choose_dims(global_cells, requested_dims, world_size);
  check_fits(global_cells, dims_);

  int mpi_dims[3], mpi_periods[3], mpi_coords[3];
  for (int axis = 0; axis < 3; ++axis) {
    mpi_dims[mpi_dim(axis)] = dims_[axis];
    mpi_periods[mpi_dim(axis)] = periodic[axis] ? 1 : 0;
  }
  MPI_Cart_create(comm, 3, mpi_dims, mpi_periods, /*reorder=*/0, &cart_comm_);
  MPI_Comm_rank(cart_comm_, &rank_);
  MPI_Comm_size(cart_comm_, &size_);
  MPI_Cart_coords(cart_comm_, rank_, 3, mpi_coords);

  for (int axis = 0; axis < 3; ++axis) {
    coords_[axis] = mpi_coords[mpi_dim(axis)];
    local_cells_[axis] = block_size(global_cells[axis], dims_[axis], coords_[axis]);
    offset_[axis] = block_offset(global_cells[axis], dims_[axis], coords_[axis]);
    MPI_Cart_shift(cart_comm_, mpi_dim(axis), 1, &neighbors_[axis][0], &neighbors_[axis][1]);
  }
  for (int axis = 0; axis < 3; ++axis) {
    for (int side = 0; side < 2; ++side) {
      int wrapped[3];
      for (int a = 0; a < 3; ++a) wrapped[mpi_dim(a)] = coords_[a];
      const int step = side == 0 ? -1 : 1;
      wrapped[mpi_dim(axis)] = (coords_[axis] + step + dims_[axis]) % dims_[axis];
      MPI_Cart_rank(cart_comm_, wrapped, &wrapped_neighbors_[axis][side]);
    }
  }
}

Decomposition::~Decomposition() {
  int finalized = 0;
  MPI_Finalized(&finalized);
  if (!finalized && cart_comm_ != MPI_COMM_NULL) MPI_Comm_free(&cart_comm_);
}

int Decomposition::block_size(int cells, int parts, int coord) {
  if (parts < 1 || coord < 0 || coord >= parts) {
    throw std::invalid_argument("Decomposition::block_size: block " + std::to_string(coord) +
                                " of " + std::to_string(parts));
  }
  return cells / parts + (coord < cells % parts ? 1 : 0);
}

// coord == parts is allowed and gives `cells`, the end of the last block.
int Decomposition::block_offset(int cells, int parts, int coord) {
  if (parts < 1 || coord < 0 || coord > parts) {
    throw std::invalid_argument("Decomposition::block_offset: block " + std::to_string(coord) +
                                " of " + std::to_string(parts));
  }
  return coord * (cells / parts) + std::min(coord, cells % parts);
}

}  // namespace cb
