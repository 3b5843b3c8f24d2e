// The slab correction of long-range electrostatics (LAMMPS kspace_modify slab,
// Yeh & Berkowitz 1999, J. Chem. Phys. 111:3155) as a force term after the
// Ewald or PPPM sum: the k-space sum runs over the box extended along z to
// Lz s (empty above the atoms), and this term removes the interaction of the
// periodic images along z through the total dipole moment M = sum_i q_i z_i
// (kernels/md/ewald.hpp, slab_energy; with LAMMPS's terms for a non-neutral
// system). Per force evaluation: M (and, for a charged system, sum q z^2)
// over the owned atoms in index order, summed over ranks; F_z,i = qqrd2e
// (-4 pi / V) q_i (M - Q z_i). Its energy is counted in elong (LAMMPS adds it
// to the k-space energy); LAMMPS adds nothing to the virial, nor does this.
#pragma once

#include "core/ordered_sum.hpp"
#include "solvers/md/force_field.hpp"

#include <mpi.h>

namespace cb::md {

class SlabCorrection : public ForceTerm {
 public:
  SlabCorrection(const Params& params, MPI_Comm comm);

  // Collective, once the atoms are loaded: the total charge Q.
  void setup(const Atoms& atoms);

  void add_forces(Atoms& atoms, const NeighborList& list) override;
  EnergyVirial energy_virial(const Atoms& atoms, const NeighborList& list) override;
  void add_per_atom_energy(const Atoms&, const NeighborList&, const Vec3View&) override {}
  Part part() const override { return Part::kspace; }

 private:
  struct Moments {
    double dipole = 0.0;     // sum_i q_i z_i
    double dipole_r2 = 0.0;  // sum_i q_i z_i^2 (0 for a neutral system, as LAMMPS)
  };
  Moments moments(const Atoms& atoms);

  MPI_Comm comm_;
  OrderedSum sums_;
  double qqrd2e_;
  double zprd_;    // the box length along z
  double volume_;  // of the extended k-space box, Lx Ly Lz s
  double qsum_ = 0.0;
};

}  // namespace cb::md
