// Structured-grid halo exchange (DESIGN.md §4, STYLE.md §5). Built once from the
// local box, the halo width and the number of components; owns its buffers;
// packs and unpacks on the device; exchanges x, then y, then z so that edges and
// corners fill. Physics-free.
#pragma once

#include "core/decomposition.hpp"
#include "core/types.hpp"

namespace cb {

class HaloExchange {
 public:
  // `halo` ghost layers on every axis with more than one global cell
  // (cb::ghost_widths); `components` = field.extent(0). With `gpu_aware_mpi`
  // device buffers go to MPI directly; otherwise they are staged through host
  // mirrors (in one place, inside this class).
  HaloExchange(const Decomposition& decomposition, int halo, int components,
               bool gpu_aware_mpi = false);

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
  // The one place that stages MPI buffers through host memory (no-op with
  // GPU-aware MPI): send buffers to the host before sending, or receive
  // buffers back to the device after receiving.
  void stage_through_host(int axis, int count, bool outgoing);
  // Buffer that MPI reads from or writes to: device or host mirror.
  real* mpi_buffer(int axis, int side, bool outgoing) const;

  const Decomposition* decomposition_;
  int halo_;
  int components_;
  bool gpu_aware_mpi_;
  Int3 ghost_;
  // Per axis and side: device send/recv buffers and their host mirrors.
  using Buffer = Kokkos::View<real*, MemSpace>;
  using HostBuffer = Buffer::host_mirror_type;
  std::array<std::array<Buffer, 2>, 3> send_, recv_;
  std::array<std::array<HostBuffer, 2>, 3> send_host_, recv_host_;
};

}  // namespace cb
