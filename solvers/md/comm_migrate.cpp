// Migration of owned atoms between neighbouring ranks (AtomComm, comm.hpp).
#include "solvers/md/comm.hpp"

namespace cb::md {
namespace {

using Policy = Kokkos::RangePolicy<ExecSpace>;

// The per-atom state that travels with an owned atom, packed into doubles
// (ids below 2^53 are exact).
struct AtomRecord {
  Vec3View x, v, x_ref;
  IdView id;
  IntView type, code;
  ImageView image;

  explicit AtomRecord(const Atoms& a)
      : x(a.x), v(a.v), x_ref(a.x_ref), id(a.id), type(a.type), code(a.code), image(a.image) {}

  KOKKOS_INLINE_FUNCTION void pack(int i, double* out) const {
    for (int c = 0; c < 3; ++c) {
      out[c] = x(i, c);
      out[3 + c] = v(i, c);
      out[6 + c] = image(i, c);
      out[9 + c] = x_ref(i, c);
    }
    out[12] = static_cast<double>(id(i));
    out[13] = type(i);
  }

  KOKKOS_INLINE_FUNCTION void unpack(int i, const double* in) const {
    for (int c = 0; c < 3; ++c) {
      x(i, c) = in[c];
      v(i, c) = in[3 + c];
      image(i, c) = static_cast<int>(in[6 + c]);
      x_ref(i, c) = in[9 + c];
    }
    id(i) = static_cast<std::int64_t>(in[12]);
    type(i) = static_cast<int>(in[13]);
    code(i) = owned_image_code;
  }
};

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

}  // namespace

// Packs the owned atoms outside the sub-box along `axis` into the send buffer
// and closes the gaps they leave (keeping the order of the others). Returns
// the number of leavers.
int AtomComm::pack_leavers(Atoms& atoms, int axis) {
  const int n = atoms.nlocal;
  if (static_cast<int>(flags_.extent(0)) < n) flags_ = IntView("md::migrate_flags", n + n / 4);
  const auto x = atoms.x;
  const auto flags = flags_;
  const double lo = box_.sublo[axis], hi = box_.subhi[axis];
  int leaving = 0;
  Kokkos::parallel_scan(
      "md::migrate_select", Policy(0, n),
      KOKKOS_LAMBDA(int i, int& offset, bool final) {
        const bool out = x(i, axis) < lo || x(i, axis) >= hi;
        if (final) flags(i) = out ? -(offset + 1) : i - offset;
        if (out) offset += 1;
      },
      leaving);
  if (leaving == 0) return 0;
  const int w = migrate_width;
  reserve_buffers(std::size_t(n) * w);
  const AtomRecord record(atoms);
  const auto out_buffer = send_;
  const auto keep_buffer = recv_;  // scratch until the exchange
  Kokkos::parallel_for(
      "md::migrate_pack", Policy(0, n), KOKKOS_LAMBDA(int i) {
        const int slot = flags(i);
        if (slot < 0) {
          record.pack(i, &out_buffer(std::size_t(-slot - 1) * w));
        } else {
          record.pack(i, &keep_buffer(std::size_t(slot) * w));
        }
      });
  const int kept = n - leaving;
  Kokkos::parallel_for(
      "md::migrate_compact", Policy(0, kept),
      KOKKOS_LAMBDA(int k) { record.unpack(k, &keep_buffer(std::size_t(k) * w)); });
  atoms.nlocal = kept;
  return leaving;
}

// Appends the received atoms that lie inside this sub-box along `axis`.
int AtomComm::unpack_arrivals(Atoms& atoms, int axis, int count) {
  if (count == 0) return 0;
  atoms.reserve(atoms.nlocal + count);
  const int w = migrate_width;
  const auto buffer = recv_;
  const double lo = box_.sublo[axis], hi = box_.subhi[axis];
  const AtomRecord record(atoms);
  const int first = atoms.nlocal;
  int accepted = 0;
  Kokkos::parallel_scan(
      "md::migrate_unpack", Policy(0, count),
      KOKKOS_LAMBDA(int k, int& offset, bool final) {
        const double* in = &buffer(std::size_t(k) * w);
        if (in[axis] < lo || in[axis] >= hi) return;
        if (final) record.unpack(first + offset, in);
        offset += 1;
      },
      accepted);
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
  if (static_cast<int>(slot_.extent(0)) < n) slot_ = IntView("md::migrate_slot", n + n / 4);
  if (static_cast<int>(arrival_ids_.extent(0)) < arrived) {
    arrival_ids_ = IdView("md::migrate_arrival_ids", arrived + arrived / 4 + 16);
  }
  const auto id = atoms.id;
  const auto slot = slot_;
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
  const int w = migrate_width;
  reserve_buffers(std::size_t(n) * w);
  const AtomRecord record(atoms);
  const auto buffer = send_;
  Kokkos::parallel_for(
      "md::migrate_pack_in_order", Policy(0, n),
      KOKKOS_LAMBDA(int i) { record.pack(i, &buffer(std::size_t(slot(i)) * w)); });
  Kokkos::parallel_for(
      "md::migrate_unpack_in_order", Policy(0, n),
      KOKKOS_LAMBDA(int i) { record.unpack(i, &buffer(std::size_t(i) * w)); });
}

}  // namespace cb::md
