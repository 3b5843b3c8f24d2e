#include "solvers/md/rebuild_schedule.hpp"

#include <algorithm>
#include <cmath>

namespace cb::md {
namespace {

using Policy = Kokkos::RangePolicy<ExecSpace>;

}  // namespace

RebuildSchedule::RebuildSchedule(const Params& params, MPI_Comm comm)
    : every_(params.every),
      delay_(params.delay),
      check_(params.check),
      skin_(params.skin),
      comm_(comm) {
  for (int d = 0; d < 3; ++d) {
    build_lo_[d] = params.box.lo[d];
    build_hi_[d] = params.box.hi[d];
  }
}

bool RebuildSchedule::due(const Atoms& atoms, const LocalBox& box) const {
  if (ago_ < delay_ || ago_ % every_ != 0) return false;
  if (!check_) return true;
  const double local = max_displacement_sq(atoms);
  double global = 0.0;
  MPI_Allreduce(&local, &global, 1, MPI_DOUBLE, MPI_MAX, comm_);
  double lo_moved = 0.0, hi_moved = 0.0;
  for (int d = 0; d < 3; ++d) {
    lo_moved += (box.lo[d] - build_lo_[d]) * (box.lo[d] - build_lo_[d]);
    hi_moved += (box.hi[d] - build_hi_[d]) * (box.hi[d] - build_hi_[d]);
  }
  if (lo_moved == 0.0 && hi_moved == 0.0) return global > 0.25 * skin_ * skin_;
  const double trigger = std::max(0.0, 0.5 * (skin_ - (std::sqrt(lo_moved) + std::sqrt(hi_moved))));
  return global > trigger * trigger;
}

void RebuildSchedule::built(const Atoms& atoms, const LocalBox& box) {
  save_build_positions(atoms);
  for (int d = 0; d < 3; ++d) {
    build_lo_[d] = box.lo[d];
    build_hi_[d] = box.hi[d];
  }
  ago_ = 0;
}

double max_displacement_sq(const Atoms& atoms) {
  const auto x = atoms.x;
  const auto x0 = atoms.x_build;
  double most = 0.0;
  Kokkos::parallel_reduce(
      "md::max_displacement", Policy(0, atoms.nlocal),
      KOKKOS_LAMBDA(int i, double& m) {
        const double dx = x(i, 0) - x0(i, 0), dy = x(i, 1) - x0(i, 1), dz = x(i, 2) - x0(i, 2);
        const double r2 = dx * dx + dy * dy + dz * dz;
        if (r2 > m) m = r2;
      },
      Kokkos::Max<double>(most));
  return most;
}

void save_build_positions(const Atoms& atoms) {
  const auto x = atoms.x;
  const auto x0 = atoms.x_build;
  Kokkos::parallel_for(
      "md::save_build_positions", Policy(0, atoms.nlocal), KOKKOS_LAMBDA(int i) {
        for (int d = 0; d < 3; ++d) x0(i, d) = x(i, d);
      });
}

}  // namespace cb::md
