#include "core/halo.hpp"

#include "core/error.hpp"

#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>

namespace cb {
namespace {

constexpr const char* axis_name[3] = {"x", "y", "z"};
constexpr const char* side_name[2] = {"low", "high"};

static_assert(std::is_same_v<real, double> || std::is_same_v<real, float>,
              "cb::real must be double or float");

// The MPI datatype of cb::real. Not constexpr: MPI handles are link-time
// objects in some implementations (e.g. Open MPI).
inline MPI_Datatype mpi_real() {
  if constexpr (std::is_same_v<real, double>) {
    return MPI_DOUBLE;
  } else {
    return MPI_FLOAT;
  }
}

// The message that fills a ghost layer on `ghost_side` of `axis`.
constexpr int message_tag(int axis, int ghost_side) {
  return 2 * axis + ghost_side;
}

// A box of cells of the ghosted local field, first cell and cell counts in
// (i, j, k) order.
struct Slab {
  Kokkos::Array<int, 3> first;
  Kokkos::Array<int, 3> count;
  int cells() const { return count[0] * count[1] * count[2]; }
};

struct CellIndex {
  int var, k, j, i;
};

// Position `index` of a slab packed with i fastest, then j, k and the component.
KOKKOS_INLINE_FUNCTION CellIndex slab_cell(const Slab& slab, int index) {
  CellIndex cell;
  cell.i = slab.first[0] + index % slab.count[0];
  index /= slab.count[0];
  cell.j = slab.first[1] + index % slab.count[1];
  index /= slab.count[1];
  cell.k = slab.first[2] + index % slab.count[2];
  cell.var = index / slab.count[2];
  return cell;
}

// Layers exchanged along `axis` on `side`: the owned cells next to that face
// (`ghost_layers` false) or the ghost cells beyond it (true). Along axes
// exchanged before `axis` the slab also spans the ghost layers that were filled
// from a neighbour, so that edges and corners fill; ghosts at physical
// boundaries and along later axes (not valid yet) are never sent or written.
// Both ranks of a pair get the same shape: they share their coordinates along
// the other axes.
Slab face_slab(const Decomposition& decomposition, const Int3& ghost, int axis, int side,
               bool ghost_layers) {
  const Int3& owned = decomposition.local_cells();
  Slab slab;
  for (int other = 0; other < 3; ++other) {
    const bool earlier = other < axis;
    const int low = earlier && !decomposition.at_physical_boundary(other, 0) ? ghost[other] : 0;
    const int high = earlier && !decomposition.at_physical_boundary(other, 1) ? ghost[other] : 0;
    slab.first[other] = ghost[other] - low;
    slab.count[other] = low + owned[other] + high;
  }
  const int g = ghost[axis];
  const int n = owned[axis];
  slab.count[axis] = g;
  if (ghost_layers) {
    slab.first[axis] = side == 0 ? 0 : g + n;
  } else {
    slab.first[axis] = side == 0 ? g : n;
  }
  return slab;
}

void pack_slab(const Field& field, int components, const Slab& slab,
               const Kokkos::View<real*, MemSpace>& buffer) {
  Kokkos::parallel_for(
      "core::halo::pack", Kokkos::RangePolicy<ExecSpace>(0, components * slab.cells()),
      KOKKOS_LAMBDA(const int index) {
        const CellIndex c = slab_cell(slab, index);
        buffer(index) = field(c.var, c.k, c.j, c.i);
      });
}

void unpack_slab(const Field& field, int components, const Slab& slab,
                 const Kokkos::View<real*, MemSpace>& buffer) {
  Kokkos::parallel_for(
      "core::halo::unpack", Kokkos::RangePolicy<ExecSpace>(0, components * slab.cells()),
      KOKKOS_LAMBDA(const int index) {
        const CellIndex c = slab_cell(slab, index);
        field(c.var, c.k, c.j, c.i) = buffer(index);
      });
}

// Periodic axis held by one rank: each ghost layer is a copy of the owned
// layers at the opposite face, `period` cells away.
void copy_periodic_image(const Field& field, int components, const Slab& ghost_slab, int axis,
                         int period) {
  Kokkos::Array<int, 3> shift = {0, 0, 0};
  shift[axis] = ghost_slab.first[axis] == 0 ? period : -period;
  Kokkos::parallel_for(
      "core::halo::copy_periodic",
      Kokkos::RangePolicy<ExecSpace>(0, components * ghost_slab.cells()),
      KOKKOS_LAMBDA(const int index) {
        const CellIndex c = slab_cell(ghost_slab, index);
        field(c.var, c.k, c.j, c.i) = field(c.var, c.k + shift[2], c.j + shift[1], c.i + shift[0]);
      });
}

}  // namespace

HaloExchange::HaloExchange(const Decomposition& decomposition, int halo, int components,
                           const CommOptions& comm)
    : decomposition_(&decomposition),
      halo_(halo),
      components_(components),
      ghost_(ghost_widths(decomposition.global_cells(), halo)) {
  if (halo < 0 || components < 1) {
    throw std::invalid_argument("HaloExchange: need halo >= 0 and components >= 1, got halo " +
                                std::to_string(halo) + ", components " +
                                std::to_string(components));
  }
  for (int axis = 0; axis < 3; ++axis) {
    const int low = decomposition.neighbor(axis, 0);
    const int high = decomposition.neighbor(axis, 1);
    const bool exchanged = ghost_[axis] > 0 && (low != MPI_PROC_NULL || high != MPI_PROC_NULL);
    if (!exchanged) continue;
    // Checked from global sizes (the smallest block) so that every rank agrees.
    const int cells = decomposition.global_cells()[axis];
    const int smallest = cells / decomposition.dims()[axis];
    if (smallest < ghost_[axis]) {
      throw InputError("halo width " + std::to_string(halo) + " needs at least " +
                       std::to_string(halo) + " cells per rank along " + axis_name[axis] +
                       ", but " + std::to_string(cells) + " cells over " +
                       std::to_string(decomposition.dims()[axis]) + " ranks leave " +
                       std::to_string(smallest) + "; use fewer ranks along " + axis_name[axis]);
    }
    if (low == decomposition.rank() && high == decomposition.rank()) continue;  // no MPI
    const int count = components * face_slab(*decomposition_, ghost_, axis, 0, false).cells();
    for (int side = 0; side < 2; ++side) {
      const std::string name = std::string(axis_name[axis]) + "_" + side_name[side];
      send_[axis][side] = MessageBuffer<real>("core::halo::send_" + name, count, comm);
      recv_[axis][side] = MessageBuffer<real>("core::halo::recv_" + name, count, comm);
    }
  }
}

void HaloExchange::exchange(const Field& field) {
  check_field(field);
  for (int axis = 0; axis < 3; ++axis) exchange_axis(field, axis);
}

void HaloExchange::exchange(const Field& field, int axis) {
  check_field(field);
  exchange_axis(field, axis);
}

void HaloExchange::check_field(const Field& field) const {
  const Int3& owned = decomposition_->local_cells();
  const bool shape_ok = field.extent(1) == std::size_t(owned[2] + 2 * ghost_[2]) &&
                        field.extent(2) == std::size_t(owned[1] + 2 * ghost_[1]) &&
                        field.extent(3) == std::size_t(owned[0] + 2 * ghost_[0]);
  if (!shape_ok || field.extent(0) > std::size_t(components_)) {
    throw std::invalid_argument(
        "HaloExchange::exchange: field '" + field.label() + "' has extents (" +
        std::to_string(field.extent(0)) + ", " + std::to_string(field.extent(1)) + ", " +
        std::to_string(field.extent(2)) + ", " + std::to_string(field.extent(3)) +
        "), expected at most " + std::to_string(components_) + " components and (" +
        std::to_string(owned[2] + 2 * ghost_[2]) + ", " + std::to_string(owned[1] + 2 * ghost_[1]) +
        ", " + std::to_string(owned[0] + 2 * ghost_[0]) + ") cells");
  }
}

void HaloExchange::exchange_axis(const Field& field, int axis) {
  const int neighbor[2] = {decomposition_->neighbor(axis, 0), decomposition_->neighbor(axis, 1)};
  if (ghost_[axis] == 0 || (neighbor[0] == MPI_PROC_NULL && neighbor[1] == MPI_PROC_NULL)) {
    return;
  }
  const Int3& owned = decomposition_->local_cells();
  const int components = static_cast<int>(field.extent(0));
  if (neighbor[0] == decomposition_->rank()) {
    for (int side = 0; side < 2; ++side) {
      copy_periodic_image(field, components, face_slab(*decomposition_, ghost_, axis, side, true),
                          axis, owned[axis]);
    }
    return;
  }

  const int count = components * face_slab(*decomposition_, ghost_, axis, 0, false).cells();
  const MPI_Comm comm = decomposition_->comm();
  MPI_Request requests[4];
  int pending = 0;
  for (int side = 0; side < 2; ++side) {
    if (neighbor[side] == MPI_PROC_NULL) continue;
    MPI_Irecv(recv_[axis][side].incoming(), count, mpi_real(), neighbor[side],
              message_tag(axis, side), comm, &requests[pending++]);
  }
  for (int side = 0; side < 2; ++side) {
    if (neighbor[side] == MPI_PROC_NULL) continue;
    pack_slab(field, components, face_slab(*decomposition_, ghost_, axis, side, false),
              send_[axis][side].device());
  }
  Kokkos::fence();
  for (int side = 0; side < 2; ++side) {
    if (neighbor[side] == MPI_PROC_NULL) continue;
    // Our face on `side` fills the neighbour's ghost layer on the other side.
    MPI_Isend(send_[axis][side].outgoing(count), count, mpi_real(), neighbor[side],
              message_tag(axis, 1 - side), comm, &requests[pending++]);
  }
  MPI_Waitall(pending, requests, MPI_STATUSES_IGNORE);
  for (int side = 0; side < 2; ++side) {
    if (neighbor[side] == MPI_PROC_NULL) continue;
    recv_[axis][side].received(count);
    unpack_slab(field, components, face_slab(*decomposition_, ghost_, axis, side, true),
                recv_[axis][side].device());
  }
}

}  // namespace cb
