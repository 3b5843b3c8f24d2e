// Migration of owned atoms between neighbouring ranks (AtomComm, comm.hpp).
// Atoms travel as owned records (atom_records.hpp): the position first, which
// the receiver tests against its sub-box.
#include "solvers/md/comm.hpp"

namespace cb::md {
namespace {

using Policy = Kokkos::RangePolicy<ExecSpace>;

// Number of entries of the sorted `view` in [first, last) below `value`.
template <class View>
KOKKOS_INLINE_FUNCTION int count_below(const View& view, int first, int last, std::int64_t value) {
  int lo = first, hi = last;
  while (lo < hi) {
    const int mid = lo + (hi - lo) / 2;
    if (view(mid) < value) {
      lo = mid + 1;
    } else {
      hi = mid;
    }
  }
  return lo - first;
}

template <class View>
void grow(View& view, int n) {
  if (static_cast<int>(view.extent(0)) < n) view = View(view.label(), n + n / 4 + 16);
}

}  // namespace

// Packs the owned atoms outside the sub-box along `axis` into the send buffer
// and closes the gaps they leave (keeping the order of the others). Returns
// the number of leavers.
int AtomComm::pack_leavers(Atoms& atoms, int axis) {
  const int n = atoms.nlocal;
  grow(leaving_, n);
  grow(staying_, n);
  const auto x = atoms.x;
  const auto leaving_rows = leaving_, staying_rows = staying_;
  const double lo = box_.sublo[axis], hi = box_.subhi[axis];
  int leaving = 0;
  Kokkos::parallel_scan(
      "md::migrate_select", Policy(0, n),
      KOKKOS_LAMBDA(int i, int& offset, bool final) {
        const bool out = x(i, axis) < lo || x(i, axis) >= hi;
        if (final) {
          if (out) {
            leaving_rows(offset) = i;
          } else {
            staying_rows(i - offset) = i;
          }
        }
        if (out) offset += 1;
      },
      leaving);
  if (leaving == 0) return 0;
  const int kept = n - leaving;
  reserve_buffers(std::size_t(n) * owned_record_width(atoms));
  pack_owned(atoms, RowMap::list(leaving_), leaving, send_.device());
  pack_owned(atoms, RowMap::list(staying_), kept, recv_.device());  // scratch until the exchange
  unpack_owned(recv_.device(), RowMap::range(0), kept, atoms, 0);
  atoms.nlocal = kept;
  return leaving;
}

// Appends the received atoms that lie inside this sub-box along `axis`.
int AtomComm::unpack_arrivals(Atoms& atoms, int axis, int count) {
  if (count == 0) return 0;
  atoms.reserve(atoms.nlocal + count);
  grow(accepted_, count);
  const std::size_t width = owned_record_width(atoms);
  const auto buffer = recv_.device();
  const auto accepted_records = accepted_;
  const double lo = box_.sublo[axis], hi = box_.subhi[axis];
  int accepted = 0;
  Kokkos::parallel_scan(
      "md::migrate_accept", Policy(0, count),
      KOKKOS_LAMBDA(int k, int& offset, bool final) {
        const double x = buffer(k * width + axis);  // the record's position
        if (x < lo || x >= hi) return;
        if (final) accepted_records(offset) = k;
        offset += 1;
      },
      accepted);
  unpack_owned(recv_.device(), RowMap::list(accepted_), accepted, atoms, atoms.nlocal);
  atoms.nlocal += accepted;
  return accepted;
}

// Restores id order: owned atoms [0, kept) are in id order, the arrivals
// [kept, nlocal) are not. An atom's place in the merged order is its place
// within its own part plus the number of atoms of the other part with a
// smaller id (ids are unique). Arrivals are few: they are ranked by counting.
void AtomComm::merge_arrivals(Atoms& atoms, int kept) {
  const int n = atoms.nlocal, arrived = n - kept;
  if (arrived == 0) return;
  grow(slot_, n);
  grow(order_, n);
  grow(arrival_ids_, arrived);
  const auto id = atoms.id;
  const auto slot = slot_, order = order_;
  const auto sorted = arrival_ids_;
  Kokkos::parallel_for(
      "md::migrate_place_arrivals", Policy(kept, n), KOKKOS_LAMBDA(int a) {
        int before = 0;
        for (int b = kept; b < n; ++b) before += id(b) < id(a) ? 1 : 0;
        sorted(before) = id(a);
        slot(a) = before + count_below(id, 0, kept, id(a));
      });
  Kokkos::parallel_for(
      "md::migrate_place_kept", Policy(0, kept),
      KOKKOS_LAMBDA(int k) { slot(k) = k + count_below(sorted, 0, arrived, id(k)); });
  Kokkos::parallel_for(
      "md::migrate_order", Policy(0, n), KOKKOS_LAMBDA(int i) { order(slot(i)) = i; });
  reserve_buffers(std::size_t(n) * owned_record_width(atoms));
  reorder_owned(atoms, order_, send_.device());
}

}  // namespace cb::md
