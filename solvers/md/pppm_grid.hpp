// This rank's part of the PPPM mesh: the brick of mesh points it owns and the
// larger "out" brick with the ghost points that the charge-assignment stencils
// of its atoms reach (LAMMPS PPPM::set_grid_local), and the exchanges between
// ghost points and their owners on the neighbouring ranks (LAMMPS GridComm,
// regular decomposition): swaps to each side along x, then y, then z, one
// hop where the ghost layers lie within the neighbour's owned points and more
// where they reach further (a hop passes on ghosts filled in the hop before).
// A forward exchange copies owned values to the ghost points that image them;
// a reverse exchange adds ghost values into their owners, swaps in reverse
// order. Periodic on every axis, also where the box is not (a slab's k-space
// box; a rank alone along an axis swaps with itself). The constructor refuses
// a mesh on which a rank owns no points. Physics-free; MPI through
// core/message_buffer.hpp.
#pragma once

#include "core/decomposition.hpp"
#include "core/fft_remap.hpp"
#include "core/message_buffer.hpp"
#include "core/run_context.hpp"
#include "core/types.hpp"

#include <string>
#include <vector>

namespace cb::md {

// Values on the out brick, (component, k, j, i) = (c, z - out.lo[2], y -
// out.lo[1], x - out.lo[0]), i contiguous.
using PppmField = Kokkos::View<double****, Kokkos::LayoutRight, MemSpace>;

class PppmGrid {
 public:
  // Collective over the decomposition's communicator. `in` and `out` are in
  // global mesh indices, half-open; `out` contains `in` and may reach below 0
  // or past the mesh (periodic images). Throws InputError on every rank when
  // a rank owns no mesh points or its ghost layers cannot be filled from
  // what the neighbours hold (`mesh` only words that message).
  PppmGrid(const Decomposition& decomposition, const Int3& mesh, const Brick& in, const Brick& out,
           int max_components, const CommOptions& comm_options);

  const Brick& in() const { return in_; }
  const Brick& out() const { return out_; }
  PppmField make_field(const std::string& label, int components) const;

  // Owned values to the ghost points (all components of `field`).
  void forward(const PppmField& field);
  // Ghost values added into their owners (all components of `field`).
  void reverse(const PppmField& field);

 private:
  // One message of the forward exchange: `send` (owned points) goes to
  // `send_rank`, `recv` (ghost points) comes from `recv_rank`.
  struct Swap {
    Brick send, recv;
    int send_rank = 0, recv_rank = 0;
  };
  void exchange(const PppmField& field, const Brick& pack, int to, const Brick& unpack, int from,
                bool add);
  bool add_axis_swaps(const Decomposition& decomposition, int axis);

  MPI_Comm comm_;
  int rank_ = 0;
  Brick in_, out_;
  std::vector<Swap> swaps_;
  MessageBuffer<double> send_, recv_;
};

}  // namespace cb::md
