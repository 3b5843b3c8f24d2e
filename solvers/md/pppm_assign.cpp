// PppmSum's charge assignment: each owned atom's stencil centre and weights,
// the atoms sorted by centre, and the gather onto the out brick.
#include "core/error.hpp"
#include "solvers/md/pppm_sum.hpp"

#include <string>

namespace cb::md {
namespace {

using Policy = Kokkos::RangePolicy<ExecSpace>;
using Policy3 = Kokkos::MDRangePolicy<ExecSpace, Kokkos::Rank<3>>;
namespace kmd = kernels::md;

struct CellRange {
  int first, last;
};

// The cells (stencil centres n = lo + c, c in [0, cells)) whose stencil
// [n + nlower, n + nupper] covers mesh point m along one axis.
KOKKOS_INLINE_FUNCTION CellRange cells_reaching(int m, int lo, int cells, int nlower, int nupper) {
  const int first = m - nupper - lo, last = m - nlower - lo;
  return {first > 0 ? first : 0, last < cells - 1 ? last : cells - 1};
}

}  // namespace

// Per owned atom: the stencil centre n and weights per axis (LAMMPS
// particle_map and compute_rho1d), its cell among the centres of this rank,
// then a counting sort of the atoms by cell, each cell in index order.
void PppmSum::map_atoms(const Atoms& atoms) {
  const int nlocal = atoms.nlocal;
  const kmd::PppmStencil st = kmd::pppm_stencil(parameters_.order);
  const kmd::PppmAssignmentCoeff coeff = coeff_;
  const double lo[3] = {box_.lo[0], box_.lo[1], box_.lo[2]};
  const double delinv[3] = {delinv_[0], delinv_[1], delinv_[2]};
  const int clo[3] = {centre_lo_[0], centre_lo_[1], centre_lo_[2]};
  const int nc[3] = {centres_[0], centres_[1], centres_[2]};
  const int cells = nc[0] * nc[1] * nc[2];
  const auto x = atoms.x;
  const auto centre = centre_;
  const auto weights = weights_;
  const auto cell_of = cell_of_;
  int outside = 0;
  Kokkos::parallel_reduce(
      "md::pppm_map_atoms", Policy(0, nlocal),
      KOKKOS_LAMBDA(int i, int& bad) {
        int c[3];
        for (int d = 0; d < 3; ++d) {
          const kmd::PppmGridPoint p = kmd::pppm_grid_point(x(i, d), lo[d], delinv[d], st);
          centre(i, d) = p.n;
          double w[kmd::pppm_max_order];
          kmd::pppm_assignment_weights(coeff, p.dx, w);
          for (int k = 0; k < st.order; ++k) weights(i, d, k) = w[k];
          c[d] = p.n - clo[d];
        }
        const bool inside =
            c[0] >= 0 && c[0] < nc[0] && c[1] >= 0 && c[1] < nc[1] && c[2] >= 0 && c[2] < nc[2];
        cell_of(i) = inside ? c[0] + nc[0] * (c[1] + nc[1] * c[2]) : 0;
        if (!inside) ++bad;
      },
      outside);
  MPI_Allreduce(MPI_IN_PLACE, &outside, 1, MPI_INT, MPI_SUM, decomposition_.comm());
  if (outside > 0) {
    throw RunError("md: kspace pppm: " + std::to_string(outside) +
                   " atoms moved more than skin / 2 out of their sub-box, past the PPPM ghost "
                   "points (as LAMMPS's \"Out of range atoms\"; set [neighbor] check = true)");
  }

  const auto start = cell_start_;
  const auto fill = cell_fill_;
  const auto sorted = sorted_;
  Kokkos::deep_copy(fill, 0);
  Kokkos::parallel_for(
      "md::pppm_count_cells", Policy(0, nlocal),
      KOKKOS_LAMBDA(int i) { Kokkos::atomic_increment(&fill(cell_of(i))); });
  Kokkos::parallel_scan(
      "md::pppm_cell_offsets", Policy(0, cells + 1), KOKKOS_LAMBDA(int c, int& update, bool final) {
        if (final) start(c) = update;
        if (c < cells) update += fill(c);
      });
  Kokkos::deep_copy(fill, 0);
  Kokkos::parallel_for(
      "md::pppm_fill_cells", Policy(0, nlocal), KOKKOS_LAMBDA(int i) {
        const int c = cell_of(i);
        sorted(start(c) + Kokkos::atomic_fetch_add(&fill(c), 1)) = i;
      });
  // The order within a cell followed the atomics: restore index order.
  Kokkos::parallel_for(
      "md::pppm_sort_cells", Policy(0, cells), KOKKOS_LAMBDA(int c) {
        for (int s = start(c) + 1; s < start(c + 1); ++s) {
          const int atom = sorted(s);
          int t = s;
          for (; t > start(c) && sorted(t - 1) > atom; --t) sorted(t) = sorted(t - 1);
          sorted(t) = atom;
        }
      });
}

// rho(m) = sum_i q_i delvolinv W(x_i - m) on every point m of the out brick:
// each point sums, cell by cell (z, y, x) and atom by atom in index order, the
// atoms whose stencil reaches it, with LAMMPS make_rho's products. One work
// item per run of assign_chunk points along x: the cells reaching a point
// row (cz, cy) are consecutive along x, so are their atoms in `sorted`, and
// each atom's z and y product serves every point of the run it reaches;
// every point still adds its atoms in the order above (the same bits as one
// point at a time).
void PppmSum::assign_charges(const Atoms& atoms) {
  constexpr int assign_chunk = 16;
  const kmd::PppmStencil st = kmd::pppm_stencil(parameters_.order);
  const int nlower = st.nlower, nupper = st.nupper, order = st.order;
  const double delvolinv = delinv_[0] * delinv_[1] * delinv_[2];
  const Brick out = grid_->out();
  const Int3 e = out.extent();
  const int ox = out.lo[0], oy = out.lo[1], oz = out.lo[2], nx = e[0];
  const int clx = centre_lo_[0], cly = centre_lo_[1], clz = centre_lo_[2];
  const int ncx = centres_[0], ncy = centres_[1], ncz = centres_[2];
  const auto centre = centre_;
  const auto q = atoms.q;
  const auto weights = weights_;
  const auto start = cell_start_;
  const auto sorted = sorted_;
  const auto density = density_;
  const int chunks = (nx + assign_chunk - 1) / assign_chunk;
  Kokkos::parallel_for(
      "md::pppm_assign_charges", Policy3({0, 0, 0}, {e[2], e[1], chunks}),
      KOKKOS_LAMBDA(int k, int j, int chunk) {
        const int i0 = chunk * assign_chunk;
        const int n = nx - i0 < assign_chunk ? nx - i0 : assign_chunk;
        const int mx0 = i0 + ox, my = j + oy, mz = k + oz;
        // Centres n with n + nlower <= m <= n + nupper, as cell indices.
        const CellRange first = cells_reaching(mx0, clx, ncx, nlower, nupper);
        const CellRange last = cells_reaching(mx0 + n - 1, clx, ncx, nlower, nupper);
        const CellRange ry = cells_reaching(my, cly, ncy, nlower, nupper);
        const CellRange rz = cells_reaching(mz, clz, ncz, nlower, nupper);
        double rho[assign_chunk];
        for (int p = 0; p < assign_chunk; ++p) rho[p] = 0.0;
        for (int cz = rz.first; cz <= rz.last; ++cz) {
          const int wz = mz - (cz + clz) - nlower;
          for (int cy = ry.first; cy <= ry.last; ++cy) {
            const int wy = my - (cy + cly) - nlower;
            const int row = ncx * (cy + ncy * cz);
            const int end = start(row + last.last + 1);
            for (int s = start(row + first.first); s < end; ++s) {
              const int a = sorted(s);
              const double zq = delvolinv * q(a) * weights(a, 2, wz);
              const double yq = zq * weights(a, 1, wy);
              // The points of the run within the atom's stencil.
              const int lo = centre(a, 0) + nlower - mx0;
              const int p0 = lo > 0 ? lo : 0, p1 = lo + order < n ? lo + order : n;
              for (int p = p0; p < p1; ++p) rho[p] += yq * weights(a, 0, p - lo);
            }
          }
        }
        for (int p = 0; p < n; ++p) density(0, k, j, i0 + p) = rho[p];
      });
}

}  // namespace cb::md
