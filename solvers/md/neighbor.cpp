#include "solvers/md/neighbor.hpp"

#include "core/kokkos_compat.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

namespace cb::md {
namespace {

using Policy = Kokkos::RangePolicy<ExecSpace>;

// The bin along one axis, clamped to the grid in floating point first: a
// position far outside (or NaN, which the NaN guard reports afterwards) must
// not overflow the conversion to int.
KOKKOS_INLINE_FUNCTION int bin_coordinate(double x, double lo, double inv_size, int n) {
  const double b = (x - lo) * inv_size;
  return b >= 0.0 ? (b < double(n) ? static_cast<int>(b) : n - 1) : 0;
}

// Inserts (key, atom) into the first n entries of a row kept sorted by key.
KOKKOS_INLINE_FUNCTION void insert_sorted(std::int64_t* keys, int* atoms, int n, std::int64_t key,
                                          int atom) {
  int slot = n;
  while (slot > 0 && keys[slot - 1] > key) {
    keys[slot] = keys[slot - 1];
    atoms[slot] = atoms[slot - 1];
    --slot;
  }
  keys[slot] = key;
  atoms[slot] = atom;
}

// The special level of atom `id` for owned atom i (0 when not special): a
// search of i's special row (entries id * 4 + level, 0 ends the row).
KOKKOS_INLINE_FUNCTION int special_level_of(const RowsView& special, int i, std::int64_t id) {
  const int width = static_cast<int>(special.extent(1));
  for (int s = 0; s < width; ++s) {
    const std::int64_t entry = special(i, s);
    if (entry == 0) return 0;
    if (entry / 4 == id) return static_cast<int>(entry % 4);
  }
  return 0;
}

}  // namespace

NeighborList::NeighborList(double cutoff_max, bool half, const SpecialRule& special)
    : cutoff_(cutoff_max), half_(half), special_(special) {
  neighbors = NeighborView("md::neighbors", 0, 0);
  counts = IntView("md::neighbor_counts", 0);
  bin_count_ = IntView("md::bin_count", 0);
  bin_offset_ = IntView("md::bin_offset", 0);
  bin_atoms_ = IntView("md::bin_atoms", 0);
  atom_bin_ = IntView("md::atom_bin", 0);
  key_ = IdView("md::neighbor_key", 0);
}

NeighborList::Grid NeighborList::make_grid(const Atoms& atoms) const {
  const auto x = atoms.x;
  Grid grid;
  const double size = cutoff_ / bins_per_cutoff;
  for (int d = 0; d < 3; ++d) {
    double lo = 0.0, hi = 0.0;
    Kokkos::parallel_reduce(
        "md::bin_extent_lo", Policy(0, atoms.nall()),
        KOKKOS_LAMBDA(int i, double& m) { m = x(i, d) < m ? x(i, d) : m; },
        Kokkos::Min<double>(lo));
    Kokkos::parallel_reduce(
        "md::bin_extent_hi", Policy(0, atoms.nall()),
        KOKKOS_LAMBDA(int i, double& m) { m = x(i, d) > m ? x(i, d) : m; },
        Kokkos::Max<double>(hi));
    const double extent = std::max(hi - lo, size) * (1.0 + 1e-12);
    grid.n[d] = std::max(1, static_cast<int>(extent / size));
    grid.lo[d] = lo;
    grid.inv_size[d] = grid.n[d] / extent;
  }
  return grid;
}

void NeighborList::bin_atoms(const Atoms& atoms, const Grid& grid) {
  const int nbins = grid.total();
  const int nall = atoms.nall();
  if (static_cast<int>(bin_count_.extent(0)) < nbins) {
    bin_count_ = IntView("md::bin_count", nbins);
    bin_offset_ = IntView("md::bin_offset", nbins);
  }
  if (static_cast<int>(atom_bin_.extent(0)) < nall) {
    atom_bin_ = IntView("md::atom_bin", nall + nall / 5);
    bin_atoms_ = IntView("md::bin_atoms", nall + nall / 5);
    bin_x_ = Kokkos::View<double* [3], MemSpace>("md::bin_x", nall + nall / 5);
    bin_key_ = IdView("md::bin_key", nall + nall / 5);
  }
  const auto x = atoms.x;
  const auto count = bin_count_, offset = bin_offset_, members = bin_atoms_, bin = atom_bin_;
  const auto binned_x = bin_x_;
  const auto binned_key = bin_key_, key = key_;
  Kokkos::deep_copy(Kokkos::subview(count, std::make_pair(0, nbins)), 0);
  Kokkos::parallel_for(
      "md::bin_assign", Policy(0, nall), KOKKOS_LAMBDA(int i) {
        const int bx = bin_coordinate(x(i, 0), grid.lo[0], grid.inv_size[0], grid.n[0]);
        const int by = bin_coordinate(x(i, 1), grid.lo[1], grid.inv_size[1], grid.n[1]);
        const int bz = bin_coordinate(x(i, 2), grid.lo[2], grid.inv_size[2], grid.n[2]);
        bin(i) = (bz * grid.n[1] + by) * grid.n[0] + bx;
        Kokkos::atomic_fetch_add(&count(bin(i)), 1);
      });
  Kokkos::parallel_scan(
      "md::bin_offsets", Policy(0, nbins), KOKKOS_LAMBDA(int b, int& sum, bool final) {
        if (final) offset(b) = sum;
        sum += count(b);
      });
  Kokkos::deep_copy(Kokkos::subview(count, std::make_pair(0, nbins)), 0);
  Kokkos::parallel_for(
      "md::bin_fill", Policy(0, nall), KOKKOS_LAMBDA(int i) {
        const int slot = offset(bin(i)) + Kokkos::atomic_fetch_add(&count(bin(i)), 1);
        members(slot) = i;
        for (int d = 0; d < 3; ++d) binned_x(slot, d) = x(i, d);
        binned_key(slot) = key(i);
      });
}

// Stencil rows: for each bin offset (dy, dz) with some bin closer than the cutoff, the
// reach rx along x such that the bins dx = -rx..rx are those closer than the cutoff (the
// gap grows with |dx|, so they are consecutive). Bins consecutive along x hold their atoms
// consecutively (bin index order), so a row is one contiguous run of candidates.
static std::vector<std::array<int, 3>> make_stencil(const NeighborList::Grid& grid, double cutoff) {
  int reach[3];
  double size[3];
  for (int d = 0; d < 3; ++d) {
    size[d] = 1.0 / grid.inv_size[d];
    reach[d] = std::min(static_cast<int>(std::ceil(cutoff / size[d])), grid.n[d]);
  }
  const auto gap2 = [&](int dx, int dy, int dz) {
    const int off[3] = {dx, dy, dz};
    double sum = 0.0;
    for (int d = 0; d < 3; ++d) {
      const double gap = std::max(std::abs(off[d]) - 1, 0) * size[d];
      sum += gap * gap;
    }
    return sum;
  };
  std::vector<std::array<int, 3>> rows;
  for (int k = -reach[2]; k <= reach[2]; ++k) {
    for (int j = -reach[1]; j <= reach[1]; ++j) {
      int rx = -1;
      while (rx < reach[0] && gap2(rx + 1, j, k) < cutoff * cutoff) ++rx;
      if (rx >= 0) rows.push_back({rx, j, k});
    }
  }
  return rows;
}

int NeighborList::fill(const Atoms& atoms, const CutoffTable& cutsq, const Grid& grid) {
  if (atoms.special_width > 0) return fill_rows<false, true>(atoms, cutsq, grid);
  return cutsq.extent(0) == 2 ? fill_rows<true, false>(atoms, cutsq, grid)
                              : fill_rows<false, false>(atoms, cutsq, grid);
}

void NeighborList::make_keys(const Atoms& atoms) {
  const int nall = atoms.nall();
  if (static_cast<int>(key_.extent(0)) < nall) key_ = IdView("md::neighbor_key", nall + nall / 5);
  const auto id = atoms.id;
  const auto code = atoms.code;
  const auto key = key_;
  Kokkos::parallel_for(
      "md::neighbor_keys", Policy(0, nall),
      KOKKOS_LAMBDA(int i) { key(i) = entry_key(id(i), code(i)); });
}

// One row per owned atom: candidates from the stencil rows (each a contiguous run of
// binned positions and keys), filtered by the half-list key criterion first (cheaper
// than the distance), then (molecules) its special level, then inserted in key order
// into a per-row buffer and written out once.
template <bool OneType, bool Special>
int NeighborList::fill_rows(const Atoms& atoms, const CutoffTable& cutsq, const Grid& grid) {
  const auto x = atoms.x;
  const auto id = atoms.id;
  const auto special = atoms.special;
  const SpecialRule rule = special_;
  const auto type = atoms.type;
  const auto key = key_;
  const auto count = bin_count_, offset = bin_offset_, members = bin_atoms_, bin = atom_bin_;
  const auto binned_x = bin_x_;
  const auto binned_key = bin_key_;
  const auto stencil = stencil_;
  const int nstencil = stencil_size_;
  const auto list = neighbors;
  const auto number = counts;
  const int capacity = static_cast<int>(list.extent(1));
  const bool half = half_;
  auto host_cutsq = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), cutsq);
  const double cutsq_one = host_cutsq(1, 1);  // the one type pair (OneType)
  int most = 0;
  Kokkos::parallel_reduce(
      "md::neighbor_fill", Policy(0, atoms.nlocal),
      KOKKOS_LAMBDA(int i, int& longest) {
        std::int64_t row_key[row_buffer];
        int row_atom[row_buffer];
        const double xi = x(i, 0), yi = x(i, 1), zi = x(i, 2);
        const int ti = OneType ? 1 : type(i);
        const std::int64_t ki = key(i);
        const int b = bin(i);
        const int bx = b % grid.n[0], by = (b / grid.n[0]) % grid.n[1];
        const int bz = b / (grid.n[0] * grid.n[1]);
        int n = 0;
        for (int s = 0; s < nstencil; ++s) {
          const int cy = by + stencil(s, 1), cz = bz + stencil(s, 2);
          if (cy < 0 || cz < 0 || cy >= grid.n[1] || cz >= grid.n[2]) continue;
          const int row = (cz * grid.n[1] + cy) * grid.n[0];
          const int first = row + (bx > stencil(s, 0) ? bx - stencil(s, 0) : 0);
          const int last =
              row + (bx + stencil(s, 0) < grid.n[0] ? bx + stencil(s, 0) : grid.n[0] - 1);
          const int end = offset(last) + count(last);
          for (int k = offset(first); k < end; ++k) {
            const std::int64_t kj = binned_key(k);
            if (half ? kj <= ki : kj == ki) continue;  // keys are unique: kj == ki is i itself
            const double dx = xi - binned_x(k, 0), dy = yi - binned_x(k, 1),
                         dz = zi - binned_x(k, 2);
            const double reach = OneType ? cutsq_one : cutsq(ti, type(members(k)));
            if (dx * dx + dy * dy + dz * dz >= reach) continue;
            const int j = members(k);
            int entry = j;
            if (Special) {
              const int level = special_level_of(special, i, id(j));
              const SpecialAction action = rule.action[level];
              if (action == SpecialAction::exclude) continue;
              if (action == SpecialAction::mark)
                entry = static_cast<int>(static_cast<unsigned>(j) |
                                         (static_cast<unsigned>(level) << special_shift));
            }
            if (n < row_buffer) {
              insert_sorted(row_key, row_atom, n, kj, entry);
            } else if (n < capacity) {
              list(i, n) = entry;  // past the buffer: sort_rows() places it
            }
            ++n;
          }
        }
        const int sorted = n < row_buffer ? n : row_buffer;
        const int padded_n = padded(n);
        if (padded_n <= capacity) {
          for (int k = 0; k < sorted; ++k) list(i, k) = row_atom[k];
          for (int k = n; k < padded_n; ++k) list(i, k) = row_atom[0];
        }
        number(i) = n;
        if (n > longest) longest = n;
      },
      Kokkos::Max<int>(most));
  return most;
}

namespace {

// Moves the entry at `root` of row i down the max-heap of the row's first
// `end` entries, ordered by key.
KOKKOS_INLINE_FUNCTION void sift_down(const NeighborView& list, const IdView& key, int i, int root,
                                      int end) {
  const int moving = list(i, root);
  const std::int64_t moving_key = key(neighbor_index(moving));
  for (int child = 2 * root + 1; child < end; child = 2 * root + 1) {
    std::int64_t child_key = key(neighbor_index(list(i, child)));
    if (child + 1 < end) {
      const std::int64_t right_key = key(neighbor_index(list(i, child + 1)));
      if (right_key > child_key) {
        ++child;
        child_key = right_key;
      }
    }
    if (child_key <= moving_key) break;
    list(i, root) = list(i, child);
    root = child;
  }
  list(i, root) = moving;
}

// Sorts the n (key, entry) pairs of `keys`, `entries` by key: a least-significant-digit
// radix sort, 8 bits a pass over the bits of (key - smallest key), back and forth
// between these arrays and the spare ones. Stable and branch-free, n + 256 steps a pass
// (water rows of ~350 entries take three passes; the heapsort it replaced made ~n log n
// unpredictable comparisons). Returns the array that holds the sorted entries.
KOKKOS_INLINE_FUNCTION const int* radix_sort(std::int64_t* keys, int* entries,
                                             std::int64_t* spare_keys, int* spare_entries, int n) {
  std::int64_t lowest = keys[0], highest = keys[0];
  for (int m = 1; m < n; ++m) {
    lowest = keys[m] < lowest ? keys[m] : lowest;
    highest = keys[m] > highest ? keys[m] : highest;
  }
  const auto span = static_cast<std::uint64_t>(highest - lowest);
  for (int shift = 0; shift < 64 && (span >> shift) != 0; shift += 8) {
    int start[257] = {};
    const auto digit = [&](int m) {
      return static_cast<int>((static_cast<std::uint64_t>(keys[m] - lowest) >> shift) & 255);
    };
    for (int m = 0; m < n; ++m) ++start[1 + digit(m)];
    for (int d = 1; d < 257; ++d) start[d] += start[d - 1];
    for (int m = 0; m < n; ++m) {
      const int slot = start[digit(m)]++;
      spare_keys[slot] = keys[m];
      spare_entries[slot] = entries[m];
    }
    std::int64_t* const k = keys;
    keys = spare_keys;
    spare_keys = k;
    int* const e = entries;
    entries = spare_entries;
    spare_entries = e;
  }
  return entries;
}

}  // namespace

// Sorts by key the rows longer than the fill buffer: rows of up to
// sort_buffer entries in a private copy with their keys beside them (one key
// load per entry), by radix_sort; longer rows by heapsort in place. Keys are
// unique, so the order is the one any sort gives.
void NeighborList::sort_rows(int nlocal) {
  const auto key = key_;
  const auto list = neighbors;
  const auto number = counts;
  Kokkos::parallel_for(
      "md::neighbor_sort_long_rows", Policy(0, nlocal), KOKKOS_LAMBDA(int i) {
        const int n = number(i);
        if (n <= row_buffer) return;
        if (n <= sort_buffer) {
          std::int64_t keys[sort_buffer], spare_keys[sort_buffer];
          int entries[sort_buffer], spare_entries[sort_buffer];
          for (int m = 0; m < n; ++m) {
            entries[m] = list(i, m);
            keys[m] = key(neighbor_index(entries[m]));
          }
          const int* sorted = radix_sort(keys, entries, spare_keys, spare_entries, n);
          for (int m = 0; m < n; ++m) list(i, m) = sorted[m];
          return;
        }
        for (int root = n / 2 - 1; root >= 0; --root) sift_down(list, key, i, root, n);
        for (int end = n - 1; end > 0; --end) {
          const int top = list(i, 0);
          list(i, 0) = list(i, end);
          list(i, end) = top;
          sift_down(list, key, i, 0, end);
        }
      });
}

void NeighborList::build(const Atoms& atoms, const CutoffTable& cutsq) {
  const Grid grid = make_grid(atoms);
  make_keys(atoms);
  bin_atoms(atoms, grid);
  const auto stencil = make_stencil(grid, cutoff_);
  stencil_size_ = static_cast<int>(stencil.size());
  if (static_cast<int>(stencil_.extent(0)) < stencil_size_) {
    stencil_ = Kokkos::View<int* [3], MemSpace>("md::stencil", stencil_size_);
  }
  auto host = Kokkos::create_mirror_view(stencil_);
  for (int s = 0; s < stencil_size_; ++s) {
    for (int d = 0; d < 3; ++d) host(s, d) = stencil[s][d];
  }
  Kokkos::deep_copy(stencil_, host);
  const int nlocal = atoms.nlocal;
  if (static_cast<int>(counts.extent(0)) < nlocal) {
    counts = IntView("md::neighbor_counts", nlocal + nlocal / 5);
  }
  if (static_cast<int>(neighbors.extent(0)) < nlocal || neighbors.extent(1) == 0) {
    const int width = std::max(static_cast<int>(neighbors.extent(1)), half_ ? 64 : 128);
    neighbors = NeighborView("md::neighbors", nlocal + nlocal / 5, width);
  }
  int most = fill(atoms, cutsq, grid);
  if (padded(most) > static_cast<int>(neighbors.extent(1))) {
    neighbors = NeighborView("md::neighbors", neighbors.extent(0), padded(most + most / 5));
    most = fill(atoms, cutsq, grid);
  }
  if (most > row_buffer) sort_rows(nlocal);
}

}  // namespace cb::md
