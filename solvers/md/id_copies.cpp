#include "solvers/md/id_copies.hpp"

namespace cb::md {

void map_id_copies(const Atoms& atoms, IdCopies& copies) {
  if (static_cast<int>(copies.next.extent(0)) < atoms.capacity())
    copies.next = IntView("md::next_copy", atoms.capacity());
  const auto id = atoms.id;
  const auto first = copies.first, next = copies.next;
  Kokkos::deep_copy(first, -1);
  Kokkos::deep_copy(next, -1);
  // The lowest local index of each id: the owned copy when there is one, and
  // the same choice on every thread count.
  Kokkos::parallel_for(
      "md::first_copy", Kokkos::RangePolicy<ExecSpace>(0, atoms.nall()), KOKKOS_LAMBDA(int i) {
        int* slot = &first(id(i));
        int seen = *slot;
        while ((seen < 0 || seen > i)) {
          const int before = Kokkos::atomic_compare_exchange(slot, seen, i);
          if (before == seen) break;
          seen = before;
        }
      });
  // The others hang behind it (their order does not matter: see nearest()).
  Kokkos::parallel_for(
      "md::chain_copies", Kokkos::RangePolicy<ExecSpace>(0, atoms.nall()), KOKKOS_LAMBDA(int i) {
        const int head = first(id(i));
        if (head != i) next(i) = Kokkos::atomic_exchange(&next(head), i);
      });
}

}  // namespace cb::md
