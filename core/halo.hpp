// Structured-grid halo exchange (docs/architecture.md, "Parallel model"). Built once from the
// local box, the halo width and the number of components; owns its buffers;
// packs and unpacks on the device; exchanges x, then y, then z so that edges and
// corners fill. Physics-free.
#pragma once

#include "core/decomposition.hpp"
#include "core/message_buffer.hpp"
#include "core/run_context.hpp"
#include "core/types.hpp"

namespace cb {

class HaloExchange {
 public:
  // `halo` ghost layers on every axis with more than one global cell
  // (cb::ghost_widths); `components` = field.extent(0). `comm` says whether
  // MPI takes the device buffers (gpu_aware_mpi) or they are staged through
  // host mirrors (cb::MessageBuffer), and where messages are counted.
  HaloExchange(const Decomposition& decomposition, int halo, int components,
               const CommOptions& comm = {});

  // Fills every ghost cell of `field` whose neighbour exists (other rank or
  // periodic image). Ghosts at physical boundaries are left to the solver.
  // Allocates nothing.
  void exchange(const Field& field);

  // The same along one axis only (0 = x, 1 = y, 2 = z), for dimensionally
  // split schemes that need one direction's ghosts at a time.
  void exchange(const Field& field, int axis);

  int halo() const { return halo_; }
  const Int3& ghost() const { return ghost_; }

 private:
  void check_field(const Field& field) const;
  void exchange_axis(const Field& field, int axis);
  const Decomposition* decomposition_;
  int halo_;
  int components_;
  Int3 ghost_;
  // Per axis and side: the faces sent and the ghost layers received.
  std::array<std::array<MessageBuffer<real>, 2>, 3> send_, recv_;
};

}  // namespace cb
