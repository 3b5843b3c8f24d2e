#include "solvers/md/comm.hpp"

#include "core/error.hpp"

#include <algorithm>
#include <cmath>
#include <iterator>
#include <limits>
#include <string>

namespace cb::md {
namespace {

constexpr int position_width = 3;  // x, y, z (forward) or fx, fy, fz (reverse)
constexpr int code_stride[3] = {1, 3, 9};

using Policy = Kokkos::RangePolicy<ExecSpace>;

}  // namespace

AtomComm::AtomComm(const Decomposition& decomposition, const LocalBox& box, double rcomm,
                   const CommOptions& options)
    : comm_(decomposition.comm()),
      rank_(decomposition.rank()),
      dims_(decomposition.dims()),
      box_(box),
      periodic_(decomposition.periodic()),
      rcomm_(rcomm) {
  for (int axis = 0; axis < 3; ++axis) add_swaps(decomposition, axis);
  send_ = MessageBuffer<double>("md::comm_send", 4096, options);
  recv_ = MessageBuffer<double>("md::comm_recv", 4096, options);
  leaving_ = IntView("md::migrate_leaving", 1024);
  staying_ = IntView("md::migrate_staying", 1024);
  accepted_ = IntView("md::migrate_accepted", 1024);
  slot_ = IntView("md::migrate_slot", 1024);
  order_ = IntView("md::migrate_order", 1024);
  arrival_ids_ = IdView("md::migrate_arrival_ids", 64);
}

namespace {

// The thinnest sub-box along `axis` over all ranks (collective).
double thinnest_sub_box(const LocalBox& box, int axis, MPI_Comm comm) {
  const double thickness = box.subhi[axis] - box.sublo[axis];
  double thinnest = thickness;
  MPI_Allreduce(&thickness, &thinnest, 1, MPI_DOUBLE, MPI_MIN, comm);
  return thinnest;
}

}  // namespace

// Hops along `axis`: enough that ghosts reach rcomm past the thinnest
// sub-box; at most one per rank (the run refuses a box thinner than rcomm).
void AtomComm::add_swaps(const Decomposition& decomposition, int axis) {
  const double thinnest = thinnest_sub_box(box_, axis, comm_);
  const int hops = std::max(1, std::min(dims_[axis], int(std::ceil(rcomm_ / thinnest))));
  for (int hop = 0; hop < hops; ++hop) {
    for (int side = 0; side < 2; ++side) {
      Swap s;
      s.axis = axis;
      s.side = side;
      s.hop = hop;
      s.send_rank = decomposition.neighbor(axis, side);
      s.recv_rank = decomposition.neighbor(axis, 1 - side);
      s.wraps = side == 0 ? decomposition.coords()[axis] == 0
                          : decomposition.coords()[axis] == dims_[axis] - 1;
      s.wraps = s.wraps && decomposition.periodic()[axis];
      if (s.wraps) s.shift.code = side == 0 ? code_stride[axis] : -code_stride[axis];
      set_geometry(s);
      s.send_list = IntView("md::send_list", 1024);
      swaps_.push_back(s);
    }
  }
}

// To the lower neighbour what lies within rcomm of its upper face, and the
// other way round; later hops take only ghosts from the far side. Across a
// periodic face the copy shifts by the box length.
void AtomComm::set_geometry(Swap& s) const {
  const int axis = s.axis;
  const double mid = 0.5 * (box_.sublo[axis] + box_.subhi[axis]);
  const double infinity = std::numeric_limits<double>::infinity();
  s.slab_lo = s.side == 0 ? (s.hop == 0 ? -infinity : mid) : box_.subhi[axis] - rcomm_;
  s.slab_hi = s.side == 0 ? box_.sublo[axis] + rcomm_ : (s.hop == 0 ? infinity : mid);
  if (s.wraps) s.shift.x[axis] = s.side == 0 ? box_.length(axis) : -box_.length(axis);
}

// A box that changed size (a barostat): the slabs and shifts follow; the
// rank grid and the hops stay, so a box too small for them stops the run.
void AtomComm::set_box(const LocalBox& box, long step) {
  static const char* axis_name[3] = {"x", "y", "z"};
  box_ = box;
  for (int axis = 0; axis < 3; ++axis) {
    const std::string where = "md: step " + std::to_string(step) + ": the box shrank to ";
    if (periodic_[axis] && box_.length(axis) < rcomm_)
      throw RunError(where + std::to_string(box_.length(axis)) + " along " + axis_name[axis] +
                     ", below cutoff + skin = " + std::to_string(rcomm_) +
                     " (ghost atoms come from one periodic image at most)");
    const double thinnest = thinnest_sub_box(box_, axis, comm_);
    const int needed = std::max(1, std::min(dims_[axis], int(std::ceil(rcomm_ / thinnest))));
    int hops = 0;
    for (const Swap& s : swaps_) hops = s.axis == axis ? std::max(hops, s.hop + 1) : hops;
    if (needed > hops)
      throw RunError(where + "sub-boxes " + std::to_string(thinnest) + " thick along " +
                     axis_name[axis] + ": ghosts within cutoff + skin = " + std::to_string(rcomm_) +
                     " would need " + std::to_string(needed) + " hops, the run set up " +
                     std::to_string(hops) + " (start from a larger box or use fewer ranks along " +
                     axis_name[axis] + ")");
  }
  for (Swap& s : swaps_) set_geometry(s);
}

void AtomComm::reserve_buffers(std::size_t doubles) {
  if (doubles > send_.size()) send_.reserve(doubles + doubles / 4);
  if (doubles > recv_.size()) recv_.reserve(doubles + doubles / 4);
}

int AtomComm::exchange(int send_rank, int recv_rank, int nsend, int width) {
  if (send_rank == rank_ && recv_rank == rank_) {
    const std::pair<std::size_t, std::size_t> part(0, std::size_t(nsend) * width);
    Kokkos::deep_copy(Kokkos::subview(recv_.device(), part), Kokkos::subview(send_.device(), part));
    return nsend;
  }
  int nrecv = 0;
  const int count = send_rank == MPI_PROC_NULL ? 0 : nsend;
  MPI_Sendrecv(&count, 1, MPI_INT, send_rank, 0, &nrecv, 1, MPI_INT, recv_rank, 0, comm_,
               MPI_STATUS_IGNORE);
  reserve_buffers(std::size_t(std::max(count, nrecv)) * width);
  MPI_Sendrecv(send_.outgoing(std::size_t(count) * width), count * width, MPI_DOUBLE, send_rank, 1,
               recv_.incoming(), nrecv * width, MPI_DOUBLE, recv_rank, 1, comm_, MPI_STATUS_IGNORE);
  recv_.received(std::size_t(nrecv) * width);
  return nrecv;
}

int AtomComm::select_border_atoms(Swap& swap, const Atoms& atoms, int nfirst, int nlast) {
  const int axis = swap.axis;
  const double lo = swap.slab_lo, hi = swap.slab_hi;
  const auto x = atoms.x;
  for (int attempt = 0; attempt < 2; ++attempt) {
    const auto list = swap.send_list;
    const int capacity = static_cast<int>(list.extent(0));
    int count = 0;
    Kokkos::parallel_scan(
        "md::border_select", Policy(nfirst, nlast),
        KOKKOS_LAMBDA(int i, int& offset, bool final) {
          if (!(lo <= x(i, axis) && x(i, axis) < hi)) return;
          if (final && offset < capacity) list(offset) = i;
          offset += 1;
        },
        count);
    if (count <= capacity) return count;
    swap.send_list = IntView("md::send_list", count + count / 4);
  }
  return 0;  // unreachable: the second attempt always fits
}

// Ghost entries of a swap, shifted across a periodic face for positions (forward).
void AtomComm::pack_forward(const Swap& swap, const Vec3View& field, bool shifted) {
  reserve_buffers(std::size_t(swap.nsend) * position_width);
  const auto list = swap.send_list;
  const auto x = field;
  const auto buffer = send_.device();
  const double sx = shifted ? swap.shift.x[0] : 0.0, sy = shifted ? swap.shift.x[1] : 0.0,
               sz = shifted ? swap.shift.x[2] : 0.0;
  Kokkos::parallel_for(
      "md::pack_forward", Policy(0, swap.nsend), KOKKOS_LAMBDA(int k) {
        const int i = list(k);
        buffer(std::size_t(k) * 3) = x(i, 0) + sx;
        buffer(std::size_t(k) * 3 + 1) = x(i, 1) + sy;
        buffer(std::size_t(k) * 3 + 2) = x(i, 2) + sz;
      });
}

void AtomComm::unpack_forward(const Swap& swap, const Vec3View& field) {
  const auto x = field;
  const auto buffer = recv_.device();
  const int first = swap.first_recv;
  Kokkos::parallel_for(
      "md::unpack_forward", Policy(0, swap.nrecv), KOKKOS_LAMBDA(int k) {
        for (int c = 0; c < 3; ++c) x(first + k, c) = buffer(std::size_t(k) * 3 + c);
      });
}

void AtomComm::borders(Atoms& atoms) {
  atoms.nghost = 0;
  int nfirst = 0, nlast = 0;
  for (Swap& swap : swaps_) {
    // Both swaps of a hop look at the same atoms: all held at the start of
    // the axis, or those that arrived in the hop before.
    if (swap.side == 0) {
      nfirst = swap.hop == 0 ? 0 : nlast;
      nlast = atoms.nall();
    }
    swap.nsend =
        swap.send_rank == MPI_PROC_NULL ? 0 : select_border_atoms(swap, atoms, nfirst, nlast);
    const int width = ghost_record_width(atoms);
    reserve_buffers(std::size_t(swap.nsend) * width);
    pack_ghosts(atoms, swap.send_list, swap.nsend, swap.shift, send_.device());
    swap.first_recv = atoms.nall();
    swap.nrecv = exchange(swap.send_rank, swap.recv_rank, swap.nsend, width);
    atoms.reserve(atoms.nall() + swap.nrecv);
    unpack_ghosts(recv_.device(), swap.nrecv, atoms, swap.first_recv);
    atoms.nghost += swap.nrecv;
  }
}

void AtomComm::forward(const Vec3View& field, bool shifted) {
  for (const Swap& swap : swaps_) {
    pack_forward(swap, field, shifted);
    exchange(swap.send_rank, swap.recv_rank, swap.nsend, position_width);
    unpack_forward(swap, field);
  }
}

void AtomComm::pack_ghost_forces(const Swap& swap, const Vec3View& field) {
  reserve_buffers(std::size_t(swap.nrecv) * 3);
  const auto f = field;
  const auto buffer = send_.device();
  const int first = swap.first_recv;
  Kokkos::parallel_for(
      "md::pack_ghost_forces", Policy(0, swap.nrecv), KOKKOS_LAMBDA(int k) {
        for (int c = 0; c < 3; ++c) buffer(std::size_t(k) * 3 + c) = f(first + k, c);
      });
}

void AtomComm::add_ghost_forces(const Swap& swap, const Vec3View& field) {
  const auto f = field;
  const auto list = swap.send_list;
  const auto buffer = recv_.device();
  Kokkos::parallel_for(
      "md::add_ghost_forces", Policy(0, swap.nsend), KOKKOS_LAMBDA(int k) {
        const int i = list(k);
        for (int c = 0; c < 3; ++c) f(i, c) += buffer(std::size_t(k) * 3 + c);
      });
}

void AtomComm::reverse(Atoms& /*atoms*/, const Vec3View& field) {
  for (auto swap = swaps_.rbegin(); swap != swaps_.rend(); ++swap) {
    pack_ghost_forces(*swap, field);
    exchange(swap->recv_rank, swap->send_rank, swap->nrecv, position_width);
    add_ghost_forces(*swap, field);
  }
}

// LAMMPS Domain::pbc: x += L below lo; x -= L (not below lo) at or above hi,
// along the periodic axes.
void AtomComm::wrap_positions(Atoms& atoms) {
  const auto x = atoms.x;
  const auto image = atoms.image;
  const Kokkos::Array<double, 3> lo{box_.lo[0], box_.lo[1], box_.lo[2]};
  const Kokkos::Array<double, 3> hi{box_.hi[0], box_.hi[1], box_.hi[2]};
  const Kokkos::Array<bool, 3> periodic{periodic_[0], periodic_[1], periodic_[2]};
  Kokkos::parallel_for(
      "md::wrap_positions", Policy(0, atoms.nlocal), KOKKOS_LAMBDA(int i) {
        for (int d = 0; d < 3; ++d) {
          if (!periodic[d]) continue;
          const double length = hi[d] - lo[d];
          if (x(i, d) < lo[d]) {
            x(i, d) += length;
            image(i, d) -= 1;
          }
          if (x(i, d) >= hi[d]) {
            x(i, d) -= length;
            if (x(i, d) < lo[d]) x(i, d) = lo[d];
            image(i, d) += 1;
          }
        }
      });
}

// Owned atoms outside [lo, hi) along a non-periodic axis, over all ranks.
std::int64_t AtomComm::outside_fixed_faces(const Atoms& atoms) const {
  if (periodic_[0] && periodic_[1] && periodic_[2]) return 0;
  const auto x = atoms.x;
  const Kokkos::Array<double, 3> lo{box_.lo[0], box_.lo[1], box_.lo[2]};
  const Kokkos::Array<double, 3> hi{box_.hi[0], box_.hi[1], box_.hi[2]};
  const Kokkos::Array<bool, 3> periodic{periodic_[0], periodic_[1], periodic_[2]};
  long long local = 0, total = 0;
  Kokkos::parallel_reduce(
      "md::outside_fixed_faces", Policy(0, atoms.nlocal),
      KOKKOS_LAMBDA(int i, long long& count) {
        bool out = false;
        for (int d = 0; d < 3; ++d)
          out = out || (!periodic[d] && (x(i, d) < lo[d] || x(i, d) >= hi[d]));
        if (out) ++count;
      },
      local);
  MPI_Allreduce(&local, &total, 1, MPI_LONG_LONG, MPI_SUM, comm_);
  return total;
}

std::int64_t AtomComm::wrap_and_migrate(Atoms& atoms) {
  wrap_positions(atoms);
  for (int axis = 0; axis < 3; ++axis) {
    if (dims_[axis] == 1) continue;
    const int leaving = pack_leavers(atoms, axis);
    const int kept = atoms.nlocal;
    const int width = owned_record_width(atoms);
    const auto first = std::find_if(swaps_.begin(), swaps_.end(),
                                    [axis](const Swap& s) { return s.axis == axis; });
    const int low = first->send_rank, high = std::next(first)->send_rank;
    // Every leaver goes to both neighbours (one when they are the same rank);
    // each keeps the atoms inside its own sub-box.
    int arrived = exchange(low, high, leaving, width);
    unpack_arrivals(atoms, axis, arrived);
    if (high != low) {
      arrived = exchange(high, low, leaving, width);
      unpack_arrivals(atoms, axis, arrived);
    }
    merge_arrivals(atoms, kept);
  }
  long long local = atoms.nlocal, total = 0;
  MPI_Allreduce(&local, &total, 1, MPI_LONG_LONG, MPI_SUM, comm_);
  return total;
}

}  // namespace cb::md
