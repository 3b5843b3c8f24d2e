// Redistribution of a complex 3-D grid between two decompositions into bricks,
// for the distributed FFT (docs/architecture.md, "Distributed FFT"); the
// scheme of LAMMPS's remap and heFFTe. Physics-free.
#pragma once

#include "core/message_buffer.hpp"
#include "core/types.hpp"

#include <mpi.h>

#include <vector>

namespace cb {

using FftComplex = Kokkos::complex<double>;
using FftPoints = Kokkos::View<FftComplex*, MemSpace>;  // a flat array of grid points

// A brick of a global grid: global indices [lo, hi) per axis, (x, y, z) order.
// Empty when hi <= lo along some axis.
struct Brick {
  Int3 lo{0, 0, 0};
  Int3 hi{0, 0, 0};
  Int3 extent() const;  // points per axis, 0 for an empty brick
  long long points() const;
  bool empty() const { return points() == 0; }
  bool operator==(const Brick& other) const { return lo == other.lo && hi == other.hi; }
};

// The points common to two bricks (empty when they do not overlap).
Brick intersect(const Brick& a, const Brick& b);

// A brick stored as a flat array: `order` lists the axes from the slowest to the
// fastest varying index, e.g. {2, 1, 0} for (k, j, i) with i contiguous.
struct BrickLayout {
  Brick brick;
  Int3 order{2, 1, 0};
};

class FftRemap {
 public:
  // Rank r of `comm` holds `from[r]` stored in `from_order` and is to hold
  // `to[r]` stored in `to_order`; both lists tile the same grid. Every rank
  // passes the same lists. Not collective.
  FftRemap(MPI_Comm comm, const std::vector<Brick>& from, const Int3& from_order,
           const std::vector<Brick>& to, const Int3& to_order);

  // Collective over `comm`: fills `target` (this rank's `to` brick) from the
  // `source` arrays of all ranks. `send` and `recv` hold at least send_points()
  // and recv_points(); they may be shared between remaps. Allocates nothing.
  void apply(const FftPoints& source, const FftPoints& target, MessageBuffer<FftComplex>& send,
             MessageBuffer<FftComplex>& recv) const;

  long long send_points() const { return send_points_; }
  long long recv_points() const { return recv_points_; }

  // A contiguous part of a message: the overlap of two bricks, packed with x
  // fastest, then y, then z, starting at `offset` in the message buffer.
  struct Block {
    Brick overlap;
    long long offset = 0;
  };

 private:
  MPI_Comm comm_;
  int size_ = 1;
  BrickLayout from_, to_;
  std::vector<Block> send_blocks_, recv_blocks_;  // to/from other ranks
  Brick self_;                                    // the part that stays on this rank
  std::vector<int> send_counts_, send_displs_, recv_counts_, recv_displs_;  // in doubles
  long long send_points_ = 0, recv_points_ = 0;
};

}  // namespace cb
