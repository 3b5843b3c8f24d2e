#include "core/fft3d.hpp"

#include "core/decomposition.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>
#include <utility>

namespace cb {
namespace {

// Array orders (slowest to fastest axis) of the stages; the lines of each
// stage are contiguous.
constexpr Int3 brick_order{2, 1, 0};     // (k, j, i)
constexpr Int3 x_pencil_order{2, 1, 0};  // (z, y, x)
constexpr Int3 y_pencil_order{2, 0, 1};  // (z, x, y)
constexpr Int3 z_pencil_order{0, 1, 2};  // (x, y, z), the spectrum

std::string brick_text(const Brick& b) {
  std::string text = "[";
  for (int axis = 0; axis < 3; ++axis) {
    text += std::to_string(b.lo[axis]) + ":" + std::to_string(b.hi[axis]);
    text += axis < 2 ? ", " : "]";
  }
  return text;
}

// Every rank's brick, in rank order.
std::vector<Brick> gather_bricks(MPI_Comm comm, const Brick& mine) {
  int size = 1;
  MPI_Comm_size(comm, &size);
  const int local[6] = {mine.lo[0], mine.lo[1], mine.lo[2], mine.hi[0], mine.hi[1], mine.hi[2]};
  std::vector<int> all(6 * std::size_t(size));
  MPI_Allgather(local, 6, MPI_INT, all.data(), 6, MPI_INT, comm);
  std::vector<Brick> bricks(size);
  for (int r = 0; r < size; ++r) {
    for (int axis = 0; axis < 3; ++axis) {
      bricks[r].lo[axis] = all[6 * r + axis];
      bricks[r].hi[axis] = all[6 * r + 3 + axis];
    }
  }
  return bricks;
}

// Throws (on every rank alike: all see the same bricks) unless the bricks lie
// in the grid and cover each point once.
void check_tiling(const Int3& global, const std::vector<Brick>& bricks) {
  const Brick grid{{0, 0, 0}, global};
  long long covered = 0;
  for (std::size_t r = 0; r < bricks.size(); ++r) {
    const Brick& b = bricks[r];
    if (b.empty()) continue;
    if (!(intersect(b, grid) == b)) {
      throw std::invalid_argument("DistributedFft3d: rank " + std::to_string(r) + "'s brick " +
                                  brick_text(b) + " lies outside the grid " + brick_text(grid));
    }
    for (std::size_t s = 0; s < r; ++s) {
      if (!intersect(b, bricks[s]).empty()) {
        throw std::invalid_argument("DistributedFft3d: the bricks of ranks " + std::to_string(s) +
                                    " and " + std::to_string(r) + " overlap");
      }
    }
    covered += b.points();
  }
  if (covered != grid.points()) {
    throw std::invalid_argument("DistributedFft3d: the bricks cover " + std::to_string(covered) +
                                " of the grid's " + std::to_string(grid.points()) + " points");
  }
}

// Flat, unmanaged view of a contiguous 3-D view.
FftPoints flat(const FftBrickView& view) {
  return FftPoints(view.data(), view.size());
}

Int3 view_extents(const Brick& brick, const Int3& order) {
  const Int3 n = brick.extent();
  return {n[order[0]], n[order[1]], n[order[2]]};
}

}  // namespace

std::vector<Brick> pencil_bricks(const Int3& global, int ranks, int axis) {
  int dims[2] = {0, 0};
  MPI_Dims_create(ranks, 2, dims);
  const int first = axis == 0 ? 1 : 0;   // split over p1
  const int second = axis == 2 ? 1 : 2;  // split over p2
  std::vector<Brick> bricks(ranks);
  for (int r = 0; r < ranks; ++r) {
    const int c[2] = {r % dims[0], r / dims[0]};
    const int split[2] = {first, second};
    Brick& b = bricks[r];
    b.lo[axis] = 0;
    b.hi[axis] = global[axis];
    for (int s = 0; s < 2; ++s) {
      b.lo[split[s]] = Decomposition::block_offset(global[split[s]], dims[s], c[s]);
      b.hi[split[s]] = Decomposition::block_offset(global[split[s]], dims[s], c[s] + 1);
    }
  }
  return bricks;
}

DistributedFft3d::DistributedFft3d(MPI_Comm comm, const Int3& global, const Brick& mine,
                                   const CommOptions& comm_options)
    : comm_(comm), global_(global), brick_(mine) {
  FftLines::require_library();
  if (FftLines::host_memory() &&
      !Kokkos::SpaceAccessibility<Kokkos::HostSpace, MemSpace>::accessible) {
    throw std::runtime_error(std::string("DistributedFft3d: ") + FftLines::library() +
                             " needs host memory, but this Kokkos build keeps data on a device; "
                             "configure with the device's FFT library (cuFFT or hipFFT)");
  }
  if (global[0] < 1 || global[1] < 1 || global[2] < 1) {
    throw std::invalid_argument("DistributedFft3d: the grid needs at least one point per axis");
  }
  int rank = 0, size = 1;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  const std::vector<Brick> bricks = gather_bricks(comm, mine);
  check_tiling(global, bricks);

  std::vector<std::vector<Brick>> stages = {bricks};
  const Int3 orders[4] = {brick_order, x_pencil_order, y_pencil_order, z_pencil_order};
  for (int axis = 0; axis < 3; ++axis) stages.push_back(pencil_bricks(global, size, axis));
  for (int s = 0; s < 3; ++s) {
    remaps_.emplace_back(comm, stages[s], orders[s], stages[s + 1], orders[s + 1]);
  }
  for (int s = 3; s > 0; --s) {
    remaps_.emplace_back(comm, stages[s], orders[s], stages[s - 1], orders[s - 1]);
  }
  for (int axis = 0; axis < 3; ++axis) {
    const long long points = stages[axis + 1][rank].points();
    lines_.emplace_back(global[axis], static_cast<int>(points / global[axis]));
  }
  spectrum_ = stages[3][rank];
  x_pencils_ = FftPoints("core::fft::x_pencils", stages[1][rank].points());
  y_pencils_ = FftPoints("core::fft::y_pencils", stages[2][rank].points());
  z_pencils_ = FftPoints("core::fft::z_pencils", stages[3][rank].points());
  long long send = 0, recv = 0;
  for (const FftRemap& remap : remaps_) {
    send = std::max(send, remap.send_points());
    recv = std::max(recv, remap.recv_points());
  }
  send_ = MessageBuffer<FftComplex>("core::fft::send", send, comm_options);
  recv_ = MessageBuffer<FftComplex>("core::fft::recv", recv, comm_options);
}

FftBrickView DistributedFft3d::make_brick_view(const std::string& label) const {
  const Int3 n = view_extents(brick_, brick_order);
  return FftBrickView(label, n[0], n[1], n[2]);
}

FftSpectrumView DistributedFft3d::make_spectrum_view(const std::string& label) const {
  const Int3 n = view_extents(spectrum_, z_pencil_order);
  return FftSpectrumView(label, n[0], n[1], n[2]);
}

void DistributedFft3d::check_view(const FftBrickView& view, const Int3& extents,
                                  const char* what) const {
  if (view.extent(0) != std::size_t(extents[0]) || view.extent(1) != std::size_t(extents[1]) ||
      view.extent(2) != std::size_t(extents[2])) {
    throw std::invalid_argument(
        std::string("DistributedFft3d: ") + what + " '" + view.label() + "' has extents (" +
        std::to_string(view.extent(0)) + ", " + std::to_string(view.extent(1)) + ", " +
        std::to_string(view.extent(2)) + "), expected (" + std::to_string(extents[0]) + ", " +
        std::to_string(extents[1]) + ", " + std::to_string(extents[2]) + ")");
  }
}

void DistributedFft3d::transform_lines(FftLines& lines, const FftPoints& points,
                                       FftDirection direction) {
  Kokkos::fence();
  lines.transform(reinterpret_cast<std::complex<double>*>(points.data()), direction);
}

void DistributedFft3d::forward(const FftBrickView& in, const FftSpectrumView& out) {
  check_view(in, view_extents(brick_, brick_order), "forward input");
  check_view(out, view_extents(spectrum_, z_pencil_order), "forward output");
  Kokkos::Profiling::pushRegion("core::fft::forward");
  remaps_[0].apply(flat(in), x_pencils_, send_, recv_);
  transform_lines(lines_[0], x_pencils_, FftDirection::forward);
  remaps_[1].apply(x_pencils_, y_pencils_, send_, recv_);
  transform_lines(lines_[1], y_pencils_, FftDirection::forward);
  remaps_[2].apply(y_pencils_, flat(out), send_, recv_);
  transform_lines(lines_[2], flat(out), FftDirection::forward);
  Kokkos::Profiling::popRegion();
}

void DistributedFft3d::backward(const FftSpectrumView& in, const FftBrickView& out) {
  check_view(in, view_extents(spectrum_, z_pencil_order), "backward input");
  check_view(out, view_extents(brick_, brick_order), "backward output");
  Kokkos::Profiling::pushRegion("core::fft::backward");
  Kokkos::deep_copy(z_pencils_, flat(in));
  transform_lines(lines_[2], z_pencils_, FftDirection::backward);
  remaps_[3].apply(z_pencils_, y_pencils_, send_, recv_);
  transform_lines(lines_[1], y_pencils_, FftDirection::backward);
  remaps_[4].apply(y_pencils_, x_pencils_, send_, recv_);
  transform_lines(lines_[0], x_pencils_, FftDirection::backward);
  remaps_[5].apply(x_pencils_, flat(out), send_, recv_);
  Kokkos::Profiling::popRegion();
}

}  // namespace cb
