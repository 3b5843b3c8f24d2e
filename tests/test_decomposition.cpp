// Cartesian decomposition: block splits, coverage of the global grid, neighbour
// symmetry and the choice of the rank grid, at whatever rank count CTest runs.
#include "core/decomposition.hpp"
#include "core/error.hpp"

#include <catch2/catch_test_macros.hpp>

#include <mpi.h>

#include <vector>

namespace {

int world_size() {
  int size = 1;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  return size;
}

int world_rank() {
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  return rank;
}

// Sum over ranks, so that every rank reaches the same verdict and no rank
// leaves a test case early while the others wait in a collective.
int global_sum(int local) {
  int total = 0;
  MPI_Allreduce(&local, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  return total;
}

// What every rank knows about its block, gathered on all ranks.
struct BlockInfo {
  int offset[3], cells[3], coords[3], low[3], high[3], cart_rank;
};

std::vector<BlockInfo> gather_blocks(const cb::Decomposition& decomposition) {
  BlockInfo mine{};
  for (int axis = 0; axis < 3; ++axis) {
    mine.offset[axis] = decomposition.offset()[axis];
    mine.cells[axis] = decomposition.local_cells()[axis];
    mine.coords[axis] = decomposition.coords()[axis];
    mine.low[axis] = decomposition.neighbor(axis, 0);
    mine.high[axis] = decomposition.neighbor(axis, 1);
  }
  MPI_Comm_rank(decomposition.comm(), &mine.cart_rank);
  const int ints = sizeof(BlockInfo) / sizeof(int);
  std::vector<BlockInfo> all(world_size());
  MPI_Allgather(&mine, ints, MPI_INT, all.data(), ints, MPI_INT, MPI_COMM_WORLD);
  return all;
}

// Cells of the global grid not owned by exactly one rank.
int coverage_errors(const std::vector<BlockInfo>& blocks, const cb::Int3& global) {
  std::vector<int> owners(std::size_t(global[0]) * global[1] * global[2], 0);
  for (const BlockInfo& b : blocks) {
    for (int k = b.offset[2]; k < b.offset[2] + b.cells[2]; ++k)
      for (int j = b.offset[1]; j < b.offset[1] + b.cells[1]; ++j)
        for (int i = b.offset[0]; i < b.offset[0] + b.cells[0]; ++i)
          ++owners[(std::size_t(k) * global[1] + j) * global[0] + i];
  }
  int errors = 0;
  for (int count : owners) errors += count != 1;
  return errors;
}

// Neighbours that are not the block next door (with periodic wrap), or whose
// opposite neighbour is not this rank.
int neighbor_errors(const std::vector<BlockInfo>& blocks, const cb::Int3& dims,
                    const cb::Bool3& periodic) {
  int errors = 0;
  for (int rank = 0; rank < int(blocks.size()); ++rank) {
    const BlockInfo& b = blocks[rank];
    for (int axis = 0; axis < 3; ++axis) {
      const bool last = b.coords[axis] == dims[axis] - 1;
      if (!periodic[axis]) {
        errors += (b.coords[axis] == 0) != (b.low[axis] == MPI_PROC_NULL);
        errors += last != (b.high[axis] == MPI_PROC_NULL);
        if (last) continue;
      }
      if (b.high[axis] < 0 || b.high[axis] >= int(blocks.size())) {
        ++errors;
        continue;
      }
      const BlockInfo& next = blocks[b.high[axis]];
      errors += next.low[axis] != rank;
      errors += next.coords[axis] != (b.coords[axis] + 1) % dims[axis];
      errors += next.offset[axis] != (last ? 0 : b.offset[axis] + b.cells[axis]);
    }
  }
  return errors;
}

// Whether `ranks` factors as px * py * pz with no more ranks than cells per axis.
bool some_rank_grid_fits(int ranks, const cb::Int3& global) {
  for (int px = 1; px <= global[0]; ++px) {
    for (int py = 1; py <= global[1]; ++py) {
      if (ranks % (px * py) == 0 && ranks / (px * py) <= global[2]) return true;
    }
  }
  return false;
}

void check_decomposition(const cb::Int3& global, const cb::Bool3& periodic) {
  const int size = world_size();
  if (!some_rank_grid_fits(size, global)) {
    // e.g. 5 or 7 ranks on 3 x 3 x 3 cells: no split exists.
    CHECK_THROWS_AS(cb::Decomposition(MPI_COMM_WORLD, global, periodic), cb::InputError);
    return;
  }
  cb::Decomposition decomposition(MPI_COMM_WORLD, global, periodic);
  const cb::Int3& dims = decomposition.dims();
  INFO("grid " << global[0] << "x" << global[1] << "x" << global[2] << ", periodic " << periodic[0]
               << periodic[1] << periodic[2] << ", rank grid " << dims[0] << "x" << dims[1] << "x"
               << dims[2] << " on " << size << " ranks");
  CHECK(dims[0] * dims[1] * dims[2] == size);
  CHECK(decomposition.size() == size);
  CHECK(decomposition.rank() == world_rank());
  for (int axis = 0; axis < 3; ++axis) {
    if (global[axis] == 1) CHECK(dims[axis] == 1);
    CHECK(dims[axis] <= global[axis]);
    for (int other = 0; other < 3; ++other) {
      if (global[axis] > global[other] && global[other] > 1) CHECK(dims[axis] >= dims[other]);
    }
    const int coord = decomposition.coords()[axis];
    CHECK(decomposition.local_cells()[axis] ==
          cb::Decomposition::block_size(global[axis], dims[axis], coord));
    CHECK(decomposition.offset()[axis] ==
          cb::Decomposition::block_offset(global[axis], dims[axis], coord));
    if (periodic[axis] && dims[axis] == 1) {
      CHECK(decomposition.neighbor(axis, 0) == decomposition.rank());
      CHECK(decomposition.neighbor(axis, 1) == decomposition.rank());
    }
  }
  // x varies fastest in the rank numbering.
  const cb::Int3& c = decomposition.coords();
  CHECK(decomposition.rank() == c[0] + dims[0] * (c[1] + dims[1] * c[2]));

  const std::vector<BlockInfo> blocks = gather_blocks(decomposition);
  CHECK(coverage_errors(blocks, global) == 0);
  CHECK(neighbor_errors(blocks, dims, periodic) == 0);
  for (int rank = 0; rank < size; ++rank) CHECK(blocks[rank].cart_rank == rank);
}

}  // namespace

TEST_CASE("block_size and block_offset split cells with the remainder first", "[decomposition]") {
  for (int parts = 1; parts <= 8; ++parts) {
    for (int cells : {parts, parts + 1, 2 * parts - 1, 17, 100, 1000}) {
      if (cells < parts) continue;
      INFO(cells << " cells in " << parts << " parts");
      int total = 0;
      for (int coord = 0; coord < parts; ++coord) {
        const int size = cb::Decomposition::block_size(cells, parts, coord);
        CHECK(cb::Decomposition::block_offset(cells, parts, coord) == total);
        CHECK(size == cells / parts + (coord < cells % parts ? 1 : 0));
        total += size;
      }
      CHECK(total == cells);
      CHECK(cb::Decomposition::block_offset(cells, parts, parts) == cells);
    }
  }
  CHECK(cb::Decomposition::block_size(10, 4, 0) == 3);
  CHECK(cb::Decomposition::block_size(10, 4, 1) == 3);
  CHECK(cb::Decomposition::block_size(10, 4, 2) == 2);
  CHECK(cb::Decomposition::block_offset(10, 4, 3) == 8);
}

TEST_CASE("every cell has exactly one owner and neighbours agree", "[decomposition][mpi]") {
  const cb::Int3 grids[] = {{17, 1, 1},    {1, 1, 17}, {8, 8, 1}, {9, 7, 5},
                            {400, 1, 200}, {3, 3, 3},  {5, 12, 1}};
  const cb::Bool3 flags[] = {{false, false, false}, {true, true, true}, {true, false, true}};
  for (const cb::Int3& grid : grids) {
    for (const cb::Bool3& periodic : flags) check_decomposition(grid, periodic);
  }
}

TEST_CASE("longer axes get more ranks", "[decomposition][mpi]") {
  const int size = world_size();
  cb::Decomposition slab(MPI_COMM_WORLD, {400, 1, 200}, {false, false, false});
  CHECK(slab.dims()[1] == 1);
  CHECK(slab.dims()[0] >= slab.dims()[2]);
  if (size == 2 || size == 3) CHECK(slab.dims() == cb::Int3{size, 1, 1});
  if (size == 4) CHECK(slab.dims() == cb::Int3{2, 1, 2});
  cb::Decomposition column(MPI_COMM_WORLD, {1, 1, 64}, {true, true, false});
  CHECK(column.dims() == cb::Int3{1, 1, size});
}

TEST_CASE("requested rank grids are honoured", "[decomposition][mpi]") {
  const int size = world_size();
  for (const cb::Int3& requested :
       {cb::Int3{size, 1, 1}, cb::Int3{1, size, 1}, cb::Int3{1, 1, size}, cb::Int3{0, 1, 0}}) {
    cb::Decomposition decomposition(MPI_COMM_WORLD, {8, 8, 8}, {false, true, false}, requested);
    for (int axis = 0; axis < 3; ++axis) {
      if (requested[axis] != 0) CHECK(decomposition.dims()[axis] == requested[axis]);
    }
    const std::vector<BlockInfo> blocks = gather_blocks(decomposition);
    CHECK(coverage_errors(blocks, {8, 8, 8}) == 0);
  }
}

TEST_CASE("impossible rank grids are bad input", "[decomposition][mpi]") {
  const int size = world_size();
  const cb::Bool3 open{false, false, false};
  auto decompose = [](cb::Int3 cells, cb::Bool3 periodic, cb::Int3 requested) {
    cb::Decomposition decomposition(MPI_COMM_WORLD, cells, periodic, requested);
  };
  CHECK_THROWS_AS(decompose({8, 8, 8}, open, {size + 1, 1, 1}), cb::InputError);
  CHECK_THROWS_AS(decompose({8, 8, 8}, open, {-1, 1, 1}), cb::InputError);
  CHECK_THROWS_AS(decompose({8, 8, 8}, open, {size + 1, 0, 0}), cb::InputError);
  CHECK_THROWS_AS(decompose({0, 8, 8}, open, {0, 0, 0}), cb::InputError);
  if (size > 1) {
    // More ranks than cells, requested or chosen.
    CHECK_THROWS_AS(decompose({1, 8, 8}, open, {size, 1, 1}), cb::InputError);
    CHECK_THROWS_AS(decompose({1, 1, 1}, open, {0, 0, 0}), cb::InputError);
    CHECK_THROWS_AS(decompose({size - 1, 1, 1}, open, {0, 0, 0}), cb::InputError);
  }
  CHECK(global_sum(1) == size);  // every rank is still in step
}
