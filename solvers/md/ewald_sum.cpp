#include "solvers/md/ewald_sum.hpp"

#include "core/error.hpp"
#include "kernels/md/ewald.hpp"
#include "kernels/md/pppm.hpp"  // pppm_virial_coeff: the k-space virial weights

#include <algorithm>
#include <cmath>
#include <vector>

namespace cb::md {
namespace {

using Policy = Kokkos::RangePolicy<ExecSpace>;
namespace kmd = kernels::md;

// An explicit kmax (LAMMPS kspace_modify kmax/ewald): gsqmx from it and the
// k-space box `prd`.
void set_explicit_gsqmx(kmd::EwaldParameters& p, const double prd[3]) {
  p.gsqmx = 0.0;
  for (int d = 0; d < 3; ++d) {
    const double unitk = 2.0 * cb::math::pi / prd[d];
    p.gsqmx = std::max(p.gsqmx, unitk * unitk * p.kmax[d] * p.kmax[d]);
  }
  p.gsqmx *= 1.00001;
}

}  // namespace

EwaldSum::EwaldSum(const Params& params, MPI_Comm comm)
    : params_(params),
      comm_(comm),
      qqrd2e_(params.units.qqr2e / params.dielectric),
      box_(params.box) {}

double EwaldSum::setup(const Atoms& atoms, std::int64_t natoms,
                       const std::optional<ChargeSums>& given) {
  const ChargeSums charges = sum_charges(atoms, sums_, comm_, given);
  q2sum_ = charges.square_sum;
  qsum_ = charges.sum;
  if (!(q2sum_ > 0.0)) throw InputError("md: kspace ewald: every charge is zero");
  double prd[3];
  for (int d = 0; d < 3; ++d) prd[d] = params_.box.hi[d] - params_.box.lo[d];
  parameters_ =
      params_.kspace_g_ewald > 0.0
          ? kmd::EwaldParameters{params_.kspace_g_ewald,
                                 {params_.kspace_kmax, params_.kspace_kmax, params_.kspace_kmax},
                                 0.0}
          : kmd::ewald_parameters(params_.kspace_accuracy, params_.units.qqr2e, double(natoms),
                                  params_.coulomb_cutoff, prd, q2sum_ * qqrd2e_,
                                  params_.kspace_slab);
  prd[2] *= params_.kspace_slab;  // the k-space box (LAMMPS zprd_slab)
  natoms_ = double(natoms);
  if (box_.lo != params_.box.lo || box_.hi != params_.box.hi) {
    LocalBox now;  // a restart of a run whose box changed: g of the case's box
    for (int d = 0; d < 3; ++d) {
      now.lo[d] = box_.lo[d];
      now.hi[d] = box_.hi[d];
    }
    box_changed(now);
    return parameters_.g_ewald;
  }
  if (parameters_.gsqmx == 0.0) set_explicit_gsqmx(parameters_, prd);
  make_vectors(prd);
  return parameters_.g_ewald;
}

void EwaldSum::box_changed(const LocalBox& box) {
  for (int d = 0; d < 3; ++d) {
    box_.lo[d] = box.lo[d];
    box_.hi[d] = box.hi[d];
  }
  if (natoms_ == 0.0) return;  // not set up yet: setup() takes box_
  double prd[3];
  for (int d = 0; d < 3; ++d) prd[d] = box.hi[d] - box.lo[d];
  prd[2] *= params_.kspace_slab;
  if (params_.kspace_g_ewald > 0.0) {
    set_explicit_gsqmx(parameters_, prd);
  } else {
    kmd::ewald_kmax(params_.kspace_accuracy * params_.units.qqr2e, natoms_, prd, q2sum_ * qqrd2e_,
                    parameters_);
  }
  make_vectors(prd);
}

void EwaldSum::make_vectors(const double prd[3]) {
  // Half of k-space: kx > 0, or kx = 0 and ky > 0, or kx = ky = 0 and kz > 0.
  const double volume = prd[0] * prd[1] * prd[2];
  volume_ = volume;
  const int* kmax = parameters_.kmax;
  std::vector<double>& vectors = host_kvec_;
  vectors.clear();
  for (int kx = 0; kx <= kmax[0]; ++kx) {
    for (int ky = kx == 0 ? 0 : -kmax[1]; ky <= kmax[1]; ++ky) {
      for (int kz = kx == 0 && ky == 0 ? 1 : -kmax[2]; kz <= kmax[2]; ++kz) {
        const double k[3] = {2.0 * cb::math::pi / prd[0] * kx, 2.0 * cb::math::pi / prd[1] * ky,
                             2.0 * cb::math::pi / prd[2] * kz};
        const double k2 = k[0] * k[0] + k[1] * k[1] + k[2] * k[2];
        if (k2 > parameters_.gsqmx) continue;
        vectors.insert(vectors.end(), {k[0], k[1], k[2],
                                       kmd::ewald_kspace_weight(k2, parameters_.g_ewald, volume)});
      }
    }
  }
  nk_ = static_cast<int>(vectors.size() / 4);
  kvec_ = decltype(kvec_)("md::ewald_kvec", nk_);
  sfac_ = decltype(sfac_)("md::ewald_sfac", nk_);
  host_sfac_ = decltype(host_sfac_)("md::ewald_sfac_host", nk_);
  Kokkos::deep_copy(kvec_,
                    Kokkos::View<const double* [4], Kokkos::HostSpace, Kokkos::MemoryUnmanaged>(
                        vectors.data(), nk_));
}

// S(k) of the owned atoms, one k vector per thread, then summed over ranks.
void EwaldSum::structure_factors(const Atoms& atoms) {
  const auto x = atoms.x;
  const auto q = atoms.q;
  const auto kvec = kvec_;
  const auto sfac = sfac_;
  const int n = atoms.nlocal;
  Kokkos::parallel_for(
      "md::ewald_structure_factors", Policy(0, nk_), KOKKOS_LAMBDA(int k) {
        double re = 0.0, im = 0.0;
        for (int i = 0; i < n; ++i) {
          const double phase = kvec(k, 0) * x(i, 0) + kvec(k, 1) * x(i, 1) + kvec(k, 2) * x(i, 2);
          re += q(i) * cb::math::cos(phase);
          im += q(i) * cb::math::sin(phase);
        }
        sfac(k, 0) = re;
        sfac(k, 1) = im;
      });
  Kokkos::deep_copy(host_sfac_, sfac_);
  MPI_Allreduce(MPI_IN_PLACE, host_sfac_.data(), 2 * nk_, MPI_DOUBLE, MPI_SUM, comm_);
  Kokkos::deep_copy(sfac_, host_sfac_);
}

void EwaldSum::add_forces(Atoms& atoms, const NeighborList& /*list*/) {
  structure_factors(atoms);
  const auto x = atoms.x;
  const auto q = atoms.q;
  const auto f = atoms.f;
  const auto kvec = kvec_;
  const auto sfac = sfac_;
  const int nk = nk_;
  const double qqrd2e = qqrd2e_;
  Kokkos::parallel_for(
      "md::ewald_forces", Policy(0, atoms.nlocal), KOKKOS_LAMBDA(int i) {
        double ek[3] = {0.0, 0.0, 0.0};
        for (int k = 0; k < nk; ++k) {
          const double phase = kvec(k, 0) * x(i, 0) + kvec(k, 1) * x(i, 1) + kvec(k, 2) * x(i, 2);
          const double partial =
              cb::math::sin(phase) * sfac(k, 0) - cb::math::cos(phase) * sfac(k, 1);
          for (int d = 0; d < 3; ++d) ek[d] += partial * 4.0 * kvec(k, 3) * kvec(k, d);
        }
        for (int d = 0; d < 3; ++d) f(i, d) += qqrd2e * q(i) * ek[d];
      });
}

// The whole Fourier energy and virial on rank 0 (every rank holds all of
// S(k)), the self energy shared by the ranks' own atoms.
EnergyVirial EwaldSum::energy_virial(const Atoms& atoms, const NeighborList& /*list*/) {
  structure_factors(atoms);
  const double* kvec = host_kvec_.data();
  const double g = parameters_.g_ewald;
  int rank = 0;
  MPI_Comm_rank(comm_, &rank);
  EnergyVirial ev;
  double& energy = ev.energy[Energy::kspace];
  if (rank == 0) {
    for (int k = 0; k < nk_; ++k) {
      const double* kv = kvec + 4 * k;
      const double k2 = kv[0] * kv[0] + kv[1] * kv[1] + kv[2] * kv[2];
      const double uk =
          2.0 * kv[3] * (host_sfac_(k, 0) * host_sfac_(k, 0) + host_sfac_(k, 1) * host_sfac_(k, 1));
      energy += uk;
      ev.virial += uk * (1.0 - k2 / (2.0 * g * g));
      double vg[6];  // LAMMPS Ewald's vg, the same weights as PPPM's
      kmd::pppm_virial_coeff(kv[0], kv[1], kv[2], g, vg);
      for (int c = 0; c < 6; ++c) ev.virial_tensor[c] += uk * vg[c];
    }
    energy += kmd::ewald_self_per_q2(g) * q2sum_;
    energy += kmd::ewald_background(qsum_, g, volume_);
    energy *= qqrd2e_;
    ev.virial *= qqrd2e_;
    for (double& w : ev.virial_tensor) w *= qqrd2e_;
  }
  return ev;
}

}  // namespace cb::md
