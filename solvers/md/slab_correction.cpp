#include "solvers/md/slab_correction.hpp"

#include "kernels/md/ewald.hpp"

#include <cmath>

namespace cb::md {
namespace {

using Policy = Kokkos::RangePolicy<ExecSpace>;
namespace kmd = kernels::md;

// This rank's sum q z and sum q z^2 over its atoms (a free function: nvcc
// refuses device lambdas in private members).
Sums<2> dipole_sums(OrderedSum& sums, const Atoms& atoms) {
  const auto q = atoms.q;
  const auto x = atoms.x;
  return sums.sum<2>(
      "md::slab_dipole", atoms.nlocal, KOKKOS_LAMBDA(int i, double* s) {
        s[0] += q(i) * x(i, 2);
        s[1] += q(i) * x(i, 2) * x(i, 2);
      });
}

}  // namespace

SlabCorrection::SlabCorrection(const Params& params, MPI_Comm comm)
    : comm_(comm), qqrd2e_(params.units.qqr2e / params.dielectric) {
  double prd[3];
  for (int d = 0; d < 3; ++d) prd[d] = params.box.hi[d] - params.box.lo[d];
  zprd_ = prd[2];
  volume_ = prd[0] * prd[1] * (prd[2] * params.kspace_slab);
}

void SlabCorrection::setup(const Atoms& atoms) {
  const auto q = atoms.q;
  const double mine =
      sums_
          .sum<1>(
              "md::slab_charge", atoms.nlocal, KOKKOS_LAMBDA(int i, double* s) { s[0] += q(i); })
          .value[0];
  MPI_Allreduce(&mine, &qsum_, 1, MPI_DOUBLE, MPI_SUM, comm_);
}

SlabCorrection::Moments SlabCorrection::moments(const Atoms& atoms) {
  const Sums<2> mine = dipole_sums(sums_, atoms);
  double total[2] = {0.0, 0.0};
  MPI_Allreduce(mine.value, total, 2, MPI_DOUBLE, MPI_SUM, comm_);
  Moments m;
  m.dipole = total[0];
  if (std::fabs(qsum_) > kmd::slab_charged) m.dipole_r2 = total[1];
  return m;
}

void SlabCorrection::add_forces(Atoms& atoms, const NeighborList& /*list*/) {
  const Moments m = moments(atoms);
  const double factor = qqrd2e_ * kmd::slab_force_factor(volume_);
  const double dipole = m.dipole, qsum = qsum_;
  const auto q = atoms.q;
  const auto x = atoms.x;
  const auto f = atoms.f;
  Kokkos::parallel_for(
      "md::slab_forces", Policy(0, atoms.nlocal),
      KOKKOS_LAMBDA(int i) { f(i, 2) += factor * q(i) * (dipole - qsum * x(i, 2)); });
}

// The whole correction on rank 0 (every rank holds the moments).
EnergyVirial SlabCorrection::energy_virial(const Atoms& atoms, const NeighborList& /*list*/) {
  const Moments m = moments(atoms);
  int rank = 0;
  MPI_Comm_rank(comm_, &rank);
  EnergyVirial ev;
  if (rank == 0) {
    ev.energy[Energy::kspace] =
        qqrd2e_ * kmd::slab_energy(m.dipole, m.dipole_r2, qsum_, zprd_, volume_);
  }
  return ev;
}

}  // namespace cb::md
