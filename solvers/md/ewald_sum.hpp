// The Fourier-space part of an Ewald sum (LAMMPS kspace_style ewald; the
// formulas of kernels/md/ewald.hpp) as a force term, with the real-space part
// in the pair style lj/cut/coul/long. Over the k vectors of half of k-space
// (k and -k together), |k|^2 <= gsqmx:
//   S(k) = sum_j q_j exp(i k.r_j)             (owned atoms, then MPI_Allreduce)
//   E    = qqrd2e [sum_k 2 w(k) |S(k)|^2 - g/sqrt(pi) sum_i q_i^2
//                   - pi Q^2 / (2 g^2 V)]   (Q = sum_i q_i: LAMMPS's background)
//   F_i  = qqrd2e q_i sum_k 4 w(k) k (sin(k.r_i) Re S - cos(k.r_i) Im S)
//   r.f  = qqrd2e sum_k 2 w(k) |S(k)|^2 (1 - k^2 / (2 g^2))
// with w(k) = (2 pi / V) exp(-k^2 / 4g^2) / k^2; tin-foil boundary. Each S(k)
// is summed over the atoms in index order by one thread and each force over
// the k vectors in order: the same bits on every thread count. With [kspace]
// slab = s the k vectors and V are those of the box extended to Lz s along z
// (slab_correction.hpp adds the dipole term).
// The per-atom energy output (pe) leaves this part out.
#pragma once

#include "core/ordered_sum.hpp"
#include "kernels/md/ewald.hpp"
#include "solvers/md/force_field.hpp"

#include <mpi.h>

#include <vector>

namespace cb::md {

class EwaldSum : public ForceTerm {
 public:
  EwaldSum(const Params& params, MPI_Comm comm);

  // Collective, once the atoms are loaded: g and the k vectors from the
  // accuracy, the atom count and sum q^2 (as LAMMPS; the charge sums `given`
  // by a checkpoint, else summed here). Returns g.
  double setup(const Atoms& atoms, std::int64_t natoms, const std::optional<ChargeSums>& given);
  ChargeSums charge_sums() const { return {qsum_, q2sum_}; }
  // The box changed size (a barostat): g stays, k_max (from the accuracy,
  // unless given), the k vectors and their weights follow the new box, as
  // LAMMPS's Ewald::setup.
  void box_changed(const LocalBox& box) override;

  void add_forces(Atoms& atoms, const NeighborList& list) override;
  EnergyVirial energy_virial(const Atoms& atoms, const NeighborList& list) override;
  Part part() const override { return Part::kspace; }
  void add_per_atom_energy(const Atoms&, const NeighborList&, const Vec3View&) override {}

  int vectors() const { return nk_; }
  const kernels::md::EwaldParameters& parameters() const { return parameters_; }

  // Public for the CUDA extended-lambda rule; not part of the interface.
  void structure_factors(const Atoms& atoms);

 private:
  // The k vectors of half of k-space with |k|^2 <= gsqmx in the k-space box
  // `prd` (the box, z extended by the slab factor), and their weights.
  void make_vectors(const double prd[3]);

  Params params_;
  MPI_Comm comm_;
  OrderedSum sums_;
  double qqrd2e_;
  kernels::md::EwaldParameters parameters_;
  double q2sum_ = 0.0;   // sum q_i^2 over all atoms
  double qsum_ = 0.0;    // sum q_i (net charge)
  double volume_ = 0.0;  // of the k-space box
  double natoms_ = 0.0;  // 0 until setup()
  ParticleBox box_;      // the current box (g comes from the case's, params_.box)
  int nk_ = 0;
  Kokkos::View<double* [4], Kokkos::LayoutRight, MemSpace> kvec_;  // kx, ky, kz, w(k)
  Kokkos::View<double* [2], Kokkos::LayoutRight, MemSpace> sfac_;  // Re S, Im S (all ranks)
  Kokkos::View<double* [2], Kokkos::LayoutRight, Kokkos::HostSpace> host_sfac_;
  std::vector<double> host_kvec_;  // kvec_ on the host, for the energy and virial
};

}  // namespace cb::md
