#include "core/fft_remap.hpp"

#include <algorithm>
#include <climits>
#include <stdexcept>
#include <string>
#include <utility>

namespace cb {

Int3 Brick::extent() const {
  Int3 n;
  for (int axis = 0; axis < 3; ++axis) n[axis] = std::max(0, hi[axis] - lo[axis]);
  if (n[0] == 0 || n[1] == 0 || n[2] == 0) return {0, 0, 0};
  return n;
}

long long Brick::points() const {
  const Int3 n = extent();
  return static_cast<long long>(n[0]) * n[1] * n[2];
}

Brick intersect(const Brick& a, const Brick& b) {
  Brick c;
  for (int axis = 0; axis < 3; ++axis) {
    c.lo[axis] = std::max(a.lo[axis], b.lo[axis]);
    c.hi[axis] = std::min(a.hi[axis], b.hi[axis]);
  }
  return c;
}

namespace {

// Device-copyable map from global (x, y, z) to the position in a flat array.
struct FlatIndex {
  Kokkos::Array<int, 3> lo, stride;
  KOKKOS_INLINE_FUNCTION long long operator()(int x, int y, int z) const {
    return static_cast<long long>(x - lo[0]) * stride[0] +
           static_cast<long long>(y - lo[1]) * stride[1] +
           static_cast<long long>(z - lo[2]) * stride[2];
  }
};

FlatIndex flat_index(const BrickLayout& layout) {
  const Int3 n = layout.brick.extent();
  FlatIndex index;
  int stride = 1;
  for (int position = 2; position >= 0; --position) {
    const int axis = layout.order[position];
    index.stride[axis] = stride;
    stride *= n[axis];
  }
  for (int axis = 0; axis < 3; ++axis) index.lo[axis] = layout.brick.lo[axis];
  return index;
}

// The overlap box as (first point, points per axis), for the kernels.
struct Box {
  Kokkos::Array<int, 3> lo, n;
};

Box box_of(const Brick& overlap) {
  const Int3 n = overlap.extent();
  return {{overlap.lo[0], overlap.lo[1], overlap.lo[2]}, {n[0], n[1], n[2]}};
}

// Runs copy(x, y, z, p) at every point of `overlap`, p its place in message
// order (x fastest). Blocks are at most one rank's brick, whose flat index is
// an int; an MDRange gives the coordinates without index divisions.
template <class Copy>
void for_each_point(const char* label, const Brick& overlap, const Copy& copy) {
  const long long points = overlap.points();
  if (points == 0) return;
  if (points > INT_MAX) throw std::overflow_error("FftRemap: a block exceeds 2^31 points");
  const Box box = box_of(overlap);
  using Policy3 = Kokkos::MDRangePolicy<ExecSpace, Kokkos::Rank<3>>;
  Kokkos::parallel_for(
      label, Policy3({0, 0, 0}, {box.n[2], box.n[1], box.n[0]}),
      KOKKOS_LAMBDA(const int k, const int j, const int i) {
        copy(box.lo[0] + i, box.lo[1] + j, box.lo[2] + k, (k * box.n[1] + j) * box.n[0] + i);
      });
}

// Copies one block between a brick array (`grid`, `index`) and a message
// buffer, in the message order. `to_buffer` picks the direction.
void copy_block(const FftPoints& grid, const FlatIndex& index, const FftRemap::Block& block,
                const FftPoints& buffer, bool to_buffer) {
  const long long offset = block.offset;
  for_each_point(
      to_buffer ? "core::fft::remap_pack" : "core::fft::remap_unpack", block.overlap,
      KOKKOS_LAMBDA(int x, int y, int z, int p) {
        if (to_buffer) {
          buffer(offset + p) = grid(index(x, y, z));
        } else {
          grid(index(x, y, z)) = buffer(offset + p);
        }
      });
}

// Copies the overlap from one brick array straight into another (the part of
// a remap that stays on this rank: no message buffer in between).
void copy_across(const FftPoints& source, const FlatIndex& from, const FftPoints& target,
                 const FlatIndex& to, const Brick& overlap) {
  for_each_point(
      "core::fft::remap_local", overlap,
      KOKKOS_LAMBDA(int x, int y, int z, int) { target(to(x, y, z)) = source(from(x, y, z)); });
}

int to_int_count(long long points) {
  if (2 * points > INT_MAX) {
    throw std::overflow_error("FftRemap: a message of " + std::to_string(points) +
                              " points exceeds MPI's int count; use more ranks");
  }
  return static_cast<int>(2 * points);  // sent as pairs of MPI_DOUBLE
}

}  // namespace

FftRemap::FftRemap(MPI_Comm comm, const std::vector<Brick>& from, const Int3& from_order,
                   const std::vector<Brick>& to, const Int3& to_order)
    : comm_(comm) {
  int rank = 0;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size_);
  if (from.size() != std::size_t(size_) || to.size() != std::size_t(size_)) {
    throw std::invalid_argument("FftRemap: need one brick per rank");
  }
  from_ = {from[rank], from_order};
  to_ = {to[rank], to_order};
  send_counts_.assign(size_, 0);
  send_displs_.assign(size_, 0);
  recv_counts_.assign(size_, 0);
  recv_displs_.assign(size_, 0);
  // Other ranks in rank order; the part that stays here is copied across
  // directly (copy_across), never through a buffer.
  for (int peer = 0; peer < size_; ++peer) {
    if (peer == rank) continue;
    const Brick out = intersect(from[rank], to[peer]);
    const Brick in = intersect(to[rank], from[peer]);
    send_displs_[peer] = to_int_count(send_points_);
    recv_displs_[peer] = to_int_count(recv_points_);
    send_counts_[peer] = to_int_count(out.points());
    recv_counts_[peer] = to_int_count(in.points());
    if (!out.empty()) send_blocks_.push_back({out, send_points_});
    if (!in.empty()) recv_blocks_.push_back({in, recv_points_});
    send_points_ += out.points();
    recv_points_ += in.points();
  }
  self_ = intersect(from[rank], to[rank]);
}

void FftRemap::apply(const FftPoints& source, const FftPoints& target,
                     MessageBuffer<FftComplex>& send, MessageBuffer<FftComplex>& recv) const {
  const FlatIndex from_index = flat_index(from_);
  const FlatIndex to_index = flat_index(to_);
  for (const Block& block : send_blocks_)
    copy_block(source, from_index, block, send.device(), true);
  Kokkos::fence();
  if (size_ > 1) {
    MPI_Alltoallv(send.outgoing(static_cast<std::size_t>(send_points_)), send_counts_.data(),
                  send_displs_.data(), MPI_DOUBLE, recv.incoming(), recv_counts_.data(),
                  recv_displs_.data(), MPI_DOUBLE, comm_);
    recv.received(static_cast<std::size_t>(recv_points_));
  }
  copy_across(source, from_index, target, to_index, self_);
  for (const Block& block : recv_blocks_) copy_block(target, to_index, block, recv.device(), false);
  Kokkos::fence();
}

}  // namespace cb
