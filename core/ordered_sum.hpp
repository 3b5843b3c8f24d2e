// Sums over items in an order fixed by the item indices alone, the same bit
// for bit on every backend and thread count. Kokkos::parallel_reduce groups
// items by thread (OpenMP) or by launch shape (GPUs), so the last bits of its
// floating-point sums follow OMP_NUM_THREADS; where a sum feeds back into a
// run (a thermostat's temperature) or is compared across runs, use this.
//
// Blocks of block_size consecutive items are summed in index order, one block
// per thread, then the block sums in block order by one thread; the N totals
// come back to the host. Two kernels and a copy of N doubles: meant for
// per-step scalars and diagnostics, not inner loops.
#pragma once

#include "core/types.hpp"

namespace cb {

template <int N>
struct Sums {
  double value[N] = {};
  double operator[](int c) const { return value[c]; }
};

class OrderedSum {
 public:
  static constexpr int block_size = 256;

  // The N sums over the owned cells of a local grid block (cells wide, ghost
  // cells on each side) of what term(k, j, i, acc) adds to acc[0..N), cells
  // taken in (k, j, i) order with i fastest.
  template <int N, class Term>
  Sums<N> sum_cells(const char* label, const Int3& cells, const Int3& ghost, const Term& term) {
    const int nx = cells[0], ny = cells[1];
    const int gx = ghost[0], gy = ghost[1], gz = ghost[2];
    return sum<N>(
        label, cells[0] * cells[1] * cells[2], KOKKOS_LAMBDA(int c, double* acc) {
          term(c / (nx * ny) + gz, (c / nx) % ny + gy, c % nx + gx, acc);
        });
  }

  // The N sums over items [0, n) of what term(i, acc) adds to acc[0..N).
  template <int N, class Term>
  Sums<N> sum(const char* label, int n, const Term& term) {
    const int blocks = (n + block_size - 1) / block_size;
    if (static_cast<int>(scratch_.extent(0)) < (blocks + 1) * N) {
      scratch_ = Kokkos::View<double*, MemSpace>("cb::ordered_sum_blocks", (blocks + 1) * N + 64);
    }
    const auto scratch = scratch_;
    Kokkos::parallel_for(
        label, Kokkos::RangePolicy<ExecSpace>(0, blocks), KOKKOS_LAMBDA(int b) {
          double acc[N] = {};
          const int end = (b + 1) * block_size < n ? (b + 1) * block_size : n;
          for (int i = b * block_size; i < end; ++i) term(i, acc);
          for (int c = 0; c < N; ++c) scratch(N + b * N + c) = acc[c];
        });
    Kokkos::parallel_for(
        "cb::ordered_sum_total", Kokkos::RangePolicy<ExecSpace>(0, 1), KOKKOS_LAMBDA(int) {
          for (int c = 0; c < N; ++c) {
            double total = 0.0;
            for (int b = 0; b < blocks; ++b) total += scratch(N + b * N + c);
            scratch(c) = total;
          }
        });
    Sums<N> out;
    Kokkos::View<double*, Kokkos::HostSpace, Kokkos::MemoryUnmanaged> host(out.value, N);
    Kokkos::deep_copy(host, Kokkos::subview(scratch_, std::make_pair(0, N)));
    return out;
  }

 private:
  Kokkos::View<double*, MemSpace> scratch_;  // N totals, then N per block
};

}  // namespace cb
