// Halo exchange: every ghost cell with a source (a neighbour's owned cell or a
// periodic image) receives the owner's value, edges and corners included;
// ghosts at physical boundaries are left alone. Runs at 1, 2 and 4 ranks.
#include "core/decomposition.hpp"
#include "core/error.hpp"
#include "core/halo.hpp"

#include <catch2/catch_test_macros.hpp>

#include <mpi.h>

#include <cstdint>
#include <cstdlib>
#include <stdexcept>
#include <string>

namespace {

// Differs between ranks, so that a physical-boundary ghost filled from a
// neighbour's ghost (instead of being left alone) is caught.
cb::real sentinel() {
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  return cb::real(-1 - rank);
}

// A unique, exactly representable (also in float) value per component, cell
// and fill round: cells < 64 per axis, components < 8, round < 4.
cb::real cell_value(int round, int component, int gi, int gj, int gk) {
  return cb::real(1 + component + 8 * (gi + 64 * (gj + 64 * gk)) + (1 << 21) * round);
}

int global_sum(int local) {
  int total = 0;
  MPI_Allreduce(&local, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  return total;
}

cb::Field make_field(const cb::Decomposition& decomposition, const cb::Int3& ghost,
                     int components) {
  const cb::Int3& n = decomposition.local_cells();
  return cb::Field("test::halo::field", components, n[2] + 2 * ghost[2], n[1] + 2 * ghost[1],
                   n[0] + 2 * ghost[0]);
}

// Global index of local (ghosted) index `local` along `axis`, wrapped on a
// periodic axis; -1 where no cell exists (beyond a physical boundary).
int source_index(const cb::Decomposition& decomposition, const cb::Int3& ghost, int axis,
                 int local) {
  const int n = decomposition.global_cells()[axis];
  int global = decomposition.offset()[axis] + local - ghost[axis];
  if (global >= 0 && global < n) return global;
  if (!decomposition.periodic()[axis]) return -1;
  return (global + n) % n;
}

bool is_owned(const cb::Decomposition& decomposition, const cb::Int3& ghost, int axis, int local) {
  return local >= ghost[axis] && local < ghost[axis] + decomposition.local_cells()[axis];
}

// Owned cells get cell_value, ghost cells the sentinel.
void fill(const cb::Field& field, const cb::Decomposition& decomposition, const cb::Int3& ghost,
          int round) {
  auto host = Kokkos::create_mirror_view(field);
  const cb::real boundary = sentinel();
  for (int c = 0; c < int(host.extent(0)); ++c)
    for (int k = 0; k < int(host.extent(1)); ++k)
      for (int j = 0; j < int(host.extent(2)); ++j)
        for (int i = 0; i < int(host.extent(3)); ++i) {
          const bool owned = is_owned(decomposition, ghost, 0, i) &&
                             is_owned(decomposition, ghost, 1, j) &&
                             is_owned(decomposition, ghost, 2, k);
          host(c, k, j, i) = owned ? cell_value(round, c, source_index(decomposition, ghost, 0, i),
                                                source_index(decomposition, ghost, 1, j),
                                                source_index(decomposition, ghost, 2, k))
                                   : boundary;
        }
  Kokkos::deep_copy(field, host);
}

// Cells (owned or ghost) that do not hold their source's value, or the
// sentinel where there is no source. Summed over all ranks.
int wrong_cells(const cb::Field& field, const cb::Decomposition& decomposition,
                const cb::Int3& ghost, int round) {
  auto host = Kokkos::create_mirror_view(field);
  Kokkos::deep_copy(host, field);
  const cb::real boundary = sentinel();
  int wrong = 0;
  for (int c = 0; c < int(host.extent(0)); ++c)
    for (int k = 0; k < int(host.extent(1)); ++k)
      for (int j = 0; j < int(host.extent(2)); ++j)
        for (int i = 0; i < int(host.extent(3)); ++i) {
          const int gi = source_index(decomposition, ghost, 0, i);
          const int gj = source_index(decomposition, ghost, 1, j);
          const int gk = source_index(decomposition, ghost, 2, k);
          const bool has_source = gi >= 0 && gj >= 0 && gk >= 0;
          const cb::real expected = has_source ? cell_value(round, c, gi, gj, gk) : boundary;
          wrong += host(c, k, j, i) != expected;
        }
  return global_sum(wrong);
}

void check_exchange(const cb::Int3& grid, const cb::Bool3& periodic, int width, bool gpu_aware) {
  cb::Decomposition decomposition(MPI_COMM_WORLD, grid, periodic);
  cb::HaloExchange halo(decomposition, width, 3, cb::CommOptions{gpu_aware});
  const cb::Int3 ghost = halo.ghost();
  INFO("grid " << grid[0] << "x" << grid[1] << "x" << grid[2] << ", periodic " << periodic[0]
               << periodic[1] << periodic[2] << ", halo " << width << ", gpu_aware_mpi "
               << gpu_aware);
  CHECK(ghost == cb::ghost_widths(grid, width));
  CHECK(halo.halo() == width);

  cb::Field field = make_field(decomposition, ghost, 3);
  fill(field, decomposition, ghost, 0);
  halo.exchange(field);
  CHECK(wrong_cells(field, decomposition, ghost, 0) == 0);

  // Again with new values: the exchange is reusable.
  fill(field, decomposition, ghost, 1);
  halo.exchange(field);
  halo.exchange(field);
  CHECK(wrong_cells(field, decomposition, ghost, 1) == 0);

  // A field with fewer components than the exchange was built for.
  cb::Field pair = make_field(decomposition, ghost, 2);
  fill(pair, decomposition, ghost, 2);
  halo.exchange(pair);
  CHECK(wrong_cells(pair, decomposition, ghost, 2) == 0);
}

// Device buffers can go to MPI directly when this build and MPI can take them
// (always on host backends; on GPUs when the MPI says so or
// CLOUDBURST_MPI_GPU_AWARE=1).
bool can_test_gpu_aware_mpi() {
  return cb::gpu_aware_mpi_refusal().empty();
}

// Counts Kokkos allocations while installed (a Kokkos Tools callback).
std::int64_t allocations = 0;
void count_allocation(Kokkos::Tools::SpaceHandle, const char*, const void*, std::uint64_t) {
  ++allocations;
}

}  // namespace

TEST_CASE("halo exchange fills faces, edges and corners", "[halo][mpi]") {
  const cb::Int3 grids[] = {{24, 1, 1}, {12, 10, 1}, {12, 1, 10}, {10, 9, 8}};
  const cb::Bool3 flags[] = {{false, false, false}, {true, true, true}, {true, false, true}};
  for (int width = 1; width <= 3; ++width)
    for (const cb::Int3& grid : grids)
      for (const cb::Bool3& periodic : flags)
        for (bool gpu_aware : {false, true}) {
          if (!gpu_aware || can_test_gpu_aware_mpi())
            check_exchange(grid, periodic, width, gpu_aware);
        }
}

TEST_CASE("halo exchange counts its messages by the path they took", "[halo][mpi]") {
  cb::Decomposition decomposition(MPI_COMM_WORLD, {12, 10, 1}, {true, true, false});
  const cb::Int3 ghost = cb::ghost_widths(decomposition.global_cells(), 2);
  for (bool gpu_aware : {false, true}) {
    if (gpu_aware && !can_test_gpu_aware_mpi()) continue;
    cb::ExchangeCounters counters;
    cb::HaloExchange halo(decomposition, 2, 2, cb::CommOptions{gpu_aware, &counters});
    cb::Field field = make_field(decomposition, ghost, 2);
    fill(field, decomposition, ghost, 2);
    halo.exchange(field);
    CHECK(wrong_cells(field, decomposition, ghost, 2) == 0);
    // A rank talks to itself through periodic copies, not MPI: only neighbours
    // on other ranks are messages, two per exchanged axis.
    long long expected = 0;
    for (int axis = 0; axis < 2; ++axis)
      if (decomposition.neighbor(axis, 0) != decomposition.rank()) expected += 2;
    CHECK((gpu_aware ? counters.device_messages : counters.staged_messages) == expected);
    CHECK((gpu_aware ? counters.staged_messages : counters.device_messages) == 0);
  }
}

TEST_CASE("halo exchange allocates nothing", "[halo][mpi]") {
  cb::Decomposition decomposition(MPI_COMM_WORLD, {10, 9, 8}, {true, false, true});
  cb::HaloExchange halo(decomposition, 2, 2);
  cb::Field field = make_field(decomposition, halo.ghost(), 2);
  fill(field, decomposition, halo.ghost(), 0);

  allocations = 0;
  Kokkos::Tools::Experimental::set_allocate_data_callback(count_allocation);
  { cb::Field probe("test::halo::probe", 1, 1, 1, 1); }
  const std::int64_t probe_allocations = allocations;
  halo.exchange(field);
  halo.exchange(field);
  Kokkos::Tools::Experimental::set_allocate_data_callback(nullptr);

  CHECK(wrong_cells(field, decomposition, halo.ghost(), 0) == 0);
  if (probe_allocations == 0) SKIP("this Kokkos reports allocations only to a loaded tool");
  CHECK(allocations == probe_allocations);
}

TEST_CASE("halo exchange rejects fields and widths it cannot serve", "[halo][mpi]") {
  int size = 1;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  cb::Decomposition decomposition(MPI_COMM_WORLD, {8, 6, 1}, {true, true, false});
  cb::HaloExchange halo(decomposition, 1, 2);
  CHECK_THROWS_AS(halo.exchange(make_field(decomposition, halo.ghost(), 3)), std::invalid_argument);
  CHECK_THROWS_AS(halo.exchange(make_field(decomposition, {2, 2, 0}, 2)), std::invalid_argument);
  CHECK_THROWS_AS(cb::HaloExchange(decomposition, -1, 2), std::invalid_argument);
  CHECK_THROWS_AS(cb::HaloExchange(decomposition, 1, 0), std::invalid_argument);

  // Two cells per rank along x cannot feed a halo of three.
  cb::Decomposition thin(MPI_COMM_WORLD, {2 * size, 1, 1}, {true, false, false});
  CHECK_THROWS_AS(cb::HaloExchange(thin, 3, 1), cb::InputError);
  CHECK(global_sum(1) == size);
}
